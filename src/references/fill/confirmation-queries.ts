import type { Db } from '../../db/database.js';
import type { FormConfirmationRow } from '../../db/schema.js';

export async function insertFormConfirmation(db: Db, row: Omit<FormConfirmationRow, 'failures' | 'resends'>): Promise<void> {
  await db.insertInto('form_confirmations').values(row).execute();
}

export async function findFormConfirmation(db: Db, organizationId: string, processId: string): Promise<FormConfirmationRow | undefined> {
  return db.selectFrom('form_confirmations').selectAll().where('process_id', '=', processId).where('organization_id', '=', organizationId).executeTakeFirst();
}

/** Marks it confirmed if it still can be (in time, attempts left, not yet); answers whether this call did. */
export async function markFormConfirmed(db: Db, options: { processId: string; codeHash: string; maxFailures: number; now: string }): Promise<boolean> {
  const result = await db
    .updateTable('form_confirmations')
    .set({ confirmed_at: options.now })
    .where('process_id', '=', options.processId)
    .where('code_hash', '=', options.codeHash)
    .where('confirmed_at', 'is', null)
    .where('expires_at', '>', options.now)
    .where('failures', '<', options.maxFailures)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Counts a wrong code while attempts are left; answers the failures with it in, or undefined when none was left. */
export async function countFormConfirmationFailure(db: Db, options: { processId: string; maxFailures: number }): Promise<number | undefined> {
  const row = await db
    .updateTable('form_confirmations')
    .set((eb) => ({ failures: eb('failures', '+', 1) }))
    .where('process_id', '=', options.processId)
    .where('confirmed_at', 'is', null)
    .where('failures', '<', options.maxFailures)
    .returning('failures')
    .executeTakeFirst();
  return row?.failures;
}

/** A confirmed form's process loses the expiry that held it: forms' processes have none of their own. */
export async function clearHoldExpiry(db: Db, processId: string): Promise<void> {
  await db.updateTable('processes').set({ expires_at: null }).where('id', '=', processId).execute();
}

/**
 * Replaces the code with a new one if a new one may be sent now (still awaited, in time, attempts
 * and resends left, the last sent before `sentBefore`); answers whether this call replaced it.
 */
export async function replaceFormCode(
  db: Db,
  options: { processId: string; codeHash: string; now: string; sentBefore: string; maxFailures: number; maxResends: number },
): Promise<boolean> {
  const result = await db
    .updateTable('form_confirmations')
    .set((eb) => ({ code_hash: options.codeHash, sent_at: options.now, resends: eb('resends', '+', 1) }))
    .where('process_id', '=', options.processId)
    .where('confirmed_at', 'is', null)
    .where('expires_at', '>', options.now)
    .where('failures', '<', options.maxFailures)
    .where('resends', '<', options.maxResends)
    .where('sent_at', '<=', options.sentBefore)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
