import { Readable } from 'node:stream';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Clock } from '../clock.js';
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
import { contentDisposition, isHtmlKey } from './download-headers.js';

export interface S3Config {
  bucket: string;
  region: string;
  endpoint: string | undefined;
  forcePathStyle: boolean;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
}

/** Any S3-compatible store; uploads and downloads by URL go straight to it through presigned URLs. */
export class S3BlobStore implements BlobStore {
  readonly kind = 's3';
  private readonly client: S3Client;

  constructor(
    private readonly config: S3Config,
    private readonly clock: Clock,
  ) {
    const clientConfig: S3ClientConfig = {
      region: config.region,
      forcePathStyle: config.forcePathStyle,
      // By default the SDK signs the CRC32 of the (empty) body known at presign time into upload URLs,
      // so S3-compatible stores that check it refuse every real upload.
      requestChecksumCalculation: 'WHEN_REQUIRED',
    };
    if (config.endpoint) clientConfig.endpoint = config.endpoint;
    if (config.accessKeyId && config.secretAccessKey) {
      clientConfig.credentials = { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey };
    }
    this.client = new S3Client(clientConfig);
  }

  /** S3 replaces an object atomically on a completed PUT; the size limit is enforced while buffering. */
  async write(key: string, body: Readable, options: WriteOptions): Promise<{ size: number }> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body) {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
      size += buffer.length;
      if (size > options.maxBytes) throw new BlobTooLargeError(options.maxBytes);
      chunks.push(buffer);
    }
    if (size === 0) throw new BlobEmptyError();
    const put = { Bucket: this.config.bucket, Key: key, Body: Buffer.concat(chunks), ContentType: options.contentType };
    try {
      // A conditional write: S3 refuses it with 412 when the key exists; some compatible stores ignore it (WriteOptions.ifAbsent).
      await this.client.send(new PutObjectCommand(options.ifAbsent ? { ...put, IfNoneMatch: '*' } : put));
    } catch (error) {
      if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 412) throw new BlobExistsError();
      throw error;
    }
    return { size };
  }

  async writeBytes(key: string, bytes: Buffer, contentType: string): Promise<void> {
    await this.write(key, Readable.from([bytes]), { contentType, maxBytes: Math.max(bytes.length, 1) });
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.config.bucket, Key: key }));
      return true;
    } catch (error) {
      if (error instanceof NotFound || error instanceof NoSuchKey) return false;
      throw error;
    }
  }

  async read(key: string): Promise<StoredBlob | undefined> {
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.config.bucket, Key: key }));
      // On Node the SDK hands back the HTTP response itself; anything else would be a runtime mix-up.
      if (!(object.Body instanceof Readable)) throw new Error(`S3 returned no readable body for ${key}`);
      return { body: object.Body, size: object.ContentLength ?? 0, contentType: object.ContentType ?? 'application/octet-stream' };
    } catch (error) {
      if (error instanceof NoSuchKey) return undefined;
      throw error;
    }
  }

  async delete(keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    const result = await this.client.send(
      new DeleteObjectsCommand({ Bucket: this.config.bucket, Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true } }),
    );
    // S3 answers 200 even when some keys could not be deleted; it lists them here instead.
    const failed = result.Errors ?? [];
    if (failed.length > 0) {
      throw new Error(`S3 could not delete ${failed.map((e) => `${e.Key ?? '?'} (${e.Code ?? 'unknown'})`).join(', ')}`);
    }
  }

  /**
   * Signed at the service clock's time, so a URL expires when the service says it does. The SDK never
   * signs Content-Type into a PUT URL and a presigned PUT cannot cap the body's size, so S3 enforces
   * neither. The downloaded type follows from the key, as with the local store, whatever was uploaded.
   */
  async presign(key: string, options: PresignOptions): Promise<string> {
    const command =
      options.method === 'PUT'
        ? new PutObjectCommand({ Bucket: this.config.bucket, Key: key, ContentType: options.contentType })
        : new GetObjectCommand({
            Bucket: this.config.bucket,
            Key: key,
            ResponseContentType: contentTypeOf(key),
            // A presigned GET cannot carry a Content-Security-Policy: stored HTML is downloaded, never shown.
            ResponseContentDisposition: contentDisposition(isHtmlKey(key) ? 'attachment' : 'inline', key, options.downloadName),
          });
    return getSignedUrl(this.client, command, { expiresIn: options.expiresInSeconds, signingDate: this.clock.now() });
  }

  presignAll(keys: readonly string[], options: PresignOptions): Promise<string[]> {
    return Promise.all(keys.map((key) => this.presign(key, options)));
  }

  destroy(): void {
    this.client.destroy();
  }
}
