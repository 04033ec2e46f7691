import crypto from 'node:crypto';

/**
 * A console secret at rest (a user's TOTP secret, an organization's OIDC client secret): AES-256-GCM
 * under the service's data key (the photos' key), as base64 of a 12-byte nonce, the ciphertext and
 * its 16-byte tag. What the secret belongs to (`totp:` and the user's id, `oidc:` and the
 * organization's) is the associated data, so a secret copied onto another row does not open.
 */
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export type SecretOwner = { totpOf: string } | { oidcOf: string };

function associatedData(owner: SecretOwner): Buffer {
  return Buffer.from('totpOf' in owner ? `console-totp:${owner.totpOf}` : `console-oidc:${owner.oidcOf}`, 'utf8');
}

export function sealSecret(key: Buffer, owner: SecretOwner, secret: string): string {
  const nonce = crypto.randomBytes(NONCE_BYTES);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(associatedData(owner));
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64');
}

/** The secret, or undefined when the stored text does not open with this key for this owner. */
export function openSecret(key: Buffer, owner: SecretOwner, sealed: string): string | undefined {
  const bytes = Buffer.from(sealed, 'base64');
  if (bytes.length <= NONCE_BYTES + TAG_BYTES) return undefined;
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, bytes.subarray(0, NONCE_BYTES), { authTagLength: TAG_BYTES });
  decipher.setAAD(associatedData(owner));
  decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(bytes.subarray(NONCE_BYTES, bytes.length - TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
