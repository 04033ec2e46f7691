import sharp from 'sharp';
import type { DecodedImage } from './decode-image.js';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Faces are measured at one size, so a large face is not judged sharper for being large. */
export const SHARPNESS_SIDE = 112;

/**
 * The variance of the Laplacian of the face, in grey levels: a sharp face has strong edges (eyes,
 * mouth, hair) and a high variance, a blurred or shaken one a low variance.
 */
export async function faceSharpness(image: DecodedImage, box: Box): Promise<number> {
  const left = Math.max(0, Math.floor(box.x));
  const top = Math.max(0, Math.floor(box.y));
  const width = Math.max(1, Math.min(image.width - left, Math.round(box.width)));
  const height = Math.max(1, Math.min(image.height - top, Math.round(box.height)));
  const grey = await sharp(image.pixels, { raw: { width: image.width, height: image.height, channels: 3 } })
    .extract({ left, top, width, height })
    .resize(SHARPNESS_SIDE, SHARPNESS_SIDE, { fit: 'fill' })
    .greyscale()
    .raw()
    .toBuffer();
  return laplacianVariance(grey, SHARPNESS_SIDE, SHARPNESS_SIDE);
}

/**
 * The variance of the 4-neighbour Laplacian of a grey image (one byte a pixel), over its inner
 * pixels: low when nothing in it has a crisp edge. 0 for an image too small to have inner pixels.
 */
export function laplacianVariance(grey: Uint8Array, width: number, height: number): number {
  let sum = 0;
  let sumOfSquares = 0;
  let count = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const at = y * width + x;
      const laplacian = 4 * (grey[at] ?? 0) - (grey[at - 1] ?? 0) - (grey[at + 1] ?? 0) - (grey[at - width] ?? 0) - (grey[at + width] ?? 0);
      sum += laplacian;
      sumOfSquares += laplacian * laplacian;
      count++;
    }
  }
  if (count === 0) return 0;
  const mean = sum / count;
  return sumOfSquares / count - mean * mean;
}
