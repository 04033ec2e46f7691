/**
 * Sealing compared between checkouts of this repository, for a speed change's A/B:
 * `npx tsx bench/seal-ab.ts /path/to/before /path/to/after`. Each checkout runs its own service
 * (and Chromium) in this process, and their seals alternate one by one (the order flipped every
 * round), so whatever else loads the machine falls on both sides alike; each side's time is also
 * given as the median of its ratios to the first checkout's seal of the same round.
 *
 * It cannot see a change to the work Chromium does after a render returns (both browsers live
 * through the whole run, so that work lands on whichever seal comes next, of either side): such a
 * change is measured with whole `bench/seal.ts` runs, the checkouts taking turns.
 */
import { performance } from 'node:perf_hooks';
import { drawnSignature, TWO_PAGES } from './seal-document.js';

const roots = process.argv.slice(2).map((root) => root.replace(/\/$/, ''));
const N = 30;
interface Side {
  root: string;
  seal: (id: string) => Promise<unknown>;
  ids: string[];
  times: number[];
  close: () => Promise<void>;
}
const sides: Side[] = [];
const signatureImage = await drawnSignature();
for (const root of roots) {
  // Another checkout's modules: their shapes are taken to be this checkout's (the bench compares
  // versions of the same files), so a checkout whose helpers changed shape fails loudly here.
  const service: typeof import('../test/support/service.js') = await import(`${root}/test/support/service.ts`);
  const fixtures: typeof import('../test/support/fixtures.js') = await import(`${root}/test/support/fixtures.ts`);
  const flow: typeof import('../src/documents/participant/signer-flow.js') = await import(`${root}/src/documents/participant/signer-flow.ts`);
  const queries: typeof import('../src/documents/queries.js') = await import(`${root}/src/documents/queries.ts`);
  const sealing: typeof import('../src/documents/sealing/seal-process.js') = await import(`${root}/src/documents/sealing/seal-process.ts`);
  const svc = await service.startTestService('sqlite');
  const template = await service.call(svc.app, 'POST', '/template', { key: svc.orgA.privateKey, body: fixtures.sampleTemplate() });
  await svc.app.inject({ method: 'PUT', url: service.localPath(template.json().urls.complete), headers: { 'content-type': 'text/html' }, payload: TWO_PAGES });
  const ids: string[] = [];
  for (let i = 0; i < N + 3; i++) {
    const res = await service.call(svc.app, 'POST', '/document/save', {
      key: svc.orgA.privateKey,
      body: { email: svc.orgA.email, name: 'C', document: template.json().id, data: fixtures.ANSWERS },
    });
    const p = await queries.findProcessByCode(svc.deps.db, svc.orgA.id, res.json().code);
    if (!p) throw new Error(`${root}: the process was not created`);
    for (const pa of await queries.listParticipants(svc.deps.db, p.id))
      await flow.signDocument(svc.deps, { token: pa.link_token, signature: { kind: 'draw', image: signatureImage } });
    ids.push(p.id);
  }
  sides.push({ root, ids, times: [], seal: (id) => sealing.sealProcess(svc.deps, { processId: id }), close: () => svc.close() });
}
for (let w = 0; w < 3; w++) for (const s of sides) await s.seal(s.ids.shift() ?? '');
for (let i = 0; i < N; i++) {
  for (const s of i % 2 === 0 ? sides : [...sides].reverse()) {
    const t = performance.now();
    await s.seal(s.ids.shift() ?? '');
    s.times.push(performance.now() - t);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const [base] = sides;
if (!base) throw new Error('usage: npx tsx bench/seal-ab.ts <checkout> [<checkout> ...]');
for (const s of sides) {
  const ratios = s.times.map((t, i) => t / (base.times[i] ?? 1));
  console.log(
    `${s.root.padEnd(22)} median ${median(s.times).toFixed(0)} ms  min ${Math.min(...s.times).toFixed(0)} ms  paired ratio to first ${median(ratios).toFixed(2)}`,
  );
}
for (const s of sides) await s.close();
