import crypto from 'node:crypto';
import http from 'node:http';
import { buffer } from 'node:stream/consumers';
import { isRecord } from '../../src/is-record.js';
import { portOf } from './ports.js';

/*
 * A stand-in for Meta's Graph API (the WhatsApp Business Cloud API) on 127.0.0.1, answering as its
 * documentation says: every call needs the Bearer token; POST /{phone-number-id}/messages answers
 * the message's wamid; POST /{phone-number-id}/media takes a multipart upload and answers its id; a
 * message of type document must name an uploaded id; GET /{media-id} answers {url, mime_type,
 * sha256, file_size, id} and GET url the bytes, both with the token.
 */

export const GRAPH_VERSION = 'v21.0';

export interface SentMessage {
  to: string;
  wamid: string;
  /** The JSON body as posted. */
  body: Record<string, unknown>;
}

export interface Upload {
  id: string;
  messagingProduct: string;
  type: string;
  filename: string;
  bytes: Buffer;
}

export interface GraphApiStandIn {
  /** The base URL to configure as WHATSAPP_API_URL (with the version). */
  url: string;
  token: string;
  phoneNumberId: string;
  sent: SentMessage[];
  uploads: Upload[];
  /** Requests refused for a wrong or missing token. */
  unauthorized: number;
  /** The wamids the next accepted messages get, in order (random ones after them). */
  nextWamids: string[];
  /** How long a send waits before Meta's answer (a slow API). */
  sendDelayMs: number;
  /** Media a person sent, as Meta keeps it: answers its media id. */
  addMedia(bytes: Buffer, mimeType: string, options?: { declaredSize?: number }): string;
  /** Sends to this number are refused with Meta's error, as for a number WhatsApp cannot reach; only the next `times` when given. */
  refuse(to: string, error: { status: number; code: number; message: string }, times?: number): void;
  close(): Promise<void>;
}

interface Part {
  name: string;
  filename?: string;
  content: Buffer;
}

/** The parts of a multipart/form-data body (RFC 7578), as Meta reads an upload. */
function formParts(body: Buffer, contentType: string): Part[] {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const value = boundary?.[1] ?? boundary?.[2];
  if (value === undefined) return [];
  const delimiter = Buffer.from(`--${value}`);
  const parts: Part[] = [];
  let start = body.indexOf(delimiter);
  while (start !== -1) {
    const next = body.indexOf(delimiter, start + delimiter.length);
    if (next === -1) break;
    const part = body.subarray(start + delimiter.length, next);
    const headerEnd = part.indexOf('\r\n\r\n');
    if (headerEnd !== -1) {
      const headers = part.subarray(0, headerEnd).toString('utf8');
      const name = /content-disposition:[^\r\n]*\bname="([^"]*)"/i.exec(headers)?.[1];
      const filename = /content-disposition:[^\r\n]*\bfilename="([^"]*)"/i.exec(headers)?.[1];
      if (name !== undefined) {
        parts.push({ name, ...(filename === undefined ? {} : { filename }), content: part.subarray(headerEnd + 4, Math.max(headerEnd + 4, part.length - 2)) });
      }
    }
    start = next;
  }
  return parts;
}

const wamid = () => `wamid.HBgM${crypto.randomBytes(18).toString('base64url')}`;
const mediaId = () => `1${String(crypto.randomInt(0, 10 ** 12)).padStart(12, '0')}`;

