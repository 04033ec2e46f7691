/**
 * npm run bench, document part: how often the readers read the number on an identity document
 * photographed as people photograph it, and how often the two sides' check (DOCUMENT_FAKE) is made,
 * right and wrong. Figures are printed, nothing is asserted (test/document-sides.test.ts and
 * test/veriface-check.test.ts assert the behaviour).
 *
 * Older Colombian cédulas made by test/support/document-photos.ts (the number printed on the
 * front, held in the PDF417 barcode on the back), each side photographed flat and in each of
 * test/support/card-photos.ts SHOTS. Then every front photo is paired with every back photo: of
 * the same card (an honest person: DOCUMENT_FAKE there is a false alarm) and of another card (a
 * front and a back that do not belong together: DOCUMENT_FAKE there is a detection).
 */
import os from 'node:os';
import { DocumentReader } from '../src/veriface/document/document-reader.js';
import type { DeclaredIdentity, DocumentReading } from '../src/veriface/document/number-check.js';
import { canonicalNumber } from '../src/veriface/document/number-check.js';
import { checkSides } from '../src/veriface/document/sides-check.js';
import { photographCard, SHOTS, type Shot } from '../test/support/card-photos.js';
import { cedulaBack, numberedCard } from '../test/support/document-photos.js';

const FLAT: Shot = { name: 'flat', turn: 0, scale: 0.95, shear: 0, blur: 0.6, light: 1, quality: 88 };
const CARDS = [
  { printed: '1.020.304.050', person: 'authorSelected' },
  { printed: '52.123.456', person: 'womanBrownHair' },
  { printed: '79.456.123', person: undefined },
] as const;

interface Read {
  card: number;
  shot: string;
  reading: DocumentReading;
  ms: number;
}

const percent = (part: number, whole: number) => `${part}/${whole} (${whole === 0 ? '-' : ((100 * part) / whole).toFixed(0)} %)`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

const reader = new DocumentReader();
console.log(`document-reading bench: ${os.availableParallelism()} cores, Node ${process.version}`);
const fronts: Read[] = [];
const backs: Read[] = [];
for (const [card, { printed, person }] of CARDS.entries()) {
  const front = await numberedCard({ number: printed, ...(person ? { person } : {}) });
  const back = await cedulaBack({ number: canonicalNumber(printed), surnames: ['PEREZ', 'GOMEZ'], names: ['ANA', 'LUCIA'], sex: 'F', birth: '19850309' });
  for (const shot of [FLAT, ...SHOTS]) {
    for (const [side, list] of [
      [front, fronts],
      [back, backs],
    ] as const) {
      const photo = await photographCard(side, shot);
      const started = performance.now();
      const reading = await reader.read(photo);
      list.push({ card, shot: shot.name, reading, ms: performance.now() - started });
    }
  }
}
await reader.close();

const rightNumber = (read: Read, source: 'OCR' | 'PDF417') => {
  if (!read.reading.read || read.reading.reading.source !== source) return false;
  const wanted = canonicalNumber(CARDS[read.card]?.printed ?? '');
  const found = source === 'OCR' ? read.reading.reading.dotted : [read.reading.reading.data.personalNumber ?? ''];
  return found.some((number) => canonicalNumber(number) === wanted);
};
console.log(`  fronts: the printed number read by OCR, right: ${percent(fronts.filter((r) => rightNumber(r, 'OCR')).length, fronts.length)}`);
console.log(`  backs: the barcode read, right: ${percent(backs.filter((r) => rightNumber(r, 'PDF417')).length, backs.length)}`);
for (const [name, list] of [
  ['front', fronts],
  ['back', backs],
] as const) {
  const byShot = [FLAT, ...SHOTS].map((shot) => {
    const reads = list.filter((r) => r.shot === shot.name);
    const read = reads.filter((r) => rightNumber(r, name === 'front' ? 'OCR' : 'PDF417')).length;
    const refused = reads.filter((r) => !r.reading.read).map((r) => (r.reading.read ? '' : r.reading.reason));
    return `${shot.name} ${read}/${reads.length}${refused.length ? ` (${[...new Set(refused)].join(', ')})` : ''}`;
  });
  console.log(`    ${name}s by shot: ${byShot.join('; ')}`);
  console.log(`    ${name}s: median ${median(list.map((r) => r.ms)).toFixed(0)} ms a photo, slowest ${Math.max(...list.map((r) => r.ms)).toFixed(0)} ms`);
}

const declaredFor = (card: number): DeclaredIdentity => ({ identification: canonicalNumber(CARDS[card]?.printed ?? ''), country: 'CO', type: 'CC' });
const outcomes = (same: boolean) => {
  const counts = { AGREE: 0, DISAGREE: 0, UNCHECKED: 0 };
  for (const front of fronts) {
    for (const back of backs) {
      if ((front.card === back.card) !== same) continue;
      // The person declares the number the back holds: the number check passes, the sides decide.
      counts[checkSides(declaredFor(back.card), front.reading, back.reading).result]++;
    }
  }
  return counts;
};
const honest = outcomes(true);
const mixed = outcomes(false);
const total = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);
console.log(
  `  honest pairs (front and back of one card): ${total(honest)}: checked ${percent(honest.AGREE + honest.DISAGREE, total(honest))}, DOCUMENT_FAKE (false alarm) ${honest.DISAGREE}`,
);
console.log(
  `  mixed pairs (front and back of two cards): ${total(mixed)}: checked ${percent(mixed.AGREE + mixed.DISAGREE, total(mixed))}, DOCUMENT_FAKE (detected) ${percent(mixed.DISAGREE, mixed.AGREE + mixed.DISAGREE)} of those checked`,
);
