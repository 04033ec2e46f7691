import crypto from 'node:crypto';
import type { Clock } from '../clock.js';
import type { PresignMethod } from './blob-store.js';

export type SignedUrlCheck = 'ok' | 'expired' | 'invalid';

/** A file name a pair can list: no separator of the list or of the path. */
const PAIR_NAME = /^[A-Za-z0-9._-]+$/;
/**
 * Bytes of a file's tag in a pair: one HMAC-SHA256 gives two 128-bit tags, the least RFC 2104
 * advises keeping of it (half its output); guessing one stays a 2^-128 chance a try.
 */
const TAG_BYTES = 16;

export interface SignedQuery {
  expires?: unknown;
  files?: unknown;
  name?: unknown;
  signature?: unknown;
}

/**
 * Signs `/files/...` URLs of the local store, so that a URL grants one method on one file until one
 * instant, and any change to it is detected.
 *
 * - A file alone: HMAC-SHA256 over method, path and expiry.
 * - Two files of one folder issued together (a template's two HTML files): one HMAC-SHA256 over
 *   method, folder, both names (carried by each URL as `files`) and expiry; the first file's URL
 *   carries the first half as its signature, the second file's the second half. Either half tells
 *   nothing of the other, so neither URL opens the other file, and one HMAC serves both.
 */
export class UrlSigner {
  private readonly key: crypto.KeyObject;

  constructor(
    secret: string,
    private readonly clock: Clock,
  ) {
    this.key = crypto.createSecretKey(Buffer.from(secret, 'utf8'));
  }

  /**
   * The query string to append: `expires` and `signature` are URL-safe (digits and hex) as they
   * stand; `name`, the name a download is saved as, is signed with them and encoded.
   */
  sign(method: PresignMethod, pathname: string, expiresInSeconds: number, name?: string): string {
    const expires = this.expiry(expiresInSeconds);
    const signature = this.mac(fileMessage(method, pathname, expires, name));
    return `expires=${expires}${name === undefined ? '' : `&name=${encodeURIComponent(name)}`}&signature=${signature}`;
  }

  /** The query strings of two files of `folder` (a pathname ending in `/`), in the order of `names`. */
  signPair(method: PresignMethod, folder: string, names: readonly [string, string], expiresInSeconds: number): [string, string] {
    if (!folder.endsWith('/') || names[0] === names[1] || !names.every((name) => PAIR_NAME.test(name))) {
      throw new Error(`Cannot sign ${names.join(' and ')} in ${folder} as a pair`);
    }
    const expires = this.expiry(expiresInSeconds);
    const files = names.join(',');
    const tags = this.mac(pairMessage(method, folder, files, expires));
    const query = `expires=${expires}&files=${files}&signature=`;
    return [query + tagAt(tags, 0), query + tagAt(tags, 1)];
  }

  check(method: PresignMethod, pathname: string, query: SignedQuery): SignedUrlCheck {
    const { expires, files, name, signature } = query;
    if (typeof expires !== 'string' || typeof signature !== 'string' || !/^\d{1,16}$/.test(expires)) return 'invalid';
    if (name !== undefined && (typeof name !== 'string' || files !== undefined)) return 'invalid';
    const expected = files === undefined ? this.mac(fileMessage(method, pathname, expires, name)) : this.pairTag(method, pathname, files, expires);
    if (expected === undefined) return 'invalid';
    const given = Buffer.from(signature, 'hex');
    const wanted = Buffer.from(expected, 'hex');
    if (given.length !== wanted.length || !crypto.timingSafeEqual(given, wanted)) return 'invalid';
    return this.clock.now().getTime() > Number(expires) ? 'expired' : 'ok';
  }

  /** The tag a pair URL must carry for the requested file, when the pair lists that file. */
  private pairTag(method: string, pathname: string, files: unknown, expires: string): string | undefined {
    if (typeof files !== 'string') return undefined;
    const names = files.split(',');
    const slash = pathname.lastIndexOf('/');
    const position = names.indexOf(pathname.slice(slash + 1));
    if (names.length !== 2 || position === -1) return undefined;
    const tags = this.mac(pairMessage(method, pathname.slice(0, slash + 1), files, expires));
    return tagAt(tags, position);
  }

  private expiry(expiresInSeconds: number): string {
    return String(this.clock.now().getTime() + expiresInSeconds * 1000);
  }

  private mac(message: string): string {
    return crypto.createHmac('sha256', this.key).update(message).digest('hex');
  }
}

/** A named download's message has a fourth line, `name …`, where a pair's has its files (a name never takes a pair's place: a pair URL carries no name). */
function fileMessage(method: string, pathname: string, expires: string, name?: string): string {
  return name === undefined ? `${method}\n${pathname}\n${expires}` : `${method}\n${pathname}\n${expires}\nname ${name}`;
}

/** Four lines where a file's message has three (a request path holds no newline): neither can pass for the other. */
function pairMessage(method: string, folder: string, files: string, expires: string): string {
  return `${method}\n${folder}\n${files}\n${expires}`;
}

/** The hex tag of the file at `position` (0 or 1) of a pair, out of the pair's HMAC in hex. */
function tagAt(tags: string, position: number): string {
  return tags.slice(position * 2 * TAG_BYTES, (position + 1) * 2 * TAG_BYTES);
}
