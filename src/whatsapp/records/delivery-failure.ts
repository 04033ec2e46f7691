import type { Clock } from '../../clock.js';
import type { Db } from '../../db/database.js';
import type { WhatsAppMessageRow, WhatsAppStatus } from '../../db/schema.js';
import { recordProcessEvent } from '../../documents/process-events.js';
import { findProcessById, listParticipants } from '../../documents/queries.js';
import { advanceMessageStatus } from './queries.js';

/** Every status a message sent can fail from: `failed` is the last word on it. */
const BEFORE_FAILED: readonly WhatsAppStatus[] = ['queued', 'sent', 'delivered', 'read'];

const ERROR_LENGTH = 200;

/**
 * A message sent that will never reach the person: Meta reported it failed, or refused it for good.
 * A failed invitation or reminder is written in the process's roadmap (NOTIFICATION_FAILED_SIGN) and
 * sent by webhook as the roadmap's events are, so the integrator knows the person never got it.
 * Answers false when the message had already failed (told once).
 */
export async function recordDeliveryFailure(db: Db, clock: Clock, options: { message: WhatsAppMessageRow; reason: string; at: string }): Promise<boolean> {
  const { message, at } = options;
  const reason = options.reason.replace(/\s+/g, ' ').trim().slice(0, ERROR_LENGTH);
  if (!(await advanceMessageStatus(db, { id: message.id, status: 'failed', from: BEFORE_FAILED, at, error: reason }))) return false;
  if (message.purpose !== 'invitation' && message.purpose !== 'reminder') return true;
  if (message.process_id === null || message.participant_id === null) return true;
  const process = await findProcessById(db, message.process_id);
  if (!process || process.organization_id !== message.organization_id) return true;
  const participant = (await listParticipants(db, process.id)).find((p) => p.id === message.participant_id);
  if (!participant) return true;
  await recordProcessEvent(db, clock, {
    process,
    action: 'NOTIFICATION_FAILED_SIGN',
    participant,
    platform: 'WHATSAPP',
    message: reason,
    detail: { notification: message.purpose },
  });
  return true;
}
