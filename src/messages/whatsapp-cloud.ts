import { readBlobBytes } from '../files/blob-bytes.js';
import type { BlobStore } from '../files/blob-store.js';
import { isRecord } from '../is-record.js';
import type { WhatsAppPayload } from '../outbox/types.js';
import { httpRefusal, postToProvider } from './provider-http.js';
import { SendError, type SendResult } from './send-result.js';
import type { WhatsAppSender } from './whatsapp.js';

export const WHATSAPP_CLOUD_API_URL = 'https://graph.facebook.com/v21.0';

export interface WhatsAppCloudOptions {
  /** A system user's access token with the whatsapp_business_messaging permission. */
  token: string;
  phoneNumberId: string;
  /** Meta's Graph API with its version; tests point it at a local receiver. */
  baseUrl?: string;
  timeoutMs?: number;
  /** Where the documents the conversation sends are read from, to be uploaded before they are sent. */
  blobs?: BlobStore;
}

type TemplateComponent =
  | { type: 'body'; parameters: { type: 'text'; text: string }[] }
  | { type: 'button'; sub_type: 'quick_reply'; index: string; parameters: { type: 'payload'; payload: string }[] };

/** The body of POST /{phone-number-id}/messages, as Meta documents it for each type the service sends. */
export type CloudApiMessage = {
  messaging_product: 'whatsapp';
  recipient_type: 'individual';
  to: string;
} & (
  | { type: 'text'; text: { preview_url: false; body: string } }
  | { type: 'template'; template: { name: string; language: { code: string }; components?: TemplateComponent[] } }
  | {
      type: 'interactive';
      interactive: { type: 'button'; body: { text: string }; action: { buttons: { type: 'reply'; reply: { id: string; title: string } }[] } };
    }
  | { type: 'document'; document: { id: string; filename: string; caption?: string } }
);

type Envelope = Pick<CloudApiMessage, 'messaging_product' | 'recipient_type' | 'to'>;

/** A template with its body parameters and the payloads of its quick-reply buttons, in order. */
function templateMessage(envelope: Envelope, template: { name: string; language: string; parameters: string[]; quickReplies?: string[] }): CloudApiMessage {
  const components: TemplateComponent[] = [];
  // An empty parameter list is not valid: a template without parameters goes without a body component.
  if (template.parameters.length > 0) components.push({ type: 'body', parameters: template.parameters.map((text) => ({ type: 'text', text })) });
  for (const [index, payload] of (template.quickReplies ?? []).entries()) {
    components.push({ type: 'button', sub_type: 'quick_reply', index: String(index), parameters: [{ type: 'payload', payload }] });
  }
  const base = { name: template.name, language: { code: template.language } };
  return { ...envelope, type: 'template', template: components.length > 0 ? { ...base, components } : base };
}

/**
 * The Cloud API body of a message: an approved template when there is one (it may open a
 * conversation), free text otherwise; a message of the conversation as its kind says. A document
 * goes by the media id its upload got (`mediaId`): never by a public link.
 */
export function cloudApiMessage(message: WhatsAppPayload, mediaId?: string): CloudApiMessage {
  // Meta wants the number in international form with digits only: no +, spaces or dashes.
  const to = message.to.replace(/\D/g, '');
  if (to === '') throw new SendError('The recipient has no phone number', { retryable: false });
  const envelope = { messaging_product: 'whatsapp', recipient_type: 'individual', to } as const;
  const content = message.chat?.content;
  if (content?.kind === 'text') return { ...envelope, type: 'text', text: { preview_url: false, body: content.text } };
  if (content?.kind === 'buttons') {
    const buttons = content.buttons.map((button) => ({ type: 'reply' as const, reply: { id: button.id, title: button.title } }));
    return { ...envelope, type: 'interactive', interactive: { type: 'button', body: { text: content.text }, action: { buttons } } };
  }
  if (content?.kind === 'template') return templateMessage(envelope, content);
  if (content?.kind === 'document') {
    if (mediaId === undefined) throw new SendError('The document was not uploaded', { retryable: true });
    const caption = content.caption === undefined || content.caption === '' ? {} : { caption: content.caption };
    return { ...envelope, type: 'document', document: { id: mediaId, filename: content.filename, ...caption } };
  }
  if (message.template) return templateMessage(envelope, message.template);
  if (message.text === undefined || message.text === '') throw new SendError('The message has neither text nor template', { retryable: false });
  return { ...envelope, type: 'text', text: { preview_url: false, body: message.text } };
}

/** WhatsApp through Meta's WhatsApp Business Cloud API. */
export class WhatsAppCloudSender implements WhatsAppSender {
  private readonly baseUrl: string;
  private readonly timeoutMs: number;

  constructor(private readonly options: WhatsAppCloudOptions) {
    this.baseUrl = `${(options.baseUrl ?? WHATSAPP_CLOUD_API_URL).replace(/\/+$/, '')}/${encodeURIComponent(options.phoneNumberId)}`;
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  async send(message: WhatsAppPayload): Promise<SendResult> {
    const content = message.chat?.content;
    const mediaId = content?.kind === 'document' ? await this.upload(content) : undefined;
    const answer = await postToProvider(
      `${this.baseUrl}/messages`,
      {
        headers: { authorization: `Bearer ${this.options.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(cloudApiMessage(message, mediaId)),
      },
      this.timeoutMs,
    );
    if (answer.status >= 200 && answer.status < 300) return { id: messageIdOf(answer.json), statusCode: answer.status };
    throw httpRefusal(answer.status, errorMessageOf(answer.json));
  }

  /**
   * Uploads a file of the blob store (POST /{phone-number-id}/media, multipart, as Meta documents it)
   * and answers its media id. Uploaded again on a retry: a media id is only good for the message
   * that names it, and Meta keeps uploads for 30 days.
   */
  private async upload(document: { blobKey: string; filename: string; mimeType: string }): Promise<string> {
    const blobs = this.options.blobs;
    if (!blobs) throw new SendError('No file store to read the document from', { retryable: false });
    const bytes = await readBlobBytes(blobs, document.blobKey);
    if (!bytes) throw new SendError(`The document ${document.filename} is not stored`, { retryable: false });
    const form = new FormData();
    form.set('messaging_product', 'whatsapp');
    form.set('type', document.mimeType);
    form.set('file', new Blob([new Uint8Array(bytes)], { type: document.mimeType }), document.filename);
    const answer = await postToProvider(`${this.baseUrl}/media`, { headers: { authorization: `Bearer ${this.options.token}` }, body: form }, this.timeoutMs);
    if (answer.status < 200 || answer.status >= 300) throw httpRefusal(answer.status, errorMessageOf(answer.json));
    const id = isRecord(answer.json) && typeof answer.json.id === 'string' ? answer.json.id : undefined;
    if (id === undefined) throw new SendError('The media upload answered no id', { retryable: true, statusCode: answer.status });
    return id;
  }
}

/** `messages[0].id` of Meta's answer: the wamid that status webhooks will name. */
function messageIdOf(json: unknown): string | undefined {
  if (typeof json !== 'object' || json === null || !('messages' in json) || !Array.isArray(json.messages)) return undefined;
  const first: unknown = json.messages[0];
  return typeof first === 'object' && first !== null && 'id' in first && typeof first.id === 'string' ? first.id : undefined;
}

/** `error.message` of a Graph API error answer, e.g. "(#131030) Recipient phone number not in allowed list". */
function errorMessageOf(json: unknown): string | undefined {
  if (typeof json !== 'object' || json === null || !('error' in json)) return undefined;
  const error = json.error;
  return typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string' ? error.message : undefined;
}
