import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';

/**
 * Every real face photograph the npm packages ship, labelled by person, for measuring the matcher
 * (bench/face-cards.ts): the faces of @vladmandic/face-api's demo group photographs (one
 * photograph per person), three women of @vladmandic/human's face-detection screenshot (one each),
 * and human's author, who appears in eleven photographs taken at different times (his three crops
 * of the face tests, and eight tiles of the face-match screenshot's first row, which its own demo
 * ranked most like him and which are him).
 */
const require = createRequire(import.meta.url);
const humanAssets = path.join(path.dirname(require.resolve('@vladmandic/human')), '..', 'assets');
const faceApiDemo = path.join(path.dirname(require.resolve('@vladmandic/face-api/package.json')), 'demo');

interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** One photograph of one person: the file and the face's box in it. */
export interface LabelledPhoto {
  person: string;
  file: string;
  box: Box;
  /** How much of the surroundings may be taken each side, as a fraction of the box: none for the screenshots' tiles, whose neighbours are other people. */
  margin: number;
}

const group = (sample: number, index: number, x: number, y: number, width: number, height: number): LabelledPhoto => ({
  person: `face-api sample${sample} #${index}`,
  file: path.join(faceApiDemo, `sample${sample}.jpg`),
  box: { left: x, top: y, width, height },
  margin: 0.35,
});

/** face-api's group photographs: each face as its detector found it (the boxes face-photos.ts frames as selfies). */
const GROUPS: readonly LabelledPhoto[] = [
  group(1, 1, 776, 445, 313, 256),
  group(1, 2, 1422, 215, 307, 283),
  group(1, 3, 337, 397, 305, 251),
  group(2, 4, 1403, 173, 277, 264),
  group(3, 5, 1005, 252, 325, 275),
  group(3, 6, 525, 370, 313, 271),
  group(3, 7, 1444, 342, 289, 270),
  group(4, 8, 625, 98, 253, 229),
  group(4, 9, 225, 234, 274, 244),
  group(4, 10, 925, 225, 268, 231),
  group(5, 11, 313, 897, 316, 313),
  group(5, 12, 1346, 417, 305, 283),
  group(5, 13, 533, 435, 286, 242),
  group(5, 14, 1058, 242, 280, 248),
  group(5, 15, 734, 134, 237, 196),
  group(6, 16, 1432, 314, 299, 290),
  group(6, 17, 616, 378, 295, 275),
  group(6, 18, 1092, 360, 296, 275),
  group(6, 19, 187, 518, 335, 289),
];

const human = (person: string, file: string, box: Box): LabelledPhoto => ({ person, file: path.join(humanAssets, file), box, margin: 0 });

/** The author's face-match tiles: 104 px wide, 108 px apart, below the screenshot's heading. */
const authorTile = (tile: number) => human('human author', 'screenshot-facematch.jpg', { left: 2 + tile * 108, top: 287, width: 104, height: 100 });

const HUMAN: readonly LabelledPhoto[] = [
  human('human author', 'screenshot-facematch.jpg', { left: 0, top: 20, width: 190, height: 180 }),
  human('human author', 'screenshot-facedetect.jpg', { left: 5, top: 343, width: 156, height: 157 }),
  human('human author', 'screenshot-faceid.jpg', { left: 10, top: 135, width: 150, height: 152 }),
  ...[1, 2, 3, 4, 5, 6, 7, 8].map(authorTile),
  human('woman with dark hair', 'screenshot-facedetect.jpg', { left: 163, top: 343, width: 155, height: 157 }),
  human('blonde woman', 'screenshot-facedetect.jpg', { left: 320, top: 343, width: 155, height: 157 }),
  human('woman with brown hair', 'screenshot-facedetect.jpg', { left: 477, top: 343, width: 155, height: 157 }),
];

/**
 * Two sets of different people: the threshold is chosen on the calibration set and judged on the
 * held-out one, which shares no person with it (face-api's first four photographs against its
 * last two and human's).
 */
export function labelledSets(): { calibration: LabelledPhoto[]; heldOut: LabelledPhoto[] } {
  const calibration = GROUPS.filter((photo) => /sample[1-4] /.test(photo.person));
  const heldOut = [...GROUPS.filter((photo) => /sample[5-6] /.test(photo.person)), ...HUMAN];
  return { calibration, heldOut };
}

/** The face with what may be taken around it (as far as the photograph goes), at its own resolution. */
export async function facePicture(photo: LabelledPhoto): Promise<Buffer> {
  const { width = 0, height = 0 } = await sharp(photo.file).metadata();
  const { box, margin } = photo;
  const left = Math.max(0, Math.round(box.left - box.width * margin));
  const top = Math.max(0, Math.round(box.top - box.height * margin));
  const right = Math.min(width, Math.round(box.left + box.width * (1 + margin)));
  const bottom = Math.min(height, Math.round(box.top + box.height * (1 + margin)));
  return sharp(photo.file)
    .extract({ left, top, width: right - left, height: bottom - top })
    .png()
    .toBuffer();
}
