import sharp from 'sharp';
import { fail } from '../domain-error.js';

/** Photos are JPEG or PNG, recognised by their first bytes rather than by what the client claims. */
export type ImageType = 'jpg' | 'png';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function imageTypeOf(bytes: Buffer): ImageType | undefined {
  if (bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpg';
  if (bytes.length > 8 && bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return 'png';
  return undefined;
}

export const IMAGE_MAX_BYTES = 8 * 1024 * 1024;

/** Phone photos reach 50 megapixels; anything beyond is not a photo a person took (and could be a decompression bomb). */
export const IMAGE_MAX_PIXELS = 80_000_000;

/** Shortest side of a photo that counts: a face or a document in fewer pixels cannot be compared or read. */
export const PHOTO_MIN_SIDE = 200;

/** The bytes of a photo sent in base64, refused when empty, too large or neither JPEG nor PNG. */
export function imageBytes(field: string, base64: string): Buffer {
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length === 0) throw fail('IMAGE_EMPTY');
  if (bytes.length > IMAGE_MAX_BYTES) throw fail('IMAGE_TOO_LARGE', `${field} is over ${IMAGE_MAX_BYTES} bytes`);
  if (!imageTypeOf(bytes)) throw fail('IMAGE_NOT_JPEG_OR_PNG', field);
  return bytes;
}

/** Where a PNG's IEND chunk ends, walking its chunks; undefined when they do not reach one. */
function pngEnd(bytes: Buffer): number | undefined {
  let at = PNG_SIGNATURE.length;
  while (at + 12 <= bytes.length) {
    const next = at + 12 + bytes.readUInt32BE(at);
    if (bytes.toString('latin1', at + 4, at + 8) === 'IEND') return next;
    at = next;
  }
  return undefined;
}

/**
 * The file is the image and nothing else: a PNG ends with its IEND chunk, a JPEG with its
 * end-of-image marker. Bytes after the image (an HTML page, an archive) make a polyglot that
 * another program would read as something else.
 */
function isWholeImage(bytes: Buffer, type: ImageType): boolean {
  if (type === 'png') return pngEnd(bytes) === bytes.length;
  return bytes.length >= 4 && bytes[bytes.length - 2] === 0xff && bytes[bytes.length - 1] === 0xd9;
}

const unreadable = (why: string) => fail('IMAGE_UNREADABLE', `${why}, take it again`);

/**
 * Checks a photo before it counts as identity evidence, whatever the camera mode: JPEG or PNG by
 * its bytes, one whole image, decoded to its last pixel (refusing truncated and corrupt data), no
 * more than IMAGE_MAX_PIXELS (read from the header before anything is decoded) and at least
 * PHOTO_MIN_SIDE pixels on each side. Answers its type.
 */
export async function checkPhoto(image: Buffer): Promise<ImageType> {
  if (image.length === 0) throw fail('IMAGE_EMPTY');
  if (image.length > IMAGE_MAX_BYTES) throw fail('IMAGE_TOO_LARGE', `at most ${IMAGE_MAX_BYTES} bytes`);
  const type = imageTypeOf(image);
  if (!type) throw fail('IMAGE_NOT_JPEG_OR_PNG');
  if (!isWholeImage(image, type)) throw unreadable(`the photo is not one whole ${type === 'png' ? 'PNG' : 'JPEG'} image`);
  // The header alone, without sharp's own pixel limit, so that a bomb is told apart from a broken file.
  const header = await sharp(image, { limitInputPixels: false })
    .metadata()
    .catch(() => undefined);
  const expected = type === 'png' ? 'png' : 'jpeg';
  if (!header || header.format !== expected || !header.width || !header.height) throw unreadable('the photo could not be read as an image');
  if (header.width * header.height > IMAGE_MAX_PIXELS) throw fail('IMAGE_TOO_LARGE', `at most ${IMAGE_MAX_PIXELS} pixels`);
  if (Math.min(header.width, header.height) < PHOTO_MIN_SIDE) {
    throw fail('IMAGE_TOO_SMALL', `photos must be at least ${PHOTO_MIN_SIDE} pixels on each side`);
  }
  // Decoding every pixel (shrunk as it goes, so memory stays small) finds truncated or corrupt data.
  const decoded = await sharp(image, { limitInputPixels: IMAGE_MAX_PIXELS, failOn: 'error' })
    .resize({ width: 64, height: 64, fit: 'inside' })
    .raw()
    .toBuffer()
    .then(
      () => true,
      () => false,
    );
  if (!decoded) throw unreadable('the photo could not be decoded');
  return type;
}
