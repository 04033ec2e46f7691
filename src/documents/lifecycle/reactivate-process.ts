import type { ServiceContext } from '../../context.js';
import type { Db } from '../../db/database.js';
import type { ParticipantRow, ProcessRow } from '../../db/schema.js';
import { type Alongside, withTransaction } from '../../db/transaction.js';
import { fail } from '../../domain-error.js';
import { normalizeEmail } from '../../organizations/organizations.js';
import { findUserByEmail } from '../../organizations/queries.js';
import { restartParticipantChat } from '../../whatsapp/conversation/chat-queries.js';
import { notifyParticipants } from '../notify-participants.js';
import { lockProcess } from '../participant/signer-queries.js';
import { recordProcessEvent } from '../process-events.js';
import { findProcessByCode, listParticipants, type ParticipantPatch, reopenProcess, updateParticipant } from '../queries.js';
import type { ReactivateInput } from '../schemas.js';
import { nextReminderAt } from './process-sweeps.js';

export interface ReactivateResult {
  /** How many participants were invited again, and their names. */
  notifications: number;
  users: string[];
}

/**
 * The expiry of a process put back in signature. One still ahead stays; one that has passed gets
 * the lifetime the process was created with (its expiredDate less its creation), counted from now:
 * creation takes the expiry the integrator chose, so the new one is as far off as that one was.
 */
function renewedExpiry(process: Pick<ProcessRow, 'expires_at' | 'created_at'>, now: Date): string | null {
  if (process.expires_at === null || process.expires_at > now.toISOString()) return process.expires_at;
  const lifetime = Date.parse(process.expires_at) - Date.parse(process.created_at);
  return new Date(now.getTime() + lifetime).toISOString();
}

/**
 * Gives each participant who rejected a fresh chance, and answers everyone now to be invited: those
 * of the current turn (the lowest order among those who have not finished) who had not acted or had
 * rejected. A participant who rejected is back where the process left them, with their identity
 * attempts counted from zero; their rejection stays in the audit trail. Blocked participants stay
 * blocked (POST /document/unlock decides them).
 */
async function reopenParticipants(db: Db, participants: ParticipantRow[], now: string): Promise<ParticipantRow[]> {
  const open = participants.filter((p) => p.status !== 'FINISH');
  const turn = Math.min(...open.map((p) => p.sign_order));
  const invited: ParticipantRow[] = [];
  for (const participant of open) {
    if (participant.status === 'BLOCK') continue;
    const status = participant.sign_order === turn ? 'NOTIFICATION' : 'PENDING';
    const patch: ParticipantPatch =
      participant.status === 'REJECT'
        ? { status, rejected_at: null, reject_reason: null, block_reason: null, otp_failures: 0, camera_failures: 0, camera_last_failure: null }
        : { status };
    if (participant.status !== status && !(await updateParticipant(db, participant.id, { ...patch, updated_at: now }, [participant.status]))) continue;
    if (status === 'NOTIFICATION') invited.push({ ...participant, ...patch, updated_at: now });
  }
  return invited;
}

/**
 * Puts a rejected or expired process (a document or a package) back in signature
 * (docs/real-service.md §3.8), asked by a registered user of the organization: a passed expiry is
 * renewed, the participants who rejected get a fresh chance, and everyone of the current turn who
 * has not acted is invited again through their channels (a WhatsApp conversation starts again from
 * the invitation). One transaction: the state, the REACTIVATION_SIGN line with who asked, its
 * webhook, and the invitations.
 */
export async function reactivateProcess(
  ctx: ServiceContext,
  options: { organizationId: string; input: ReactivateInput; alongside?: Alongside },
): Promise<ReactivateResult> {
  const { organizationId, input } = options;
  const actor = normalizeEmail(input.email);
  if (!(await findUserByEmail(ctx.db, organizationId, actor))) throw fail('USER_NOTFOUND');
  const found = await findProcessByCode(ctx.db, organizationId, input.code ?? input.package ?? '');
  if (!found) throw fail('PROCESS_NOT_FOUND');
  return withTransaction(ctx, async (trx) => {
    const process = await lockProcess(trx, ctx.dialect, found.id);
    if (!process) throw fail('PROCESS_NOT_FOUND');
    const from = process.status;
    if (from !== 'REJECTED' && from !== 'EXPIRED') throw fail('PROCESS_NOT_REACTIVABLE', `it is ${from}`);
    // The evidence of those who signed went with the photos: a process without it cannot be sealed as it should.
    if (process.photos_deleted_at !== null) throw fail('PROCESS_NOT_REACTIVABLE', 'its identity photos were deleted');
    const now = ctx.clock.now();
    const at = now.toISOString();
    const expiresAt = renewedExpiry(process, now);
    const reminderAt = process.remind_every_hours === null ? null : nextReminderAt(now, process.remind_every_hours);
    if (!(await reopenProcess(trx, process.id, { from, at, expiresAt, nextReminderAt: reminderAt })))
      throw fail('PROCESS_NOT_REACTIVABLE', 'it changed meanwhile');
    const reopened: ProcessRow = {
      ...process,
      status: 'CREATED',
      updated_at: at,
      end_reason: null,
      ended_by: null,
      expires_at: expiresAt,
      next_reminder_at: reminderAt,
    };
    await recordProcessEvent(trx, ctx.clock, {
      process: reopened,
      action: 'REACTIVATION_SIGN',
      actor,
      platform: 'API',
      detail: { from, ...(expiresAt !== null && expiresAt !== process.expires_at ? { expiredDate: expiresAt } : {}) },
    });
    const invited = await reopenParticipants(trx, await listParticipants(trx, process.id), at);
    for (const participant of invited) await restartParticipantChat(trx, participant.id, at);
    const notified = await notifyParticipants(trx, ctx, { process: reopened, participants: invited, occasion: 'invitation' });
    await options.alongside?.(trx);
    return { notifications: notified.length, users: notified.map((p) => p.name) };
  });
}
