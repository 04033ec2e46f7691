import { isRecord } from '../is-record.js';
import type { EmailPayload, SmsPayload, WhatsAppPayload } from '../outbox/types.js';

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
    isOptionalString(value.template)
  );
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

export function isWhatsAppPayload(value: unknown): value is WhatsAppPayload {
  return isRecord(value) && typeof value.to === 'string' && isOptionalString(value.text) && isWhatsAppTemplate(value.template);
}

export function isSmsPayload(value: unknown): value is SmsPayload {
  return isRecord(value) && typeof value.to === 'string' && typeof value.text === 'string';
}
