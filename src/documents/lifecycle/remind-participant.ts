import type { ServiceContext } from '../../context.js';
import type { Db } from '../../db/database.js';
import type { ParticipantRow, ProcessRow } from '../../db/schema.js';
import { type Alongside, withTransaction } from '../../db/transaction.js';
import { fail, failFor } from '../../domain-error.js';
import { notifyParticipants } from '../notify-participants.js';
import { lockProcess } from '../participant/signer-queries.js';
import { findProcessByCode, lastInvitedAt, listDocuments, listParticipants } from '../queries.js';
import { PROCESS_CODE_LENGTH } from '../schemas.js';

/**
 * A participant hears from the service at most once an hour: a reminder asked within an hour of
 * their invitation or of their last reminder (by hand or automatic) is refused, so that a loop in
 * an integration cannot flood a person's inbox or chat.
 */
const REMINDER_INTERVAL_MS = 60 * 60 * 1000;

/** Why this participant cannot be reminded now, checked in the order a person would ask. */
async function refuseReminder(db: Db, process: ProcessRow, participant: ParticipantRow, now: Date): Promise<void> {
  if (process.status !== 'CREATED') throw fail('DOCUMENT_NOT_IN_SIGNATURE', process.status);
  if (process.expires_at !== null && process.expires_at <= now.toISOString()) throw fail('DOCUMENT_EXPIRED');
  if (participant.status === 'FINISH' || participant.status === 'REJECT') throw fail('PARTICIPANT_ALREADY_DONE');
  if (participant.status === 'BLOCK') throw fail('PARTICIPANT_BLOCKED');
  if (participant.status === 'PENDING') {
    if ((await listDocuments(db, process.id)).some((d) => d.file_ready === 0)) throw fail('DOCUMENT_AWAITING_UPLOAD');
    throw fail('NOT_YOUR_TURN');
  }
  if (participant.notification !== 1) throw fail('PARTICIPANT_NOT_NOTIFIED');
}

/**
 * The manual reminder (docs/real-service.md §3.7 and §4.3): `code` is the process code followed by
 * the participant's id. The participant, whose turn it is and who has not acted, receives their
 * invitation again, as a reminder, through the channels they were invited by (e-mail, WhatsApp or
 * both), recorded as REMINDER_SIGN; in one transaction, under the process's lock, so that two
 * reminders at once send one.
 */
export async function remindParticipant(ctx: ServiceContext, options: { organizationId: string; code: string; alongside?: Alongside }): Promise<void> {
  const { organizationId, code } = options;
  if (code.length === PROCESS_CODE_LENGTH) throw fail('MISSING_SIGNER_ID');
  const found = await findProcessByCode(ctx.db, organizationId, code.slice(0, PROCESS_CODE_LENGTH));
  if (!found) throw fail('DOCUMENT_NOT_FOUND', { when: 'elsewhere' });
  const participantId = code.slice(PROCESS_CODE_LENGTH);
  await withTransaction(ctx, async (trx) => {
    const process = await lockProcess(trx, ctx.dialect, found.id);
    const participant = (await listParticipants(trx, found.id)).find((p) => p.participant_id === participantId);
    if (!process || !participant) throw fail('SIGNER_NOT_FOUND');
    const now = ctx.clock.now();
    await refuseReminder(trx, process, participant, now);
    const last = await lastInvitedAt(trx, process.id, participant.participant_id);
    const waitMs = last === undefined ? 0 : Date.parse(last) + REMINDER_INTERVAL_MS - now.getTime();
    if (waitMs > 0) {
      const seconds = Math.ceil(waitMs / 1000);
      throw failFor('REMINDER_TOO_SOON', seconds, `try again in ${seconds} s`);
    }
    await notifyParticipants(trx, ctx, { process, participants: [participant], occasion: 'reminder' });
    await options.alongside?.(trx);
  });
}
