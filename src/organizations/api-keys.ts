import crypto from 'node:crypto';
import type { ApiKeyKind } from '../db/schema.js';

const PREFIX: Record<ApiKeyKind, string> = { private: 'prk_', public: 'puk_' };

/** Keys look like the real service's: a 4-character prefix and 32 hex characters. */
export function generateApiKey(kind: ApiKeyKind): string {
  return PREFIX[kind] + crypto.randomBytes(16).toString('hex');
}

/** Keys are high-entropy random values, so one SHA-256 is enough to store them safely. */
export function hashApiKey(key: string): string {
  return crypto.createHash('sha256').update(key).digest('hex');
}

export function keyHint(key: string): string {
  return `${key.slice(0, 4)}…${key.slice(-4)}`;
}
