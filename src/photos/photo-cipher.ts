import crypto from 'node:crypto';

/**
 * A stored photo: `PHV` and a format version (1), a 12-byte random nonce, the AES-256-GCM
 * ciphertext and its 16-byte tag. The header and the blob key are the associated data, so a
 * ciphertext copied to another photo's key, or relabelled with another version, fails to open.
 * JPEG starts FF D8 and PNG 89 50: neither can be taken for this header.
 */
const MAGIC = Buffer.from('PHV', 'ascii');
const VERSION = 1;
const HEADER = Buffer.concat([MAGIC, Buffer.from([VERSION])]);
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
export const PHOTO_KEY_BYTES = 32;

export class PhotoDecryptionError extends Error {
  constructor(blobKey: string) {
    super(`The photo at ${blobKey} cannot be decrypted: wrong key, or altered or moved bytes`);
  }
}

function associatedData(blobKey: string): Buffer {
  return Buffer.concat([HEADER, Buffer.from(blobKey, 'utf8')]);
}

export function encryptPhoto(key: Buffer, blobKey: string, image: Buffer): Buffer {
  const nonce = crypto.randomBytes(NONCE_BYTES);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(associatedData(blobKey));
  const body = Buffer.concat([cipher.update(image), cipher.final()]);
  return Buffer.concat([HEADER, nonce, body, cipher.getAuthTag()]);
}

/** Whether stored bytes carry the header of an encrypted photo (of any version). */
export function isEncryptedPhoto(stored: Buffer): boolean {
  return stored.length >= HEADER.length && stored.subarray(0, MAGIC.length).equals(MAGIC);
}

/**
 * The image of stored bytes: decrypted when they carry the header, as they are otherwise (photos
 * stored before encryption, plain JPEG or PNG).
 */
export function decryptPhoto(key: Buffer, blobKey: string, stored: Buffer): Buffer {
  if (!isEncryptedPhoto(stored)) return stored;
  if (stored[MAGIC.length] !== VERSION || stored.length < HEADER.length + NONCE_BYTES + TAG_BYTES) throw new PhotoDecryptionError(blobKey);
  const nonce = stored.subarray(HEADER.length, HEADER.length + NONCE_BYTES);
  const tag = stored.subarray(stored.length - TAG_BYTES);
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES });
  decipher.setAAD(associatedData(blobKey));
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(stored.subarray(HEADER.length + NONCE_BYTES, stored.length - TAG_BYTES)), decipher.final()]);
  } catch {
    throw new PhotoDecryptionError(blobKey);
  }
}

/** A key as PHOTO_ENCRYPTION_KEY gives it: 64 hex characters, or the base64 of 32 bytes; undefined otherwise. */
export function parsePhotoKey(text: string): Buffer | undefined {
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex');
  if (!/^[A-Za-z0-9+/]{43}=$/.test(text)) return undefined;
  const bytes = Buffer.from(text, 'base64');
  return bytes.length === PHOTO_KEY_BYTES ? bytes : undefined;
}
