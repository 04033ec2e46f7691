import crypto from 'node:crypto';
import type { BlobStore } from '../../files/blob-store.js';
import { type ChatMedia, ChatMediaError } from '../message/chat-message.js';

/**
 * Where the local chat page's photos are kept, each under a random id, as Meta keeps media by id.
 * The id ends with the type's extension: the blob store serves a key's type by its extension.
 */
const FOLDER = 'whatsapp-media/';
const MEDIA_ID = /^[a-f0-9]{32}\.(jpg|png)$/;
const EXTENSIONS: Readonly<Record<string, string>> = { 'image/jpeg': 'jpg', 'image/png': 'png' };

/** Stores a photo (JPEG or PNG) the local chat page sends as a person would, and answers its media id. */
export async function storeLocalChatMedia(blobs: BlobStore, options: { bytes: Buffer; mimeType: string }): Promise<string> {
  const extension = EXTENSIONS[options.mimeType];
  if (extension === undefined) throw new ChatMediaError(`${options.mimeType} is not a JPEG or PNG image`);
  const id = `${crypto.randomBytes(16).toString('hex')}.${extension}`;
  await blobs.writeBytes(`${FOLDER}${id}`, options.bytes, options.mimeType);
  return id;
}

/**
 * The media of the local chat page, with no WhatsApp provider configured: read from the blob store
 * by the id storeLocalChatMedia gave, once, refused past `maxBytes` as the Cloud API's media are.
 */
export class LocalChatMedia implements ChatMedia {
  constructor(private readonly blobs: BlobStore) {}

  async download(mediaId: string, options: { maxBytes: number }): Promise<{ bytes: Buffer; mimeType: string }> {
    // Only ids this store gave: nothing else of the blob store is reachable by a media id.
    if (!MEDIA_ID.test(mediaId)) throw new ChatMediaError(`no media ${mediaId}`);
    const blob = await this.blobs.read(`${FOLDER}${mediaId}`);
    if (!blob) throw new ChatMediaError(`no media ${mediaId}`);
    if (blob.size > options.maxBytes) {
      blob.body.destroy();
      throw new ChatMediaError(`media ${mediaId} is larger than ${options.maxBytes} bytes`);
    }
    const chunks: Buffer[] = [];
    for await (const chunk of blob.body) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
    // An identity photo is kept only in the photo vault, encrypted: the page's plain copy goes once read.
    await this.release(mediaId);
    return { bytes: Buffer.concat(chunks), mimeType: blob.contentType.split(';')[0]!.trim() };
  }

  /** A photo the conversation did not read is not kept in plain either. */
  async release(mediaId: string): Promise<void> {
    if (MEDIA_ID.test(mediaId)) await this.blobs.delete([`${FOLDER}${mediaId}`]);
  }
}
