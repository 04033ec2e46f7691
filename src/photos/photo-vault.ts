import type { Clock } from '../clock.js';
import type { Db } from '../db/database.js';
import { fail } from '../domain-error.js';
import { readBlobBytes, writeBlobBytes } from '../files/blob-bytes.js';
import type { BlobStore } from '../files/blob-store.js';
import type { UrlSigner } from '../files/url-signer.js';
import { decryptPhoto, encryptPhoto, PhotoDecryptionError } from './photo-cipher.js';
import { forgetPhotoBlobs, recordPhotoBlob, undecidedPhotoKeys } from './queries.js';

/** Photos are served by the service's own route, which decrypts them; never by the store directly. */
export const PHOTOS_ROUTE_PREFIX = '/photos/';
/** How long a photo URL shown by GET /veriface or GET /document works. */
const PHOTO_URL_LIFETIME_SECONDS = 300;

export interface PhotoVaultOptions {
  db: Db;
  clock: Clock;
  blobs: BlobStore;
  signer: UrlSigner;
  publicUrl: string;
  /** The AES-256 key (32 bytes). */
  key: Buffer;
}

/**
 * Identity photos, encrypted before they reach the blob store (src/photos/photo-cipher.ts) and
 * decrypted on the way out. Every key written is recorded with the process it belongs to, so
 * that deleting a process's photos finds them all, earlier attempts included.
 */
export class PhotoVault {
  constructor(private readonly options: PhotoVaultOptions) {}

  /** `ownerId`: the id of the signing process or face validation the photo belongs to. */
  async store(options: { key: string; image: Buffer; ownerId: string }): Promise<void> {
    const { db, clock, blobs, key } = this.options;
    // Recorded first: a photo is never in the store without its record, so no deletion misses it.
    await recordPhotoBlob(db, { key: options.key, owner_id: options.ownerId, created_at: clock.now().toISOString() });
    await writeBlobBytes(blobs, options.key, encryptPhoto(key, options.key, options.image), 'application/octet-stream');
  }

  /** The image, or undefined when nothing is stored at `key`; 409 PHOTO_UNREADABLE when it does not decrypt. */
  async read(key: string): Promise<Buffer | undefined> {
    const stored = await readBlobBytes(this.options.blobs, key);
    if (!stored) return undefined;
    try {
      return decryptPhoto(this.options.key, key, stored);
    } catch (error) {
      if (error instanceof PhotoDecryptionError) throw fail('PHOTO_UNREADABLE');
      throw error;
    }
  }

  /** A URL of the photo route, valid PHOTO_URL_LIFETIME_SECONDS. */
  url(key: string): string {
    const pathname = PHOTOS_ROUTE_PREFIX + key;
    return `${this.options.publicUrl}${pathname}?${this.options.signer.sign('GET', pathname, PHOTO_URL_LIFETIME_SECONDS)}`;
  }

  /** Removes the photos' bytes, keeping their records (for a caller that forgets them with what else it changes). */
  async erase(keys: readonly string[]): Promise<void> {
    if (keys.length > 0) await this.options.blobs.delete([...keys]);
  }

  /** Removes the photos and their records; keys with nothing stored are passed over. */
  async delete(keys: readonly string[]): Promise<void> {
    await this.erase(keys);
    await forgetPhotoBlobs(this.options.db, keys);
  }

  /**
   * Deletes the photos a retake replaced, but not one a decision was taken on (marked by
   * markPhotosDecided): those stay as its evidence until the retention deletes them. Called once
   * no row names `keys` any more, so no decision can mark them after this reads them.
   */
  async deleteReplaced(keys: readonly (string | null)[]): Promise<void> {
    const replaced = await undecidedPhotoKeys(
      this.options.db,
      keys.filter((key) => key !== null),
    );
    await this.delete(replaced);
  }
}
