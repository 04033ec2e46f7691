import sharp from 'sharp';

/** An image as the face model reads it: 8-bit RGB pixels, row after row. */
export interface DecodedImage {
  pixels: Uint8Array;
  width: number;
  height: number;
}

/**
 * Longest side the detector is given. Its network sees 512 × 512 anyway and the descriptor a
 * 150 × 150 crop of the face: more pixels only cost decoding time.
 */
export const INPUT_MAX_SIDE = 640;

/** Phone photos reach 50 megapixels; anything beyond is not a photo a person took. */
const MAX_INPUT_PIXELS = 80_000_000;

/**
 * Decodes a JPEG or PNG the way a person sees it (EXIF orientation applied, alpha dropped, sRGB),
 * shrunk to `maxSide` (INPUT_MAX_SIDE unless told). Answers undefined for bytes that are not a readable image.
 */
export async function decodeImage(bytes: Uint8Array, maxSide = INPUT_MAX_SIDE): Promise<DecodedImage | undefined> {
  try {
    const { data, info } = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
      .rotate()
      .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
      .removeAlpha()
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 3) return undefined;
    return { pixels: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height };
  } catch {
    return undefined;
  }
}
