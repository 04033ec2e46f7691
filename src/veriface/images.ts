import { ApiError, badRequest } from '../http/errors.js';

/** Photos are JPEG or PNG, recognised by their first bytes rather than by what the client claims. */
export type ImageType = 'jpg' | 'png';

export function imageTypeOf(bytes: Buffer): ImageType | undefined {
  if (bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpg';
  if (bytes.length > 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  return undefined;
}

export const IMAGE_MAX_BYTES = 8 * 1024 * 1024;

/** The bytes of a photo sent in base64, refused when empty, too large or neither JPEG nor PNG. */
export function imageBytes(field: string, base64: string): Buffer {
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length === 0) throw badRequest('IMAGE_EMPTY');
  if (bytes.length > IMAGE_MAX_BYTES) throw new ApiError(413, `IMAGE_TOO_LARGE: ${field} is over ${IMAGE_MAX_BYTES} bytes`);
  if (!imageTypeOf(bytes)) throw new ApiError(415, `IMAGE_NOT_JPEG_OR_PNG: ${field}`);
  return bytes;
}
