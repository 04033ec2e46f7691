import { isRecord } from '../../is-record.js';
import { type ChatMedia, ChatMediaError } from '../message/chat-message.js';

export interface CloudChatMediaOptions {
  token: string;
  /** Meta's Graph API with its version (WHATSAPP_API_URL). */
  baseUrl: string;
  timeoutMs: number;
}

/** What a person sends as a photo: an image, or a document of an image type (uncompressed). */
const IMAGE_TYPE = /^image\/[a-z0-9.+-]+$/;

function mediaType(value: string | null | undefined): string {
  return (value ?? '').split(';')[0]!.trim().toLowerCase();
}

/**
 * The photos people send, fetched the Cloud API's way: `GET {WHATSAPP_API_URL}/{media-id}` with the
 * token answers `{url, mime_type, file_size}`, and `GET url` with the token gives the bytes. Refused
 * (ChatMediaError): anything but an image, more than `maxBytes` (by the size Meta gives, and again
 * while reading), no answer in time, and a `url` outside Meta's https (or the configured API's own
 * origin, for stand-ins): the token goes with that request, and must go nowhere else.
 */
export class CloudChatMedia implements ChatMedia {
  private readonly baseUrl: string;

  constructor(private readonly options: CloudChatMediaOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
  }

  async download(mediaId: string, options: { maxBytes: number }): Promise<{ bytes: Buffer; mimeType: string }> {
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    const lookup = await this.get(`${this.baseUrl}/${encodeURIComponent(mediaId)}`, signal);
    const found: unknown = await lookup.json().catch(() => undefined);
    if (!lookup.ok || !isRecord(found) || typeof found.url !== 'string') throw new ChatMediaError(`media ${mediaId}: lookup answered HTTP ${lookup.status}`);
    const declaredType = mediaType(typeof found.mime_type === 'string' ? found.mime_type : undefined);
    if (!IMAGE_TYPE.test(declaredType)) throw new ChatMediaError(`media ${mediaId} is ${declaredType || 'of no type'}, not an image`);
    if (typeof found.file_size === 'number' && found.file_size > options.maxBytes)
      throw new ChatMediaError(`media ${mediaId} is larger than ${options.maxBytes} bytes`);
    const url = this.trusted(found.url);
    const response = await this.get(url, signal);
    if (!response.ok || !response.body) throw new ChatMediaError(`media ${mediaId}: download answered HTTP ${response.status}`);
    const servedType = mediaType(response.headers.get('content-type'));
    const mimeType = IMAGE_TYPE.test(servedType) ? servedType : declaredType;
    return { bytes: await this.read(response.body, options.maxBytes, mediaId), mimeType };
  }

  private async get(url: string, signal: AbortSignal): Promise<Response> {
    try {
      return await fetch(url, { headers: { authorization: `Bearer ${this.options.token}` }, redirect: 'error', signal });
    } catch (error) {
      throw new ChatMediaError(`media request failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private trusted(url: string): string {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new ChatMediaError('the media lookup answered no valid url');
    }
    if (parsed.protocol === 'https:' || parsed.origin === new URL(this.baseUrl).origin) return parsed.toString();
    throw new ChatMediaError('the media url is neither https nor on the API');
  }

  private async read(body: ReadableStream<Uint8Array>, maxBytes: number, mediaId: string): Promise<Buffer> {
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of body) {
        size += chunk.byteLength;
        if (size > maxBytes) throw new ChatMediaError(`media ${mediaId} is larger than ${maxBytes} bytes`);
        chunks.push(Buffer.from(chunk));
      }
    } catch (error) {
      await body.cancel().catch(() => undefined);
      if (error instanceof ChatMediaError) throw error;
      throw new ChatMediaError(`media ${mediaId}: reading failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    return Buffer.concat(chunks);
  }
}
