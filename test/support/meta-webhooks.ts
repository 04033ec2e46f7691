import crypto from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

/*
 * Webhook deliveries of the WhatsApp Business Cloud API in the shapes Meta documents
 * (`whatsapp_business_account`, entry[].changes[].value with contacts, messages and statuses),
 * signed as Meta signs them: X-Hub-Signature-256 = sha256= and the hex HMAC-SHA256 of the raw body.
 */

export const BUSINESS_PHONE_NUMBER_ID = '106540352242922';

let sequence = 0;
/** A wamid as Meta writes them. */
export function newWamid(): string {
  sequence++;
  return `wamid.HBgMNTczMDAxMjM0NTY3FQIAEhgg${crypto.randomBytes(12).toString('hex').toUpperCase()}${sequence}`;
}

const seconds = () => String(Math.floor(Date.now() / 1000));

interface From {
  from: string;
  id?: string;
  /** The business message this one answers (Meta's `context`). */
  contextId?: string;
}

function base(options: From, type: string): Record<string, unknown> {
  return {
    from: options.from,
    id: options.id ?? newWamid(),
    timestamp: seconds(),
    type,
    ...(options.contextId === undefined ? {} : { context: { from: BUSINESS_PHONE_NUMBER_ID, id: options.contextId } }),
  };
}

export const textMessage = (options: From & { text: string }) => ({ ...base(options, 'text'), text: { body: options.text } });

/** A tap on an interactive reply button. */
export const buttonReply = (options: From & { buttonId: string; title: string }) => ({
  ...base(options, 'interactive'),
  interactive: { type: 'button_reply', button_reply: { id: options.buttonId, title: options.title } },
});

/** A tap on a template's quick-reply button. */
export const templateButton = (options: From & { payload: string; text: string }) => ({
  ...base(options, 'button'),
  button: { payload: options.payload, text: options.text },
});

export const imageMessage = (options: From & { mediaId: string; mimeType?: string; caption?: string }) => ({
  ...base(options, 'image'),
  image: { id: options.mediaId, mime_type: options.mimeType ?? 'image/jpeg', sha256: 'b1d2…', ...(options.caption ? { caption: options.caption } : {}) },
});

export const documentMessage = (options: From & { mediaId: string; mimeType: string; filename: string }) => ({
  ...base(options, 'document'),
  document: { id: options.mediaId, mime_type: options.mimeType, filename: options.filename, sha256: 'c3e4…' },
});

export const stickerMessage = (options: From) => ({ ...base(options, 'sticker'), sticker: { id: '1234', mime_type: 'image/webp', animated: false } });

export function statusUpdate(options: { wamid: string; status: 'sent' | 'delivered' | 'read' | 'failed'; recipient: string; errorTitle?: string }) {
  return {
    id: options.wamid,
    status: options.status,
    timestamp: seconds(),
    recipient_id: options.recipient,
    ...(options.status === 'failed'
      ? { errors: [{ code: 131026, title: options.errorTitle ?? 'Message undeliverable', message: 'Message undeliverable', error_data: { details: 'x' } }] }
      : {}),
  };
}

/** One delivery: the messages (with the senders' profile names) and statuses, in one change. */
export function webhookBody(value: { messages?: Record<string, unknown>[]; statuses?: Record<string, unknown>[]; names?: Record<string, string> }) {
  const contacts = Object.entries(value.names ?? {}).map(([waId, name]) => ({ profile: { name }, wa_id: waId }));
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        changes: [
          {
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550783881', phone_number_id: BUSINESS_PHONE_NUMBER_ID },
              ...(contacts.length > 0 ? { contacts } : {}),
              ...(value.messages ? { messages: value.messages } : {}),
              ...(value.statuses ? { statuses: value.statuses } : {}),
            },
            field: 'messages',
          },
        ],
      },
    ],
  };
}

export function metaSignature(raw: string | Buffer, appSecret: string): string {
  return `sha256=${crypto.createHmac('sha256', appSecret).update(raw).digest('hex')}`;
}

/** Posts a body to the webhook as Meta does: the exact bytes, signed (or with the signature given). */
export function postWebhook(app: FastifyInstance, body: unknown, options: { secret: string; signature?: string }): Promise<LightMyRequestResponse> {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  return app.inject({
    method: 'POST',
    url: '/whatsapp/webhook',
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': options.signature ?? metaSignature(raw, options.secret) },
    payload: raw,
  });
}
