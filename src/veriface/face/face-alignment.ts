import type { Box } from './sharpness.js';

/**
 * Where a face is described when its detector's box is off. The landmarks network finds the face's
 * 68 points in the detector's box, and the descriptor is taken where those points place the face;
 * a box that takes in much around the face, or sits off it, gives wrong points and a description
 * of the wrong region. On one of human's author photographs the Tiny detector's box took in the
 * blurred background around the face, and that photograph scored 28 – 40 against his ten others;
 * with its points found again in the square they first gave, 57 – 74 (docs/face-matching.md).
 */

export interface Point {
  x: number;
  y: number;
}

/**
 * The square is this much larger than the points' extent (jaw to jaw, brows to chin): about the
 * box a detector draws around a face it found well.
 */
const SIDE_OVER_LANDMARKS = 1.1;

/**
 * Below this overlap (intersection over union) between the detector's box and the square around
 * the face's points, the box is taken to be off. On the labelled sets' photos it was 0.13 – 0.44
 * for the few faces whose box was plainly off and 0.54 or more for the others (a line at 0.5 gave
 * the same figures within one pair). Finding the points again for every face, not only these, let
 * different people's cards come closer on the calibration set (highest 53.2 → 59.5) for one
 * same-person pair fewer refused on the held-out one.
 */
export const OFF_BOX_OVERLAP = 0.6;

/** The square around a face's landmarks, a tenth larger than their extent. */
export function squareAround(landmarks: readonly Point[]): Box {
  const xs = landmarks.map((p) => p.x);
  const ys = landmarks.map((p) => p.y);
  const [left, top, right, bottom] = [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
  const side = Math.max(right - left, bottom - top) * SIDE_OVER_LANDMARKS;
  return { x: (left + right - side) / 2, y: (top + bottom - side) / 2, width: side, height: side };
}

/** Intersection over union of two boxes: 1 for the same box, 0 for boxes apart. */
export function overlap(a: Box, b: Box): number {
  const width = Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x));
  const height = Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y));
  const shared = width * height;
  const union = a.width * a.height + b.width * b.height - shared;
  return union > 0 ? shared / union : 0;
}

/**
 * The square to find the face's points again in, when the detector's box is off them and the square
 * lies within the image; else undefined. A square past the image's edge is clipped there before the
 * landmarks network sees it, and the points found in it collapsed: a face cut by the photo's edge,
 * 62 against the same face whole as it was described, scored 17 – 25 described so.
 */
export function boxAgain(detected: Box, landmarks: readonly Point[], image: { width: number; height: number }): Box | undefined {
  const square = squareAround(landmarks);
  const inside = square.x >= 0 && square.y >= 0 && square.x + square.width <= image.width && square.y + square.height <= image.height;
  return inside && overlap(detected, square) < OFF_BOX_OVERLAP ? square : undefined;
}
