import { BlobExistsError, type BlobStore } from './blob-store.js';

/** The whole blob in memory, or undefined when there is none at `key`; for files small enough to hold at once. */
export async function readBlobBytes(blobs: BlobStore, key: string): Promise<Buffer | undefined> {
  const blob = await blobs.read(key);
  if (!blob) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of blob.body) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** Stores bytes already in memory (BlobStore.writeBytes: atomic and flushed, as `write`). */
export async function writeBlobBytes(blobs: BlobStore, key: string, bytes: Buffer, contentType: string): Promise<void> {
  await blobs.writeBytes(key, bytes, contentType);
}

/**
 * Stores bytes unless a blob is already at `key`, and answers the bytes that are there now: those
 * given, or the ones a writer that came first left (stores write whole, so they are complete).
 */
export async function writeOnce(blobs: BlobStore, key: string, bytes: Buffer, contentType: string): Promise<Buffer> {
  try {
    await blobs.writeBytes(key, bytes, contentType, { ifAbsent: true });
    return bytes;
  } catch (error) {
    if (!(error instanceof BlobExistsError)) throw error;
    const there = await readBlobBytes(blobs, key);
    // Deleted between the two calls: nothing else writes these keys, so this is a store being emptied.
    if (!there) throw new Error(`${key} vanished while it was being written`);
    return there;
  }
}
