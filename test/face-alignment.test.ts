import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_FACE_MATCH_THRESHOLD } from '../src/config.js';
import { type Described, describeSelfie, similarityOf } from '../src/veriface/face/compare-faces.js';
import { decodeImage } from '../src/veriface/face/decode-image.js';
import { boxAgain, OFF_BOX_OVERLAP, overlap, squareAround } from '../src/veriface/face/face-alignment.js';
import { descriptorDistance, type FaceModel, faceAt, loadFaceModel } from '../src/veriface/face/face-model.js';
import { faceFrame } from './support/card-photos.js';
import { selfie } from './support/face-photos.js';
import { facePicture, labelledSets } from './support/labelled-faces.js';

let model: FaceModel;
beforeAll(async () => {
  model = await loadFaceModel();
});

function descriptorOf(described: Described): Float32Array {
  if (!('descriptor' in described)) throw new Error(`the photo was ${described.unusable}`);
  return described.descriptor;
}

const similarity = (a: Described, b: Described) => similarityOf(descriptorDistance(descriptorOf(a), descriptorOf(b)));

/** The photographs of human's author that the labelled sets hold, in their order. */
async function authorPhoto(index: number): Promise<Buffer> {
  const photo = labelledSets().heldOut.filter((p) => p.person === 'human author')[index];
  if (!photo) throw new Error(`no photograph ${index} of the author`);
  return faceFrame(await facePicture(photo));
}

/** Describing a face costs seconds on a loaded machine: what is asserted is the answer. */
const UNTIMED = 120_000;

describe("a face is described where its landmarks place it: found again in the square they give when the detector's box is off them", () => {
  it(
    "a photograph whose detector's box takes in the background around the face matches the person's other photographs",
    async () => {
      // Framed as a selfie, the Tiny detector's box around this face-match tile (index 9 of the
      // author's photographs) takes in the blurred background: described there, 28 – 40 against
      // his other photographs.
      const tile = await describeSelfie(model, await authorPhoto(9));
      for (const other of [1, 8, 10]) {
        expect(similarity(tile, await describeSelfie(model, await authorPhoto(other)))).toBeGreaterThanOrEqual(DEFAULT_FACE_MATCH_THRESHOLD);
      }
    },
    UNTIMED,
  );

  it(
    "a face cut by the photo's edge, its box past the edge, is described from the landmarks found in that box",
    async () => {
      const whole = await selfie('authorPhoto');
      const decoded = await decodeImage(whole);
      const [face] = decoded ? await model.detect(decoded) : [];
      if (!decoded || !face) throw new Error('no face in the selfie');
      // The photo cut through the face's left and top; the box given runs past those edges.
      const left = Math.round(face.box.x + face.box.width * 0.15);
      const top = Math.round(face.box.y + face.box.height * 0.1);
      const cut = await decodeImage(
        await sharp(whole)
          .extract({ left, top, width: decoded.width - left, height: decoded.height - top })
          .png()
          .toBuffer(),
      );
      if (!cut) throw new Error('the cut photo did not decode');
      const past = faceAt(face, { x: -40, y: -40, width: face.box.width * 0.85 + 40, height: face.box.height * 0.9 + 40 }, cut);
      const [described, reference] = await Promise.all([model.describe(cut, past), model.describe(decoded, face)]);
      if (!described || !reference) throw new Error('a face was not described');
      // Its landmarks found again in a square past the edge, it scored 17 – 25.
      expect(similarityOf(descriptorDistance(described, reference))).toBeGreaterThanOrEqual(DEFAULT_FACE_MATCH_THRESHOLD);
    },
    UNTIMED,
  );

  it(
    'a different person still does not match',
    async () => {
      const tile = await describeSelfie(model, await authorPhoto(9));
      for (const other of ['womanBlonde', 'womanDarkHair', 'womanBrownHair'] as const) {
        expect(similarity(tile, await describeSelfie(model, await selfie(other)))).toBeLessThan(DEFAULT_FACE_MATCH_THRESHOLD);
      }
    },
    UNTIMED,
  );
});

describe("the detector's box is off when it overlaps the square around the face's landmarks by less than OFF_BOX_OVERLAP", () => {
  const landmarks = [
    { x: 110, y: 120 },
    { x: 210, y: 120 },
    { x: 160, y: 240 },
  ];
  const image = { width: 400, height: 400 };

  it('the square is centred on the landmarks and a tenth larger than their extent', () => {
    const square = squareAround(landmarks);
    expect(square.x + square.width / 2).toBeCloseTo(160);
    expect(square.y + square.height / 2).toBeCloseTo(180);
    expect(square.width).toBeCloseTo(132);
    expect(square.height).toBeCloseTo(132);
  });

  it('the overlap is 1 for the same box, 0 for boxes apart, and intersection over union between', () => {
    const box = { x: 0, y: 0, width: 10, height: 10 };
    expect(overlap(box, box)).toBe(1);
    expect(overlap(box, { x: 20, y: 0, width: 10, height: 10 })).toBe(0);
    expect(overlap(box, { x: 5, y: 0, width: 10, height: 10 })).toBeCloseTo(50 / 150);
  });

  it('a box that fits the landmarks is kept; one twice as large, or beside the face, is replaced by the square', () => {
    const square = squareAround(landmarks);
    expect(boxAgain({ ...square, x: square.x + 5 }, landmarks, image)).toBeUndefined();
    expect(overlap(square, { x: square.x - 66, y: square.y - 66, width: 264, height: 264 })).toBeLessThan(OFF_BOX_OVERLAP);
    expect(boxAgain({ x: square.x - 66, y: square.y - 66, width: 264, height: 264 }, landmarks, image)).toEqual(square);
    expect(boxAgain({ ...square, x: square.x + 60 }, landmarks, image)).toEqual(square);
  });

  it("a square past the image's edge is not used: the box is kept", () => {
    const square = squareAround(landmarks);
    const loose = { x: square.x - 66, y: square.y - 66, width: 264, height: 264 };
    expect(boxAgain(loose, landmarks, { width: 200, height: 400 })).toBeUndefined();
    expect(boxAgain(loose, landmarks, { width: 400, height: 200 })).toBeUndefined();
  });
});
