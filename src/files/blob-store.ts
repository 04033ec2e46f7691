import type { Readable } from 'node:stream';

export type PresignMethod = 'PUT' | 'GET';

export interface PresignOptions {
  method: PresignMethod;
  expiresInSeconds: number;
  /** For PUT: the content type the uploader must send. */
  contentType?: string;
  /**
   * For GET by `presign`: the name the file is saved as (a final file's `Lease - firmado.pdf`),
   * made fit by `downloadName`; without it, the last part of the key.
   */
  downloadName?: string;
}

export interface WriteOptions {
  contentType: string;
  maxBytes: number;
  /**
   * Keep the blob already at `key` if there is one (BlobExistsError): for files written once, where a
   * second upload finishing after the first must not replace the bytes whose hash was recorded.
   * Held by the local store; S3 stores that ignore `If-None-Match` (s3rver among them) write over
   * it, so nothing written to S3 depends on it (final files: src/documents/sealing/final-file-writer.ts).
   */
  ifAbsent?: boolean;
}

export interface StoredBlob {
  body: Readable;
  size: number;
  contentType: string;
}

/** Where files live: a local folder by default, any S3-compatible store when configured. */
export interface BlobStore {
  readonly kind: 'local' | 's3';
  /** Replaces the blob at `key` atomically: readers see the old bytes or the new ones, never a part. */
  write(key: string, body: Readable, options: WriteOptions): Promise<{ size: number }>;
  /**
   * Replaces the blob at `key` with bytes already in memory, as `write` does (atomically, flushed
   * before it resolves), but without a stream: a process's document is written on every creation.
   */
  writeBytes(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The blob with an open body: the caller must read the body to its end or destroy it. */
  read(key: string): Promise<StoredBlob | undefined>;
  /** Whether a blob is at `key`, opening nothing. */
  exists(key: string): Promise<boolean>;
  delete(keys: string[]): Promise<void>;
  /** A URL that allows exactly one method on one key until it expires. */
  presign(key: string, options: PresignOptions): Promise<string>;
  /** URLs for keys issued together, in their order, each allowing the method on its key until the same instant. */
  presignAll(keys: readonly string[], options: PresignOptions): Promise<string[]>;
}

export class BlobTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super('FILE_TOO_LARGE');
  }
}

export class BlobExistsError extends Error {
  constructor() {
    super('FILE_EXISTS');
  }
}

export class BlobEmptyError extends Error {
  constructor() {
    super('FILE_EMPTY');
  }
}

const CONTENT_TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  json: 'application/json',
};

/** Keys carry their file extension; the type served back follows from it. */
export function contentTypeOf(key: string): string {
  const extension = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
  return CONTENT_TYPES[extension] ?? 'application/octet-stream';
}
