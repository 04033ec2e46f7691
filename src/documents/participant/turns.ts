import type { Db } from '../../db/database.js';
import type { ParticipantRow, ProcessRow } from '../../db/schema.js';
import { nextReminderAt } from '../lifecycle/process-sweeps.js';
import { type NotifyContext, notifyParticipants } from '../notify-participants.js';
import { listParticipants, setNextReminder, updateParticipant } from '../queries.js';

/**
 * Participants act by turns: the lowest `order` first, equal orders together. When nobody of the
 * current turn is left to act (notified or blocked), the next turn's participants are invited, in
 * the caller's transaction. Answers the participants invited.
 */
export async function startNextTurn(db: Db, ctx: NotifyContext, process: ProcessRow): Promise<ParticipantRow[]> {
  const participants = await listParticipants(db, process.id);
  if (participants.some((p) => p.status === 'NOTIFICATION' || p.status === 'BLOCK')) return [];
  const pending = participants.filter((p) => p.status === 'PENDING');
  if (pending.length === 0) return [];
  const turn = Math.min(...pending.map((p) => p.sign_order));
  const now = ctx.clock.now();
  const invited: ParticipantRow[] = [];
  for (const participant of pending.filter((p) => p.sign_order === turn)) {
    const updated = { ...participant, status: 'NOTIFICATION' as const, updated_at: now.toISOString() };
    if (await updateParticipant(db, participant.id, { status: updated.status, updated_at: updated.updated_at }, ['PENDING'])) invited.push(updated);
  }
  if (process.remind_every_hours !== null && process.next_reminder_at === null) {
    await setNextReminder(db, process.id, nextReminderAt(now, process.remind_every_hours));
  }
  await notifyParticipants(db, ctx, { process, participants: invited, occasion: 'invitation' });
  return invited;
}
