import crypto from 'node:crypto';

const PREFIX = 'whsec_';

/**
 * The `webhook-signature` header of Standard Webhooks: `v1,` and the base64 HMAC-SHA256 of
 * `{id}.{seconds}.{body}`, keyed by the bytes the secret's base64 (after `whsec_`) decodes to.
 * Computed with node:crypto: the standardwebhooks package's own SHA-256, in JavaScript, was the
 * largest single cost of a delivery on the service's thread. Receivers verify it with that package
 * (test/webhook-delivery.test.ts holds the two to the same answer).
 */
export function signWebhook(secret: string, id: string, at: Date, body: string): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
  const seconds = Math.floor(at.getTime() / 1000);
  return `v1,${crypto.createHmac('sha256', key).update(`${id}.${seconds}.${body}`).digest('base64')}`;
}
