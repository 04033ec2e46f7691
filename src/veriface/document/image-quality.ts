import sharp from 'sharp';
import { type DecodedImage, decodeImage } from '../face/decode-image.js';
import { laplacianVariance } from '../face/sharpness.js';

/**
 * Smallest photo of a document, in pixels on its short and long sides: below this the print of
 * an identity card (numbers about 2 mm high) is a few pixels high and cannot be read.
 */
export const MIN_SHORT_SIDE = 300;
export const MIN_LONG_SIDE = 480;

/**
 * Lowest variance of the Laplacian over the whole photo shrunk to 640 pixels (the measure of
 * sharpness.ts, on the document rather than on a face). Measured on the cards drawn by the tests:
 * 1,400 to 2,600 sharp, 600 blurred by one pixel (still read), 291 for the face tests' ID card
 * (blurred by one pixel, rotated, JPEG), 97 blurred by two pixels, 25 by three, 10 by four.
 */
export const MIN_DOCUMENT_SHARPNESS = 200;

export interface ImageQuality {
  passed: boolean;
  /** Why not: too few pixels, or blurred. */
  problem?: 'IMAGE_TOO_SMALL' | 'IMAGE_BLURRY';
  width: number;
  height: number;
  sharpness: number;
}

async function sharpness(image: DecodedImage): Promise<number> {
  const { width, height } = image;
  const grey = await sharp(image.pixels, { raw: { width, height, channels: 3 } })
    .greyscale()
    .raw()
    .toBuffer();
  return laplacianVariance(grey, width, height);
}

/** Whether the photo has the pixels and the sharpness that reading a document needs; `size` is the photo's own, before shrinking. */
export async function imageQuality(image: DecodedImage, size: { width: number; height: number }): Promise<ImageQuality> {
  const measured = Math.round(await sharpness(image));
  const short = Math.min(size.width, size.height);
  const long = Math.max(size.width, size.height);
  const base = { width: size.width, height: size.height, sharpness: measured };
  if (short < MIN_SHORT_SIDE || long < MIN_LONG_SIDE) return { passed: false, problem: 'IMAGE_TOO_SMALL', ...base };
  if (measured < MIN_DOCUMENT_SHARPNESS) return { passed: false, problem: 'IMAGE_BLURRY', ...base };
  return { passed: true, ...base };
}

/** The quality of a document photo as sent (`imageQuality` on its decoded pixels, its own size as a person sees it); undefined when it is no readable image. */
export async function documentPhotoQuality(bytes: Buffer): Promise<ImageQuality | undefined> {
  const decoded = await decodeImage(bytes);
  const size = await sharp(bytes)
    .metadata()
    .catch(() => undefined);
  if (!decoded || !size?.width || !size.height) return undefined;
  const oriented = (size.orientation ?? 1) >= 5 ? { width: size.height, height: size.width } : { width: size.width, height: size.height };
  return imageQuality(decoded, oriented);
}
