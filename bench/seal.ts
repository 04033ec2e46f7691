/**
 * Sealing throughput: final documents sealed per second, each a two-page template document with
 * two participants who each drew a signature (render, certificate pages, PAdES signature, certificate PDF), with a warm
 * browser, one at a time and two side by side, and the memory it takes; then an uploaded two-page
 * PDF whose two signers' signatures are drawn in their boxes on its pages, one at a time.
 * Goal: a warm seal of either in at most 100 ms, so a 2-core machine seals at least 10 per second.
 * Last, the same uploaded PDF sealed at each PAdES level (B-B, B-T, B-LT, B-LTA) with a test CA,
 * a timestamp authority and an OCSP responder on loopback (bench/seal-levels.ts).
 */
import { execFileSync } from 'node:child_process';
import { recordSignatureBoxes } from '../src/documents/placement/box-queries.js';
import { findProcessByCode, listParticipants } from '../src/documents/queries.js';
import { sealProcess } from '../src/documents/sealing/seal-process.js';
import { ANSWERS, sampleTemplate } from '../test/support/fixtures.js';
import { call, localPath, startTestService, type TestService } from '../test/support/service.js';
import { readAndSign } from '../test/support/signing.js';
import { compareWithLastRecorded } from './last-recorded.js';
import { healthOf, waitUntilReady } from './ready.js';
import { drawnSignature, PLACED_BOXES, TWO_PAGES, twoPagePdf } from './seal-document.js';
import { measureLevels } from './seal-levels.js';

const PROCESSES = 40;
const GOAL_MS = 100;

/** A process created by `route` with `body`, its participants' `boxes` recorded when given, everyone signed with a drawn signature. */
async function finishedProcess(
  svc: TestService,
  route: '/document/save' | '/document/upload',
  body: Record<string, unknown>,
  boxes = PLACED_BOXES.slice(0, 0),
) {
  const res = await call(svc.app, 'POST', route, { key: svc.orgA.privateKey, body: { email: svc.orgA.email, ...body } });
  const process = await findProcessByCode(svc.deps.db, svc.orgA.id, res.json().code);
  if (!process) throw new Error(`not stored: ${res.body}`);
  const participants = await listParticipants(svc.deps.db, process.id);
  await recordSignatureBoxes(
    svc.deps.db,
    boxes.map(([page, left_pt, bottom_pt, width_pt, height_pt], index) => ({
      process_id: process.id,
      document_position: 0,
      participant_row_id: participants[index]?.id ?? '',
      box_index: 0,
      page,
      left_pt,
      bottom_pt,
      width_pt,
      height_pt,
    })),
  );
  const signatureImage = await drawnSignature();
  // Each opens the documents first, as the signing page requires.
  for (const participant of participants) await readAndSign(svc.deps, { token: participant.link_token, signature: { kind: 'draw', image: signatureImage } });
  return process.id;
}

/** The median of sealing `ids` one at a time. */
async function medianSeal(svc: TestService, ids: string[]): Promise<{ times: number[]; seconds: number }> {
  const times: number[] = [];
  const start = performance.now();
  for (const processId of ids) {
    const started = performance.now();
    await sealProcess(svc.deps, { processId });
    times.push(performance.now() - started);
  }
  return { times: times.sort((a, b) => a - b), seconds: (performance.now() - start) / 1000 };
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
  const templateBody = { name: 'Compraventa', document: template.json().id, data: ANSWERS };
  for (let i = 0; i < PROCESSES * 2 + 1; i++) ids.push(await finishedProcess(svc, '/document/save', templateBody));
  const warmup = ids.shift() ?? '';
  const launch = performance.now();
  await sealProcess(svc.deps, { processId: warmup });
  console.log(`cold seal (browser launch included): ${(performance.now() - launch).toFixed(0)} ms`);

  const { times, seconds: serialSeconds } = await medianSeal(svc, ids.slice(0, PROCESSES));
  console.log(
    `one at a time: ${PROCESSES} seals, median ${percentile(times, 0.5).toFixed(0)} ms, p90 ${percentile(times, 0.9).toFixed(0)} ms, ${(PROCESSES / serialSeconds).toFixed(1)} seals/s`,
  );

  const pairs = ids.slice(PROCESSES);
  const pairedStart = performance.now();
  for (let i = 0; i < pairs.length; i += 2) await Promise.all(pairs.slice(i, i + 2).map((processId) => sealProcess(svc.deps, { processId })));
  const pairedPerSecond = pairs.length / ((performance.now() - pairedStart) / 1000);
  console.log(`two side by side: ${pairedPerSecond.toFixed(1)} seals/s`);
  // The uploaded contract with both signatures drawn in their boxes on its pages (issue 25).
  const uploadBody = {
    name: 'Contrato arrendamiento',
    file: (await twoPagePdf()).toString('base64'),
    signProfile: [
      { name: 'Ana Gómez', email: 'ana@people.test' },
      { name: 'Luis Pérez', email: 'luis@people.test' },
    ],
  };
  const placedIds: string[] = [];
  for (let i = 0; i < PROCESSES + 1; i++) placedIds.push(await finishedProcess(svc, '/document/upload', uploadBody, PLACED_BOXES));
  await sealProcess(svc.deps, { processId: placedIds.shift() ?? '' });
  const placed = await medianSeal(svc, placedIds);
  const placedMedian = percentile(placed.times, 0.5);
  console.log(
    `uploaded two-page PDF, two placed signatures: ${PROCESSES} seals, median ${placedMedian.toFixed(0)} ms, p90 ${percentile(placed.times, 0.9).toFixed(0)} ms`,
  );
  const levels = await measureLevels({ count: 20, finished: (service) => finishedProcess(service, '/document/upload', uploadBody) });
  for (const { level, median, p90 } of levels) {
    console.log(`uploaded two-page PDF at PAdES ${level} (loopback TSA and OCSP): median ${median.toFixed(0)} ms, p90 ${p90.toFixed(0)} ms`);
  }
  compareWithLastRecorded('seal', [
    { name: 'placed signatures seal median', value: Math.round(placedMedian), unit: 'ms', better: 'lower' },
    { name: 'warm seal median', value: Math.round(percentile(times, 0.5)), unit: 'ms', better: 'lower' },
    { name: 'two side by side', value: Math.round(pairedPerSecond * 10) / 10, unit: 'seals/s', better: 'higher' },
  ]);
  console.log(`memory: service ${(process.memoryUsage().rss / 1024 / 1024).toFixed(0)} MB, chromium ${chromiumRssMb().toFixed(0)} MB`);
  console.log(`goal: a warm seal in at most ${GOAL_MS} ms: ${percentile(times, 0.5) <= GOAL_MS ? 'met' : 'not met'} (median)`);
  console.log(`goal: a warm seal with two placed signatures in at most ${GOAL_MS} ms: ${placedMedian <= GOAL_MS ? 'met' : 'not met'} (median)`);
} finally {
  await svc.close();
}
