/**
 * npm run bench, face part: what one face comparison costs on this machine and what it does to
 * the rest of the API. Figures are printed, nothing is asserted (the tests assert the behaviour).
 *
 * 1. Model start: the WebAssembly backend and the three networks, on this thread, cold.
 * 2. One comparison on one core (this thread): both photos, and a retake (the document's
 *    descriptor reused), split into detection and description.
 * 3. Comparisons per second through the worker pool, with one worker and with one per core, and
 *    the memory each worker adds to the process.
 * 4. GET /template?id= p99 latency of the real service (forked, as bench/run.ts does) alone, then
 *    while the service compares faces in its workers at full speed.
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { DEFAULT_FACE_MATCH_THRESHOLD, DEFAULT_LIVENESS_THRESHOLD } from '../src/config.js';
import { compareDescriptors, describeDocument, describeSelfie } from '../src/veriface/face/compare-faces.js';
import { decodeImage } from '../src/veriface/face/decode-image.js';
import { loadFaceModel } from '../src/veriface/face/face-model.js';
import { LocalFaceMatcher } from '../src/veriface/face/local-matcher.js';
import type { MatcherFlow } from '../src/veriface/face-matcher.js';
import { identityCard, selfie } from '../test/support/face-photos.js';
import { compareWithLastRecorded, type Measured } from './last-recorded.js';

const ROUNDS = 8;
const API_SECONDS = 10;

const ms = (value: number) => `${value.toFixed(0)} ms`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
/** Each comparison of the throughput runs as a different person's link, as real traffic is. */
const person = (id: string): MatcherFlow => ({ kind: 'person', id });
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

async function time<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await work();
  return [result, performance.now() - started];
}

const card = await identityCard('authorSelected');
const face = await selfie('authorPhoto');
const other = await selfie('womanBlonde');

console.log(`face bench: ${os.availableParallelism()} cores, Node ${process.version}`);

// 1. Model start.
const [model, loadMs] = await time(() => loadFaceModel());
console.log(`model start (wasm backend + 3 networks, cold, this thread): ${ms(loadMs)}`);

// 2. One comparison on one core.
const full: number[] = [];
const retake: number[] = [];
const detect: number[] = [];
for (let i = 0; i < ROUNDS; i++) {
  const [document, both] = await time(async () => {
    const described = await describeDocument(model, card);
    await describeSelfie(model, i % 2 ? face : other);
    return described;
  });
  full.push(both);
  const [described, one] = await time(() => describeSelfie(model, i % 2 ? face : other));
  retake.push(one);
  if ('descriptor' in document && 'descriptor' in described) compareDescriptors(document.descriptor, described.descriptor, DEFAULT_FACE_MATCH_THRESHOLD);
  const image = await decodeImage(face);
  if (image) detect.push((await time(() => model.detect(image)))[1]);
}
console.log(
  `one comparison, one core, median of ${ROUNDS}: ${ms(median(full))} for both photos; ${ms(median(retake))} for a retake (document descriptor reused)`,
);
console.log(
  `  of which detection per photo (Tiny Face Detector, SSD MobileNet when it finds none): ${ms(median(detect))}; the rest is decoding, landmarks and the 128-number descriptor`,
);

