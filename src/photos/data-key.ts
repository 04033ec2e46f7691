import crypto from 'node:crypto';
import type { Db } from '../db/database.js';
import { keptSetting } from '../db/kept-settings.js';
import { PHOTO_KEY_BYTES } from './photo-cipher.js';

/**
 * The service's data key: what identity photos and the console's secrets (TOTP secrets, OIDC client
 * secrets) are encrypted with. Shared by every instance through the database unless the operator
 * sets PHOTO_ENCRYPTION_KEY.
 */
export async function dataKeyOf(db: Db, configured: Buffer | undefined): Promise<Buffer> {
  return configured ?? Buffer.from(await keptSetting(db, 'photo_encryption_key', () => crypto.randomBytes(PHOTO_KEY_BYTES).toString('hex')), 'hex');
}
