import type { FaceComparison, LivenessSignal, PhotoRole, UnusablePhotoReason } from '../face-matcher.js';
import { type DecodedImage, decodeImage } from './decode-image.js';
import { type DetectedFace, descriptorDistance, type FaceModel } from './face-model.js';
import type { LivenessModel } from './liveness-model.js';
import { DOCUMENT_MAX_SIDE, findPortrait } from './portrait.js';
import { faceSharpness } from './sharpness.js';

/**
 * Smallest face side, in pixels of the decoded image: the recognition network reads a 150 × 150
 * crop, and a face much smaller than half of that has lost the detail that tells people apart.
 */
export const MIN_FACE_PIXELS = 56;

/**
 * Lowest variance of the Laplacian on the face (see sharpness.ts). Measured on the sample
 * portraits: 65 to 194 for sharp selfies, 20 to 230 for photographed ID cards blurred by one
 * pixel, 10 to 40 for selfies blurred by two pixels; the detector stops finding faces blurred
 * much more than that, so this catches the blurred faces it still finds.
 */
export const MIN_SHARPNESS = 10;

/**
 * Faces at least this fraction of the largest one's width count as people in the selfie; smaller
 * ones are passers-by far behind, whom the person cannot always avoid.
 */
const OTHER_FACE_FRACTION = 0.5;

/** A usable face's descriptor, with its liveness score (0 – 1) when it was scored; or why the photo is unusable. */
export type Described = { descriptor: Float32Array; liveness?: number } | { unusable: UnusablePhotoReason; photo: PhotoRole };

/** The face's size and sharpness as measured in the photo: an enlarged crop of it is neither larger nor blurrier. */
interface Measured {
  side: number;
  sharpness: number;
}

async function usableFace(model: FaceModel, image: DecodedImage, face: DetectedFace, photo: PhotoRole, measured?: Measured): Promise<Described> {
  const side = measured?.side ?? Math.min(face.box.width, face.box.height);
  if (side < MIN_FACE_PIXELS) return { unusable: 'FACE_TOO_SMALL', photo };
  const sharpness = measured?.sharpness ?? (await faceSharpness(image, face.box));
  if (sharpness < MIN_SHARPNESS) return { unusable: 'FACE_BLURRY', photo };
  const descriptor = await model.describe(image, face);
  // The landmarks of a detected face are always found; a missing descriptor is still no face.
  if (!descriptor) return { unusable: photo === 'face' ? 'NO_FACE' : 'DOCUMENT_NO_FACE', photo };
  return { descriptor };
}

const largestFirst = (a: DetectedFace, b: DetectedFace) => b.box.width * b.box.height - a.box.width * a.box.height;

/**
 * The photo of the person's face: exactly one face, large and sharp enough; with `liveness`, the
 * usable face is also scored by @vladmandic/human's liveness network.
 */
export async function describeSelfie(model: FaceModel, bytes: Uint8Array, liveness?: LivenessModel): Promise<Described> {
  const image = await decodeImage(bytes);
  if (!image) return { unusable: 'IMAGE_UNREADABLE', photo: 'face' };
  const faces = (await model.detect(image)).sort(largestFirst);
  const [largest] = faces;
  if (!largest) return { unusable: 'NO_FACE', photo: 'face' };
  const people = faces.filter((f) => f.box.width >= largest.box.width * OTHER_FACE_FRACTION);
  if (people.length > 1) return { unusable: 'MULTIPLE_FACES', photo: 'face' };
  const described = await usableFace(model, image, largest, 'face');
  if (!liveness || !('descriptor' in described)) return described;
  return { ...described, liveness: await liveness.score(image, largest.box) };
}

/**
 * The photo of the identity document: its portrait is the largest face on it (not the small ghost
 * image), found in whichever way the card is turned, and described from an enlarged, levelled crop
 * of the photo at its own resolution (portrait.ts).
 */
export async function describeDocument(model: FaceModel, bytes: Uint8Array): Promise<Described> {
  const photo = await decodeImage(bytes, DOCUMENT_MAX_SIDE);
  if (!photo) return { unusable: 'IMAGE_UNREADABLE', photo: 'document' };
  const portrait = await findPortrait(model, photo);
  if (!portrait) return { unusable: 'DOCUMENT_NO_FACE', photo: 'document' };
  return usableFace(model, portrait.image, portrait.face, 'document', { side: portrait.sourceSide, sharpness: portrait.sharpness });
}

/**
 * Similarity from 0 to 100 as 100 × (1 − d), d being the Euclidean distance between the two
 * 128-number descriptors (0 for the same image; pictures of different people lie around 0.6 to
 * 1, beyond which the similarity stays 0), rounded to two decimals.
 */
export function similarityOf(distance: number): number {
  return Math.round(Math.max(0, Math.min(1, 1 - distance)) * 10_000) / 100;
}

export function compareDescriptors(document: Float32Array, face: Float32Array, threshold: number): FaceComparison {
  const similarity = similarityOf(descriptorDistance(document, face));
  return { similarity, matches: similarity >= threshold };
}

/** The face's liveness score against the threshold: a score below it is suspect. */
export function livenessSignal(score: number, threshold: number): LivenessSignal {
  return { score, suspect: score < threshold };
}
