import crypto from 'node:crypto';

/** Standard Webhooks secrets: `whsec_` and 24 random bytes in base64 (the receiver's verifier decodes it). */
export function newWebhookSecret(): string {
  return `whsec_${crypto.randomBytes(24).toString('base64')}`;
}

export const WEBHOOK_SECRET_PATTERN = /^whsec_[A-Za-z0-9+/]{32,86}={0,2}$/;
