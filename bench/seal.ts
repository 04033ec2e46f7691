/**
 * Sealing throughput: final documents sealed per second, each a two-page template document with
 * two participants who each drew a signature (render, certificate pages, PAdES signature, certificate PDF), with a warm
 * browser, one at a time and two side by side, and the memory it takes.
 * Goal: a warm seal in at most 100 ms, so a 2-core machine seals at least 10 per second.
 */
import { execFileSync } from 'node:child_process';
import { signDocument } from '../src/documents/participant/signer-flow.js';
import { findProcessByCode, listParticipants } from '../src/documents/queries.js';
import { sealProcess } from '../src/documents/sealing/seal-process.js';
import { ANSWERS, sampleTemplate } from '../test/support/fixtures.js';
import { call, localPath, startTestService, type TestService } from '../test/support/service.js';
import { compareWithLastRecorded } from './last-recorded.js';
import { healthOf, waitUntilReady } from './ready.js';
import { drawnSignature, TWO_PAGES } from './seal-document.js';

const PROCESSES = 40;
const GOAL_MS = 100;

async function finishedProcess(svc: TestService, template: string): Promise<string> {
  const res = await call(svc.app, 'POST', '/document/save', {
    key: svc.orgA.privateKey,
    body: { email: svc.orgA.email, name: 'Compraventa', document: template, data: ANSWERS },
  });
  const process = await findProcessByCode(svc.deps.db, svc.orgA.id, res.json().code);
  if (!process) throw new Error('not stored');
  const signatureImage = await drawnSignature();
  for (const participant of await listParticipants(svc.deps.db, process.id)) await signDocument(svc.deps, { token: participant.link_token, signatureImage });
  return process.id;
}

/** Resident memory of every Chromium process this one started, its renderers included (they are its grandchildren). */
function chromiumRssMb(): number {
  const rows = execFileSync('ps', ['-A', '-o', 'pid=,ppid=,rss=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((columns) => columns.length >= 4)
    .map(([pid, ppid, rss, ...args]) => ({ pid: Number(pid), ppid: Number(ppid), rss: Number(rss), args: args.join(' ') }));
  const ours = new Set([process.pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const row of rows) {
      if (ours.has(row.ppid) && !ours.has(row.pid)) {
        ours.add(row.pid);
        grew = true;
      }
    }
  }
  return rows.filter((row) => ours.has(row.pid) && row.args.includes('chrom')).reduce((sum, row) => sum + row.rss / 1024, 0);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
}

const svc = await startTestService('sqlite');
try {
  await waitUntilReady(healthOf(svc.app));
  const template = await call(svc.app, 'POST', '/template', { key: svc.orgA.privateKey, body: sampleTemplate() });
  await svc.app.inject({ method: 'PUT', url: localPath(template.json().urls.complete), headers: { 'content-type': 'text/html' }, payload: TWO_PAGES });
  const ids: string[] = [];
  for (let i = 0; i < PROCESSES * 2 + 1; i++) ids.push(await finishedProcess(svc, template.json().id));
  const warmup = ids.shift() ?? '';
  const launch = performance.now();
  await sealProcess(svc.deps, { processId: warmup });
  console.log(`cold seal (browser launch included): ${(performance.now() - launch).toFixed(0)} ms`);

  const times: number[] = [];
  const serialStart = performance.now();
  for (const processId of ids.slice(0, PROCESSES)) {
    const started = performance.now();
    await sealProcess(svc.deps, { processId });
    times.push(performance.now() - started);
  }
  const serialSeconds = (performance.now() - serialStart) / 1000;
  times.sort((a, b) => a - b);
  console.log(
    `one at a time: ${PROCESSES} seals, median ${percentile(times, 0.5).toFixed(0)} ms, p90 ${percentile(times, 0.9).toFixed(0)} ms, ${(PROCESSES / serialSeconds).toFixed(1)} seals/s`,
  );

  const pairs = ids.slice(PROCESSES);
  const pairedStart = performance.now();
  for (let i = 0; i < pairs.length; i += 2) await Promise.all(pairs.slice(i, i + 2).map((processId) => sealProcess(svc.deps, { processId })));
  const pairedPerSecond = pairs.length / ((performance.now() - pairedStart) / 1000);
  console.log(`two side by side: ${pairedPerSecond.toFixed(1)} seals/s`);
  compareWithLastRecorded('seal', [
    { name: 'warm seal median', value: Math.round(percentile(times, 0.5)), unit: 'ms', better: 'lower' },
    { name: 'two side by side', value: Math.round(pairedPerSecond * 10) / 10, unit: 'seals/s', better: 'higher' },
  ]);
  console.log(`memory: service ${(process.memoryUsage().rss / 1024 / 1024).toFixed(0)} MB, chromium ${chromiumRssMb().toFixed(0)} MB`);
  console.log(`goal: a warm seal in at most ${GOAL_MS} ms: ${percentile(times, 0.5) <= GOAL_MS ? 'met' : 'not met'} (median)`);
} finally {
  await svc.close();
}
