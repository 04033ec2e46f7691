/**
 * npm run bench, liveness part: how well the liveness signal tells genuine selfies from photos of
 * printed and on-screen faces, and what it adds to each face photo's time. Figures are printed,
 * nothing is asserted (test/liveness.test.ts asserts the behaviour in the flows).
 *
 * 1. Genuine selfies: every real face photograph the npm packages ship (test/support/face-photos.ts,
 *    genuineSelfies): the false-review rate, i.e. the share scored below LIVENESS_THRESHOLD.
 * 2. Fakes made from each of them (test/support/spoof-photos.ts): printed on paper and
 *    photographed, and shown on a phone or a monitor and photographed, three variants each: the
 *    detection rate, i.e. the share below the threshold among those whose face was usable.
 *    The anti-spoofing network is scored beside it, to show why the service does not use it.
 * 3. The face photo's time on one core (this thread), without and with the liveness score, in
 *    the same run, and their ratio.
 */
import os from 'node:os';
import { DEFAULT_LIVENESS_THRESHOLD } from '../src/config.js';
import { describeSelfie } from '../src/veriface/face/compare-faces.js';
import { decodeImage } from '../src/veriface/face/decode-image.js';
import { type FaceModel, loadFaceModel } from '../src/veriface/face/face-model.js';
import { type LivenessModel, loadLivenessModel } from '../src/veriface/face/liveness-model.js';
import { genuineSelfies } from '../test/support/face-photos.js';
import { onScreenPhoto, printedPhoto, SPOOF_VARIANTS } from '../test/support/spoof-photos.js';

const TIMING_ROUNDS = 12;
const threshold = DEFAULT_LIVENESS_THRESHOLD;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const percent = (part: number, whole: number) => `${part}/${whole} (${whole === 0 ? '-' : ((100 * part) / whole).toFixed(0)} %)`;
const range = (values: number[]) => (values.length === 0 ? '-' : `${Math.min(...values).toFixed(2)} – ${Math.max(...values).toFixed(2)}`);

interface Scored {
  live: number;
  antispoof: number;
}

/** Both networks' scores on the photo's largest face, as the worker finds it; undefined when the photo is unusable. */
async function scoreOf(model: FaceModel, liveness: LivenessModel, photo: Buffer): Promise<Scored | undefined> {
  const described = await describeSelfie(model, photo, liveness);
  if (!('descriptor' in described) || described.liveness === undefined) return undefined;
  const image = await decodeImage(photo);
  const [face] = image ? (await model.detect(image)).sort((a, b) => b.box.width - a.box.width) : [];
  if (!image || !face) return undefined;
  return { live: described.liveness, antispoof: await liveness.antispoofScore(image, face.box) };
}

console.log(`liveness bench: ${os.availableParallelism()} cores, Node ${process.version}, LIVENESS_THRESHOLD ${threshold}`);
const model = await loadFaceModel();
const liveness = await loadLivenessModel();
const genuine = await genuineSelfies();

const sets: Record<'genuine' | 'printed' | 'on screen', { scored: Scored[]; unusable: number }> = {
  genuine: { scored: [], unusable: 0 },
  printed: { scored: [], unusable: 0 },
  'on screen': { scored: [], unusable: 0 },
};
const add = (set: keyof typeof sets, scored: Scored | undefined) => {
  if (scored) sets[set].scored.push(scored);
  else sets[set].unusable++;
};
for (const { image } of genuine) {
  add('genuine', await scoreOf(model, liveness, image));
  for (let variant = 0; variant < SPOOF_VARIANTS; variant++) {
    add('printed', await scoreOf(model, liveness, await printedPhoto(image, variant)));
    add('on screen', await scoreOf(model, liveness, await onScreenPhoto(image, variant)));
  }
}

for (const [name, { scored, unusable }] of Object.entries(sets)) {
  const below = scored.filter((s) => s.live < threshold).length;
  const what = name === 'genuine' ? 'false reviews' : 'detected';
  console.log(
    `${name}: ${scored.length} usable (${unusable} unusable); liveness ${range(scored.map((s) => s.live))}, ${what} ${percent(below, scored.length)}; anti-spoofing network ${range(scored.map((s) => s.antispoof))}`,
  );
}
const lowestGenuine = Math.min(...sets.genuine.scored.map((s) => s.live));
const fakes = [...sets.printed.scored, ...sets['on screen'].scored];
console.log(
  `  at the lowest genuine score (${lowestGenuine.toFixed(2)}), a threshold just below it would detect ${percent(fakes.filter((s) => s.live < lowestGenuine).length, fakes.length)} of the fakes`,
);

// 3. Time per face photo, without and with the liveness score.
const photo = genuine[0]?.image;
if (!photo) throw new Error('no genuine selfie');
const without: number[] = [];
const withLiveness: number[] = [];
for (let i = 0; i < TIMING_ROUNDS; i++) {
  const started = performance.now();
  await describeSelfie(model, photo);
  const middle = performance.now();
  await describeSelfie(model, photo, liveness);
  withLiveness.push(performance.now() - middle);
  without.push(middle - started);
}
const [before, after] = [median(without), median(withLiveness)];
console.log(
  `face photo, one core, median of ${TIMING_ROUNDS}: ${before.toFixed(0)} ms without the liveness score, ${after.toFixed(0)} ms with it (× ${(after / before).toFixed(2)})`,
);
