import type { Db } from '../../db/database.js';
import type { WhatsAppMessageRow } from '../../db/schema.js';
import type { WhatsAppPayload } from '../../outbox/types.js';
import { phoneDigits } from '../message/phone.js';
import { insertMessageRecords } from './queries.js';

/** What kind of message the payload is, as its record says: the conversation's kinds, or a template or text. */
function kindOf(payload: WhatsAppPayload): string {
  if (payload.chat) return payload.chat.content.kind;
  return payload.template ? 'template' : 'text';
}

/**
 * The records of WhatsApp messages being queued, written in the same transaction as their outbox
 * rows and under the same ids, so the sender finds a message's record by the outbox id. Only what the
 * message is and why: never its text, so never a code's digits.
 */
export async function recordQueuedWhatsApp(
  db: Db,
  queued: { id: string; organizationId: string | null; payload: WhatsAppPayload; at: string }[],
): Promise<void> {
  const rows = queued.map(({ id, organizationId, payload, at }): WhatsAppMessageRow => {
    const about = payload.chat ?? payload.about;
    return {
      id,
      organization_id: organizationId,
      process_id: about?.processId ?? null,
      participant_id: about?.participantId ?? null,
      veriface_id: about?.verifaceId ?? null,
      phone: phoneDigits(payload.to),
      direction: 'out',
      kind: kindOf(payload),
      purpose: about?.purpose ?? null,
      wamid: null,
      status: 'queued',
      status_at: at,
      error: null,
      content: null,
      attempts: 0,
      retry_after: null,
      created_at: at,
    };
  });
  await insertMessageRecords(db, rows);
}
