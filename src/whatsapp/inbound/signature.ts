import crypto from 'node:crypto';

const PREFIX = 'sha256=';

/**
 * Whether Meta signed this body: `X-Hub-Signature-256` is `sha256=` and the hex HMAC-SHA256 of the
 * body's raw bytes with the app secret. Compared in constant time, so that answers' timings tell
 * nothing about how much of a forged signature was right.
 */
export function isSignedByMeta(rawBody: Buffer, header: string | string[] | undefined, appSecret: string): boolean {
  if (typeof header !== 'string' || !header.startsWith(PREFIX)) return false;
  const given = Buffer.from(header.slice(PREFIX.length).toLowerCase(), 'utf8');
  const expected = Buffer.from(crypto.createHmac('sha256', appSecret).update(rawBody).digest('hex'), 'utf8');
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}

/** Whether a secret someone sent equals the configured one, in constant time whatever their lengths. */
export function sameSecret(given: string, configured: string): boolean {
  // Hashing both first makes them the same length, so a wrong length is not answered faster.
  const a = crypto.createHash('sha256').update(given).digest();
  const b = crypto.createHash('sha256').update(configured).digest();
  return crypto.timingSafeEqual(a, b);
}
