import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import {
  BlobEmptyError,
  BlobExistsError,
  type BlobStore,
  BlobTooLargeError,
  contentTypeOf,
  type PresignOptions,
  type StoredBlob,
  type WriteOptions,
} from './blob-store.js';
import type { UrlSigner } from './url-signer.js';

export const FILES_ROUTE_PREFIX = '/files/';

const fdatasync = promisify(fs.fdatasync);

const KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

export function isValidBlobKey(key: string): boolean {
  return KEY_PATTERN.test(key) && !key.split('/').some((part) => part === '..' || part === '.');
}

/**
 * Files under DATA_DIR/files. Writes go to a temporary file beside the target and are renamed over
 * it only once complete and flushed, so a failed or cut-off upload leaves the previous file whole.
 * A write-once write is linked into place instead, which fails when a file is already there: of
 * two uploads racing, the first to finish is kept, whatever the order they started in.
 */
export class LocalBlobStore implements BlobStore {
  readonly kind = 'local';

  constructor(
    private readonly root: string,
    private readonly publicUrl: string,
    private readonly signer: UrlSigner,
  ) {}

  async write(key: string, body: Readable, options: WriteOptions): Promise<{ size: number }> {
    const target = this.pathOf(key);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    const temporary = `${target}.${crypto.randomBytes(6).toString('hex')}.part`;
    let size = 0;
    const limit = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        if (size > options.maxBytes) callback(new BlobTooLargeError(options.maxBytes));
        else callback(null, chunk);
      },
    });
    try {
      const out = fs.createWriteStream(temporary, { flags: 'wx' });
      await pipeline(body, limit, out);
      if (size === 0) throw new BlobEmptyError();
      const handle = await fsp.open(temporary, 'r+');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
      await putInPlace(temporary, target, options.ifAbsent === true);
      return { size };
    } catch (error) {
      await fsp.rm(temporary, { force: true });
      throw error;
    }
  }

  /**
   * The same temporary file, flush and rename as `write`, in direct calls: the folders, the file and
   * the rename are a few microseconds each on the event loop, where each would otherwise wait its turn
   * for the 4 threads of libuv's pool behind other files' fsyncs (the database's log, the local
   * mailbox's). Only the fdatasync, which waits for the disk, goes to the pool. The
   * content type is not stored: a local file's type follows from its key's extension.
   */
  async writeBytes(key: string, bytes: Buffer, _contentType: string): Promise<void> {
    if (bytes.length === 0) throw new BlobEmptyError();
    const target = this.pathOf(key);
    const temporary = `${target}.${crypto.randomBytes(6).toString('hex')}.part`;
    try {
      const fd = openCreatingFolder(temporary);
      try {
        for (let written = 0; written < bytes.length; ) written += fs.writeSync(fd, bytes, written);
        await fdatasync(fd);
      } finally {
        fs.closeSync(fd);
      }
      fs.renameSync(temporary, target);
    } catch (error) {
      fs.rmSync(temporary, { force: true });
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    return mayExist(this.pathOf(key));
  }

  async read(key: string): Promise<StoredBlob | undefined> {
    const target = this.pathOf(key);
    let handle: fsp.FileHandle;
    try {
      handle = await fsp.open(target, 'r');
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
    try {
      const stat = await handle.stat();
      return { body: handle.createReadStream(), size: stat.size, contentType: contentTypeOf(key) };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /**
   * Removes the files, then their folders once empty, so deleted resources leave nothing behind.
   * Most calls name files never uploaded: a synchronous lstat tells them apart far more cheaply than
   * an unlink or rmdir failing with ENOENT (an error object with its stack), so only what is there is
   * touched. A folder found missing spares the look at each of its files.
   */
  async delete(keys: string[]): Promise<void> {
    const paths = keys.map((key) => this.pathOf(key));
    const folders = [...new Set(paths.map((file) => path.dirname(file)))].filter(mayExist);
    const present = new Set(folders);
    const files = paths.filter((file) => present.has(path.dirname(file)) && mayExist(file));
    // Something may still vanish between the lstat and the unlink or rmdir: ENOENT is ignored there too.
    await Promise.all(files.map((file) => fsp.unlink(file).catch(ignoreMissing)));
    for (const folder of folders) {
      await fsp.rmdir(folder).catch(ignoreMissingOrNotEmpty);
    }
  }

  async presign(key: string, options: PresignOptions): Promise<string> {
    const pathname = FILES_ROUTE_PREFIX + key;
    return `${this.publicUrl}${pathname}?${this.signer.sign(options.method, pathname, options.expiresInSeconds, options.downloadName)}`;
  }

  /** Keys of one folder are signed two by two, one HMAC a pair (src/files/url-signer.ts); others alone. */
  async presignAll(keys: readonly string[], options: PresignOptions): Promise<string[]> {
    const urls: string[] = [];
    const rest = [...keys];
    for (let key = rest.shift(); key !== undefined; key = rest.shift()) {
      const next = rest[0];
      if (next !== undefined && next !== key && folderOf(next) === folderOf(key)) {
        rest.shift();
        urls.push(...this.presignPair(key, next, options));
      } else {
        urls.push(await this.presign(key, options));
      }
    }
    return urls;
  }

  private presignPair(first: string, second: string, options: PresignOptions): string[] {
    const folder = folderOf(first);
    const names: [string, string] = [first.slice(folder.length), second.slice(folder.length)];
    const [firstQuery, secondQuery] = this.signer.signPair(options.method, FILES_ROUTE_PREFIX + folder, names, options.expiresInSeconds);
    return [`${this.publicUrl}${FILES_ROUTE_PREFIX}${first}?${firstQuery}`, `${this.publicUrl}${FILES_ROUTE_PREFIX}${second}?${secondQuery}`];
  }

  private pathOf(key: string): string {
    if (!isValidBlobKey(key)) throw new Error(`Invalid blob key: ${key}`);
    return path.join(this.root, ...key.split('/'));
  }
}

/** The key's folder with its trailing slash: `templates/<id>/` of `templates/<id>/mask.html`. */
function folderOf(key: string): string {
  return key.slice(0, key.lastIndexOf('/') + 1);
}

/**
 * Puts a whole, flushed temporary file at its target: renamed over what is there, or, to keep a
 * file already there, linked (which fails when the target exists) and then unlinked.
 */
async function putInPlace(temporary: string, target: string, ifAbsent: boolean): Promise<void> {
  if (!ifAbsent) return fs.renameSync(temporary, target);
  await linkOnce(temporary, target);
  fs.unlinkSync(temporary);
}

async function linkOnce(temporary: string, target: string): Promise<void> {
  try {
    await fsp.link(temporary, target);
  } catch (error) {
    if (errorCode(error) === 'EEXIST') throw new BlobExistsError();
    throw error;
  }
}

/**
 * Opens a new file for writing, making its folder only when the open says it is missing: most
 * writes go to folders that already exist, and a recursive mkdir costs more than the open.
 */
function openCreatingFolder(file: string): number {
  try {
    return fs.openSync(file, 'wx');
  } catch (error) {
    if (!isMissing(error)) throw error;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    return fs.openSync(file, 'wx');
  }
}

function errorCode(error: unknown): unknown {
  return error instanceof Error && 'code' in error ? error.code : undefined;
}

function isMissing(error: unknown): boolean {
  return errorCode(error) === 'ENOENT';
}

/**
 * False only when nothing is at the path (lstat: a symbolic link counts, as unlink removes it). Any
 * other failure (ENOTDIR, EACCES) answers true, so the unlink or rmdir reports it as it always has.
 */
function mayExist(target: string): boolean {
  try {
    return fs.lstatSync(target, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return true;
  }
}

function ignoreMissing(error: unknown): void {
  if (!isMissing(error)) throw error;
}

function ignoreMissingOrNotEmpty(error: unknown): void {
  const code = errorCode(error);
  if (code !== 'ENOENT' && code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
}
