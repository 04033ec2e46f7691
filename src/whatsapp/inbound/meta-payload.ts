import { isRecord } from '../../is-record.js';
import type { InboundChatMessage } from '../message/chat-message.js';

/** A status Meta reports for a message the business sent. */
export interface InboundStatus {
  /** The wamid of the message sent. */
  wamid: string;
  /** The person's number. */
  phone: string;
  status: 'sent' | 'delivered' | 'read' | 'failed';
  at: string;
  /** Of a failed message, Meta's error title (e.g. "Re-engagement message"). */
  error?: string;
}

export interface WebhookContents {
  messages: InboundChatMessage[];
  statuses: InboundStatus[];
}

const STATUSES: readonly InboundStatus['status'][] = ['sent', 'delivered', 'read', 'failed'];
const ID_LENGTH = 256;
/** WhatsApp's own limit on a text message. */
const TEXT_LENGTH = 4096;
const PHONE = /^\d{6,20}$/;

/**
 * A string of the payload as it may be stored: within `max` characters, and without U+0000 or a
 * lone surrogate, which PostgreSQL refuses (and SQLite would keep something else for). Meta retries
 * what it is not answered 200 for days, so such text is mended, not refused.
 */
function text(value: unknown, max: number): string | undefined {
  if (typeof value !== 'string') return undefined;
  return value
    .slice(0, max)
    .split('\u0000')
    .join('')
    .replace(/\p{Surrogate}/gu, '\uFFFD');
}

function id(value: unknown): string | undefined {
  const found = text(value, ID_LENGTH);
  return found === undefined || found === '' ? undefined : found;
}

/** Meta's `timestamp`: seconds since the epoch, as a string. */
function instant(value: unknown, fallback: Date): string {
  const seconds = typeof value === 'string' && /^\d{1,12}$/.test(value) ? Number(value) : Number.NaN;
  return Number.isFinite(seconds) ? new Date(seconds * 1000).toISOString() : fallback.toISOString();
}

function field(value: unknown, key: string): unknown {
  return isRecord(value) ? value[key] : undefined;
}

function contentOf(message: Record<string, unknown>): InboundChatMessage['content'] {
  const type = typeof message.type === 'string' ? message.type : 'unknown';
  if (type === 'text') {
    const body = text(field(message.text, 'body'), TEXT_LENGTH);
    if (body !== undefined) return { kind: 'text', text: body };
  }
  if (type === 'interactive') {
    // A reply button, or a row of a list message: both answer with the id the business gave it.
    const interactive = message.interactive;
    const reply = field(interactive, 'button_reply') ?? field(interactive, 'list_reply');
    const replyId = id(field(reply, 'id'));
    if (replyId !== undefined) return { kind: 'button', id: replyId, title: text(field(reply, 'title'), ID_LENGTH) ?? '' };
  }
  if (type === 'button') {
    // A template's quick-reply button: its payload is what the business set when it sent the template.
    const payload = id(field(message.button, 'payload'));
    if (payload !== undefined) return { kind: 'button', id: payload, title: text(field(message.button, 'text'), ID_LENGTH) ?? '' };
  }
  if (type === 'image' || type === 'document') {
    const media = message[type];
    const mediaId = id(field(media, 'id'));
    if (mediaId !== undefined) {
      const caption = text(field(media, 'caption'), TEXT_LENGTH);
      const filename = text(field(media, 'filename'), ID_LENGTH);
      return {
        kind: type,
        mediaId,
        mimeType: text(field(media, 'mime_type'), ID_LENGTH) ?? 'application/octet-stream',
        ...(caption === undefined ? {} : { caption }),
        ...(filename === undefined ? {} : { filename }),
      };
    }
  }
  return { kind: 'unsupported', type: type.slice(0, 32) };
}

/** The profile names Meta sent beside the messages, by the sender's number. */
function profileNames(value: Record<string, unknown>): Map<string, string> {
  const names = new Map<string, string>();
  for (const contact of Array.isArray(value.contacts) ? value.contacts : []) {
    const waId = text(field(contact, 'wa_id'), ID_LENGTH);
    const name = text(field(field(contact, 'profile'), 'name'), ID_LENGTH);
    if (waId !== undefined && name !== undefined && name !== '') names.set(waId, name);
  }
  return names;
}

function messageOf(message: unknown, names: Map<string, string>, now: Date): InboundChatMessage | undefined {
  if (!isRecord(message)) return undefined;
  const wamid = id(message.id);
  const from = text(message.from, ID_LENGTH);
  if (wamid === undefined || from === undefined || !PHONE.test(from)) return undefined;
  const profileName = names.get(from);
  const contextId = id(field(message.context, 'id'));
  return {
    id: wamid,
    from,
    ...(profileName === undefined ? {} : { profileName }),
    sentAt: instant(message.timestamp, now),
    ...(contextId === undefined ? {} : { contextId }),
    content: contentOf(message),
  };
}

function statusOf(status: unknown, now: Date): InboundStatus | undefined {
  if (!isRecord(status)) return undefined;
  const wamid = id(status.id);
  const phone = text(status.recipient_id, ID_LENGTH);
  const value = STATUSES.find((known) => known === status.status);
  if (wamid === undefined || phone === undefined || !PHONE.test(phone) || value === undefined) return undefined;
  const firstError: unknown = Array.isArray(status.errors) ? status.errors[0] : undefined;
  const error = text(field(firstError, 'title'), 200) ?? text(field(firstError, 'message'), 200);
  return { wamid, phone, status: value, at: instant(status.timestamp, now), ...(error === undefined || error === '' ? {} : { error }) };
}

/**
 * The messages and statuses of a Cloud API webhook (`object: whatsapp_business_account`, then
 * `entry[].changes[].value` with `messages`, `contacts` and `statuses`), in the order Meta listed
 * them. Whatever is not of these shapes (other objects and fields, parts missing an id or a number)
 * is left out, never refused: Meta would deliver it again for days.
 */
export function readWebhook(body: unknown, now: Date): WebhookContents {
  const contents: WebhookContents = { messages: [], statuses: [] };
  if (!isRecord(body) || body.object !== 'whatsapp_business_account' || !Array.isArray(body.entry)) return contents;
  for (const entry of body.entry) {
    const changes = field(entry, 'changes');
    for (const change of Array.isArray(changes) ? changes : []) {
      const value = field(change, 'value');
      if (!isRecord(value)) continue;
      const names = profileNames(value);
      for (const message of Array.isArray(value.messages) ? value.messages : []) {
        const read = messageOf(message, names, now);
        if (read) contents.messages.push(read);
      }
      for (const status of Array.isArray(value.statuses) ? value.statuses : []) {
        const read = statusOf(status, now);
        if (read) contents.statuses.push(read);
      }
    }
  }
  return contents;
}
