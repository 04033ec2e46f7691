import crypto from 'node:crypto';

const processRandom = crypto.randomBytes(5);
let counter = crypto.randomInt(0, 0xffffff);

/** MongoDB-style ObjectId: 4-byte seconds, 5 bytes per process, 3-byte counter; 24 lowercase hex characters. */
export function newObjectId(now: Date): string {
  const buffer = Buffer.alloc(12);
  buffer.writeUInt32BE(Math.floor(now.getTime() / 1000) >>> 0, 0);
  processRandom.copy(buffer, 4);
  counter = (counter + 1) % 0x1000000;
  buffer.writeUIntBE(counter, 9, 3);
  return buffer.toString('hex');
}

const CODE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** Uppercase alphanumeric code, like process codes (10) and face-validation codes (16). */
export function newCode(length: number): string {
  let code = '';
  for (let i = 0; i < length; i++) code += CODE_ALPHABET[crypto.randomInt(CODE_ALPHABET.length)];
  return code;
}

/** Unguessable URL-safe token. */
export function newToken(bytes = 24): string {
  return crypto.randomBytes(bytes).toString('base64url');
}