// 3. Throughput through the pool.
async function throughput(workers: number): Promise<{ perSecond: number; perSecondRetakes: number; memoryPerWorker: number; workerStartMs: number }> {
  const before = process.memoryUsage().rss;
  const starts: number[] = [];
  const matcher = new LocalFaceMatcher({
    size: workers,
    queueMax: 1000,
    jobTimeoutMs: 120_000,
    threshold: DEFAULT_FACE_MATCH_THRESHOLD,
    livenessThreshold: DEFAULT_LIVENESS_THRESHOLD,
    onWorkerEvent: (event) => {
      if (event.kind === 'ready') starts.push(event.loadMs);
    },
  });
  // Distinct documents (re-encoded) so that no descriptor is reused, then the same one for retakes.
  const documents = await Promise.all(Array.from({ length: 4 * workers }, async (_, i) => identityCard(i % 2 ? 'authorSelected' : 'womanBlonde')));
  const sharp = (await import('sharp')).default;
  const distinct = await Promise.all(
    documents.map((d, i) =>
      sharp(d)
        .jpeg({ quality: 70 + i })
        .toBuffer(),
    ),
  );
  // Start every worker before timing: the first comparisons wait for the models.
  await Promise.all(distinct.slice(0, workers).map((documentPhoto, i) => matcher.compare({ documentPhoto, facePhoto: face, flow: person(`warm-${i}`) })));
  const memoryPerWorker = (process.memoryUsage().rss - before) / workers;
  const [, firstSeconds] = await time(() =>
    Promise.all(distinct.slice(workers).map((documentPhoto, i) => matcher.compare({ documentPhoto, facePhoto: face, flow: person(`first-${i}`) }))),
  );
  const retakes = 4 * workers;
  const [, retakeSeconds] = await time(() =>
    Promise.all(Array.from({ length: retakes }, (_, i) => matcher.compare({ documentPhoto: card, facePhoto: other, flow: person(`retake-${i}`) }))),
  );
  await matcher.close();
  return {
    perSecond: (distinct.length - workers) / (firstSeconds / 1000),
    perSecondRetakes: retakes / (retakeSeconds / 1000),
    memoryPerWorker,
    workerStartMs: median(starts),
  };
}
const poolFigures: Measured[] = [];
for (const workers of [...new Set([1, os.availableParallelism()])]) {
  const result = await throughput(workers);
  poolFigures.push({ name: `pool of ${workers}, comparisons`, value: Math.round(result.perSecond * 100) / 100, unit: 'comparisons/s', better: 'higher' });
  console.log(
    `pool of ${workers} worker(s): ${result.perSecond.toFixed(2)} comparisons/s (both photos), ${result.perSecondRetakes.toFixed(2)}/s retakes; ` +
      `about ${mib(result.memoryPerWorker)} per worker; a worker's model start ${ms(result.workerStartMs)}`,
  );
}

// 4. The API's latency beside the comparisons.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'face-bench-'));
const child = fork(fileURLToPath(new URL('./face-server-child.ts', import.meta.url)), [dataDir], {
  execArgv: ['--import', 'tsx'],
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const next = () =>
  new Promise<Record<string, unknown>>((resolve, reject) => {
    child.once('message', (message) => resolve(typeof message === 'object' && message !== null ? { ...message } : {}));
    child.once('exit', (code) => reject(new Error(`the service exited (${code})`)));
  });
try {
  const ready = await next();
  const url = String(ready.url);
  const read = async () => {
    const result = await autocannon({
      url: `${url}/v1.5/ext/template?id=${String(ready.templateId)}`,
      headers: { authorization: String(ready.key) },
      connections: 10,
      duration: API_SECONDS,
    });
    return { p99: result.latency.p99, perSecond: result.requests.average, errors: result.errors + result.non2xx };
  };
  const alone = await read();
  child.send('load-start');
  await next();
  const [beside, loadMs] = await time(read);
  child.send('load-stop');
  const stopped = await next();
  const ratio = beside.p99 / alone.p99;
  console.log(
    `GET /template?id= p99 with ${String(ready.workers)} face worker(s) in the service: ${alone.p99} ms alone, ${beside.p99} ms while comparing ` +
      `(${(Number(stopped.compared) / (loadMs / 1000)).toFixed(2)} comparisons/s) = ${ratio.toFixed(2)}x (goal ≤ 1.5x: ${ratio <= 1.5 ? 'met' : 'NOT met'}); ` +
      `${alone.perSecond.toFixed(0)} then ${beside.perSecond.toFixed(0)} requests/s; errors ${alone.errors + beside.errors}`,
  );
  compareWithLastRecorded('face', [...poolFigures, { name: 'GET /template?id= p99 while comparing', value: beside.p99, unit: 'ms', better: 'lower' }]);
} finally {
  child.disconnect();
  await new Promise((resolve) => child.once('exit', resolve));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
