import type { Db } from '../../db/database.js';
import { type NotifyContext, notifyParticipants } from '../notify-participants.js';
import { findDueProcesses, listParticipants, setNextReminder } from '../queries.js';
import { closeProcess } from './close-process.js';

const BATCH = 100;

/** When the next reminder of a process that reminds every `hours` hours is due, counted from `now`. */
export function nextReminderAt(now: Date, hours: number): string {
  return new Date(now.getTime() + hours * 3_600_000).toISOString();
}

export type SweepContext = NotifyContext & { db: Db };

/**
 * The expiry sweep: every process still in signature whose expiry date has passed becomes EXPIRED,
 * with its audit line and webhook, each in its own transaction. Answers how many expired.
 */
export async function expireDueProcesses(ctx: SweepContext): Promise<number> {
  let expired = 0;
  for (;;) {
    const due = await findDueProcesses(ctx.db, 'expires_at', ctx.clock.now().toISOString(), BATCH);
    for (const process of due) {
      if (await ctx.db.transaction().execute((trx) => closeProcess(trx, ctx.clock, { process, to: 'EXPIRED' }))) expired++;
    }
    if (due.length < BATCH) return expired;
  }
}

/**
 * The reminder sweep: for each process in signature whose reminder is due, every participant whose
 * turn it is and who has not acted is reminded, and the next reminder is set `remember` hours on.
 * Answers how many participants were reminded.
 */
export async function remindDueParticipants(ctx: SweepContext): Promise<number> {
  let reminded = 0;
  for (;;) {
    const now = ctx.clock.now();
    const due = await findDueProcesses(ctx.db, 'next_reminder_at', now.toISOString(), BATCH);
    for (const process of due) {
      const hours = process.remind_every_hours;
      reminded += await ctx.db.transaction().execute(async (trx) => {
        await setNextReminder(trx, process.id, hours === null ? null : nextReminderAt(now, hours));
        return (await notifyParticipants(trx, ctx, { process, participants: await listParticipants(trx, process.id), occasion: 'reminder' })).length;
      });
    }
    if (due.length < BATCH) return reminded;
  }
}
