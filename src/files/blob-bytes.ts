import type { BlobStore } from './blob-store.js';

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