export async function startGraphApi(options: { token?: string; phoneNumberId?: string } = {}): Promise<GraphApiStandIn> {
  const token = options.token ?? `EAAG${crypto.randomBytes(12).toString('hex')}`;
  const phoneNumberId = options.phoneNumberId ?? '106540352242922';
  const sent: SentMessage[] = [];
  const uploads: Upload[] = [];
  const media = new Map<string, { bytes: Buffer; mimeType: string; declaredSize: number }>();
  const refusals = new Map<string, { status: number; code: number; message: string; times?: number }>();
  let origin = '';
  const standIn: GraphApiStandIn = {
    url: '',
    token,
    phoneNumberId,
    sent,
    uploads,
    unauthorized: 0,
    nextWamids: [],
    sendDelayMs: 0,
    addMedia(bytes, mimeType, extra = {}) {
      const id = mediaId();
      media.set(id, { bytes, mimeType, declaredSize: extra.declaredSize ?? bytes.length });
      return id;
    },
    refuse(to, error, times) {
      refusals.set(to, { ...error, ...(times === undefined ? {} : { times }) });
    },
    close: async () => undefined,
  };

  const json = (res: http.ServerResponse, status: number, body: unknown): void => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  const graphError = (res: http.ServerResponse, status: number, code: number, message: string): void =>
    json(res, status, { error: { message, type: 'OAuthException', code, fbtrace_id: crypto.randomBytes(8).toString('hex') } });

  async function answer(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const body = await buffer(req);
    if (req.headers.authorization !== `Bearer ${token}`) {
      standIn.unauthorized++;
      return graphError(res, 401, 190, 'Invalid OAuth access token - Cannot parse access token');
    }
    const path = (req.url ?? '').split('?')[0] ?? '';
    if (req.method === 'POST' && path === `/${GRAPH_VERSION}/${phoneNumberId}/messages`) {
      const message: unknown = JSON.parse(body.toString('utf8'));
      if (!isRecord(message) || message.messaging_product !== 'whatsapp' || typeof message.to !== 'string' || !/^\d+$/.test(message.to)) {
        return graphError(res, 400, 100, 'Invalid parameter');
      }
      if (standIn.sendDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, standIn.sendDelayMs));
      const refusal = refusals.get(message.to);
      if (refusal) {
        if (refusal.times !== undefined && --refusal.times <= 0) refusals.delete(message.to);
        return graphError(res, refusal.status, refusal.code, refusal.message);
      }
      if (message.type === 'document') {
        const documentId = isRecord(message.document) ? message.document.id : undefined;
        if (typeof documentId !== 'string' || !uploads.some((upload) => upload.id === documentId)) return graphError(res, 400, 131053, 'Media upload error');
      }
      const id = standIn.nextWamids.shift() ?? wamid();
      sent.push({ to: message.to, wamid: id, body: message });
      return json(res, 200, { messaging_product: 'whatsapp', contacts: [{ input: message.to, wa_id: message.to }], messages: [{ id }] });
    }
    if (req.method === 'POST' && path === `/${GRAPH_VERSION}/${phoneNumberId}/media`) {
      const parts = formParts(body, req.headers['content-type'] ?? '');
      const field = (name: string) => parts.find((part) => part.name === name);
      const file = field('file');
      const type = field('type')?.content.toString('utf8');
      const product = field('messaging_product')?.content.toString('utf8');
      if (!file || type === undefined || product !== 'whatsapp') return graphError(res, 400, 100, 'Invalid parameter');
      const upload: Upload = { id: mediaId(), messagingProduct: product, type, filename: file.filename ?? '', bytes: file.content };
      uploads.push(upload);
      return json(res, 200, { id: upload.id });
    }
    const download = /^\/media-download\/(\d+)$/.exec(path);
    if (req.method === 'GET' && download) {
      const found = media.get(download[1]!);
      if (!found) return graphError(res, 404, 100, 'Unsupported get request');
      res.writeHead(200, { 'content-type': found.mimeType, 'content-length': found.bytes.length }).end(found.bytes);
      return;
    }
    const lookup = new RegExp(`^/${GRAPH_VERSION}/(\\d+)$`).exec(path);
    if (req.method === 'GET' && lookup) {
      const id = lookup[1]!;
      const found = media.get(id);
      if (!found) return graphError(res, 400, 100, 'Unsupported get request');
      return json(res, 200, {
        messaging_product: 'whatsapp',
        url: `${origin}/media-download/${id}`,
        mime_type: found.mimeType,
        sha256: crypto.createHash('sha256').update(found.bytes).digest('hex'),
        file_size: found.declaredSize,
        id,
      });
    }
    return graphError(res, 404, 100, 'Unknown path components');
  }

  const server = http.createServer((req, res) => {
    answer(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  origin = `http://127.0.0.1:${portOf(server.address())}`;
  standIn.url = `${origin}/${GRAPH_VERSION}`;
  standIn.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return standIn;
}
