import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import type { BlobStore } from '../files/blob-store.js';
import type { DocumentSource } from '../db/schema.js';

/** Upload URLs for PDFs and download URLs of documents last five minutes, like the template ones. */
export const DOCUMENT_URL_LIFETIME_SECONDS = 300;

const KEY_PATTERN = /^processes\/([0-9a-f]{24})\/documents\/(\d{1,3})\.(pdf|html)$/;

export function documentFileKey(processId: string, position: number, source: DocumentSource): string {
  return `processes/${processId}/documents/${position}.${source === 'pdf' ? 'pdf' : 'html'}`;
}

export function isDocumentPdfKey(key: string): boolean {
  return KEY_PATTERN.exec(key)?.[3] === 'pdf';
}

/** Every PDF starts with this header (ISO 32000: "%PDF-" followed by the version). */
export function looksLikePdf(bytes: Buffer): boolean {
  return bytes.subarray(0, 5).toString('latin1') === '%PDF-';
}

export function sha256(bytes: Buffer): string {
  return crypto.createHash('sha256').update(bytes).digest('hex');
}

export async function readBlobBytes(blobs: BlobStore, key: string): Promise<Buffer | undefined> {
  const blob = await blobs.read(key);
  if (!blob) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of blob.body) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

export async function writeBlobBytes(blobs: BlobStore, key: string, bytes: Buffer, contentType: string): Promise<void> {
  await blobs.write(key, Readable.from([bytes]), { contentType, maxBytes: Math.max(bytes.length, 1) });
}
