import { isRecord } from '../is-record.js';
import type { ChatPayload, EmailAttachment, EmailPayload, SmsPayload, WhatsAppAbout, WhatsAppPayload } from '../outbox/types.js';
import { type ChatPurpose, MAX_BUTTON_TITLE, MAX_BUTTONS, type OutgoingChatContent } from '../whatsapp/message/chat-message.js';

/*
 * Payloads come back from the database as parsed JSON. They are checked before use: a malformed one
 * fails at once instead of being retried for a day.
 */

const isOptionalString = (value: unknown) => value === undefined || typeof value === 'string';

export function isEmailPayload(value: unknown): value is EmailPayload {
  return (
    isRecord(value) &&
    typeof value.to === 'string' &&
    typeof value.subject === 'string' &&
    typeof value.text === 'string' &&
    isOptionalString(value.html) &&
    isOptionalString(value.template) &&
    (value.attachments === undefined || (Array.isArray(value.attachments) && value.attachments.every(isEmailAttachment)))
  );
}

function isEmailAttachment(value: unknown): value is EmailAttachment {
  return isRecord(value) && typeof value.filename === 'string' && typeof value.key === 'string' && value.contentType === 'application/pdf';
}

function isWhatsAppTemplate(value: unknown): value is WhatsAppPayload['template'] {
  if (value === undefined) return true;
  return (
    isRecord(value) &&
    typeof value.name === 'string' &&
    typeof value.language === 'string' &&
    Array.isArray(value.parameters) &&
    value.parameters.every((parameter) => typeof parameter === 'string')
  );
}

const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');

function isButton(value: unknown): boolean {
  return isRecord(value) && typeof value.id === 'string' && value.id !== '' && typeof value.title === 'string' && value.title.length <= MAX_BUTTON_TITLE;
}

/** A message of the conversation as Meta would take it: 1–3 buttons with short titles, a document by blob key. */
function isChatContent(value: unknown): value is OutgoingChatContent {
  if (!isRecord(value)) return false;
  switch (value.kind) {
    case 'text':
      return typeof value.text === 'string' && value.text !== '';
    case 'buttons':
      return (
        typeof value.text === 'string' &&
        value.text !== '' &&
        Array.isArray(value.buttons) &&
        value.buttons.length >= 1 &&
        value.buttons.length <= MAX_BUTTONS &&
        value.buttons.every(isButton)
      );
    case 'document':
      return typeof value.blobKey === 'string' && typeof value.filename === 'string' && typeof value.mimeType === 'string' && isOptionalString(value.caption);
    case 'template':
      return (
        typeof value.name === 'string' &&
        typeof value.language === 'string' &&
        isStringList(value.parameters) &&
        (value.quickReplies === undefined || isStringList(value.quickReplies))
      );
    default:
      return false;
  }
}

const CHAT_PURPOSES: readonly ChatPurpose[] = ['invitation', 'reminder', 'code', 'step', 'document', 'outcome', 'help'];
const ABOUT_PURPOSES: readonly WhatsAppAbout['purpose'][] = ['invitation', 'reminder', 'code', 'link'];

const hasOptionalIds = (value: Record<string, unknown>) =>
  isOptionalString(value.processId) && isOptionalString(value.participantId) && isOptionalString(value.verifaceId);

function isChatPayload(value: unknown): value is ChatPayload | undefined {
  if (value === undefined) return true;
  return isRecord(value) && isChatContent(value.content) && CHAT_PURPOSES.some((purpose) => purpose === value.purpose) && hasOptionalIds(value);
}

function isAbout(value: unknown): value is WhatsAppAbout | undefined {
  if (value === undefined) return true;
  return isRecord(value) && ABOUT_PURPOSES.some((purpose) => purpose === value.purpose) && hasOptionalIds(value);
}

export function isWhatsAppPayload(value: unknown): value is WhatsAppPayload {
  return (
    isRecord(value) &&
    typeof value.to === 'string' &&
    isOptionalString(value.text) &&
    isWhatsAppTemplate(value.template) &&
    isChatPayload(value.chat) &&
    isAbout(value.about)
  );
}

export function isSmsPayload(value: unknown): value is SmsPayload {
  return isRecord(value) && typeof value.to === 'string' && typeof value.text === 'string';
}
