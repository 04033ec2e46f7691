import crypto from 'node:crypto';
import type { Clock } from '../clock.js';
import type { PresignMethod } from './blob-store.js';

export type SignedUrlCheck = 'ok' | 'expired' | 'invalid';

/**
 * Signs `/files/...` URLs of the local store with HMAC-SHA256 over method, path and expiry, so a URL
 * grants one method on one file until one instant, and any change to it is detected.
 */
export class UrlSigner {
  private readonly key: crypto.KeyObject;

  constructor(
    secret: string,
    private readonly clock: Clock,
  ) {
    this.key = crypto.createSecretKey(Buffer.from(secret, 'utf8'));
  }

  /** The query string to append: both values are URL-safe (digits and hex) as they stand. */
  sign(method: PresignMethod, pathname: string, expiresInSeconds: number): string {
    const expires = String(this.clock.now().getTime() + expiresInSeconds * 1000);
    return `expires=${expires}&signature=${this.mac(method, pathname, expires)}`;
  }

  check(method: PresignMethod, pathname: string, query: { expires?: unknown; signature?: unknown }): SignedUrlCheck {
    const { expires, signature } = query;
    if (typeof expires !== 'string' || typeof signature !== 'string' || !/^\d{1,16}$/.test(expires)) return 'invalid';
    const expected = Buffer.from(this.mac(method, pathname, expires), 'hex');
    const given = Buffer.from(signature, 'hex');
    if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return 'invalid';
    return this.clock.now().getTime() > Number(expires) ? 'expired' : 'ok';
  }

  private mac(method: string, pathname: string, expires: string): string {
    return crypto.createHmac('sha256', this.key).update(`${method}\n${pathname}\n${expires}`).digest('hex');
  }
}
