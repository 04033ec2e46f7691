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
}

/** The body of POST /{phone-number-id}/messages, as Meta documents it for text and template messages. */
export type CloudApiMessage = {
  messaging_product: 'whatsapp';
  recipient_type: 'individual';
  to: string;
} & (
  | { type: 'text'; text: { preview_url: false; body: string } }
  | {
      type: 'template';
      template: {
        name: string;
        language: { code: string };
        components?: { type: 'body'; parameters: { type: 'text'; text: string }[] }[];
      };
    }
);

/** An approved template when there is one (it may open a conversation); free text otherwise. */
export function cloudApiMessage(message: WhatsAppPayload): CloudApiMessage {
  // Meta wants the number in international form with digits only: no +, spaces or dashes.
  const to = message.to.replace(/\D/g, '');
  if (to === '') throw new SendError('The recipient has no phone number', { retryable: false });
  const envelope = { messaging_product: 'whatsapp', recipient_type: 'individual', to } as const;
  if (message.template) {
    const { name, language, parameters } = message.template;
    const template = { name, language: { code: language } };
    // A template without parameters goes without components: an empty parameter list is not valid.
    if (parameters.length === 0) return { ...envelope, type: 'template', template };
    const body = { type: 'body' as const, parameters: parameters.map((text) => ({ type: 'text' as const, text })) };
    return { ...envelope, type: 'template', template: { ...template, components: [body] } };
  }
  if (message.text === undefined || message.text === '') throw new SendError('The message has neither text nor template', { retryable: false });
  return { ...envelope, type: 'text', text: { preview_url: false, body: message.text } };
}

/** WhatsApp through Meta's WhatsApp Business Cloud API. */
export class WhatsAppCloudSender implements WhatsAppSender {
  private readonly url: string;
  private readonly timeoutMs: number;

  constructor(private readonly options: WhatsAppCloudOptions) {
    const baseUrl = (options.baseUrl ?? WHATSAPP_CLOUD_API_URL).replace(/\/+$/, '');
    this.url = `${baseUrl}/${encodeURIComponent(options.phoneNumberId)}/messages`;
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  async send(message: WhatsAppPayload): Promise<SendResult> {
    const answer = await postToProvider(
      this.url,
      {
        headers: { authorization: `Bearer ${this.options.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(cloudApiMessage(message)),
      },
      this.timeoutMs,
    );
    if (answer.status >= 200 && answer.status < 300) return { id: messageIdOf(answer.json), statusCode: answer.status };
    throw httpRefusal(answer.status, errorMessageOf(answer.json));
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
