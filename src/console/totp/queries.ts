import type { Insertable, Selectable } from 'kysely';
import type { ConsoleTotpTable, Db } from '../../db/schema.js';

export type ConsoleTotpRow = Selectable<ConsoleTotpTable>;

export async function findTotp(db: Db, options: { userId: string; organizationId: string }): Promise<ConsoleTotpRow | undefined> {
  return db
    .selectFrom('console_totp')
    .selectAll()
    .where('user_id', '=', options.userId)
    .where('organization_id', '=', options.organizationId)
    .executeTakeFirst();
}

/** Whether the user's sign-ins ask for a TOTP code: an enrolment a first code confirmed. */
export async function hasConfirmedTotp(db: Db, userId: string): Promise<boolean> {
  const row = await db.selectFrom('console_totp').select('user_id').where('user_id', '=', userId).where('confirmed_at', 'is not', null).executeTakeFirst();
  return row !== undefined;
}

/** A new enrolment, replacing one not yet confirmed; a confirmed one stays (the caller checked there is none). */
export async function replaceUnconfirmedTotp(db: Db, row: Insertable<ConsoleTotpTable> & { user_id: string }): Promise<void> {
  await db.deleteFrom('console_totp').where('user_id', '=', row.user_id).where('confirmed_at', 'is', null).execute();
  await db.insertInto('console_totp').values(row).execute();
}

/**
 * Takes a time step once: the step must come after the last one used, so a code (or an older one
 * of the same window) opens nothing a second time, even from two requests at once.
 */
export async function useTimeStep(db: Db, options: { userId: string; step: number; confirmedAt?: string }): Promise<boolean> {
  const result = await db
    .updateTable('console_totp')
    .set({ last_step: options.step, failures: 0, ...(options.confirmedAt === undefined ? {} : { confirmed_at: options.confirmedAt }) })
    .where('user_id', '=', options.userId)
    .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', options.step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function countEnrolmentFailure(db: Db, userId: string): Promise<number> {
  await db
    .updateTable('console_totp')
    .set((eb) => ({ failures: eb('failures', '+', 1) }))
    .where('user_id', '=', userId)
    .execute();
  const row = await db.selectFrom('console_totp').select('failures').where('user_id', '=', userId).executeTakeFirst();
  return row?.failures ?? 0;
}

export async function deleteTotp(db: Db, options: { userId: string; organizationId: string }): Promise<boolean> {
  const result = await db
    .deleteFrom('console_totp')
    .where('user_id', '=', options.userId)
    .where('organization_id', '=', options.organizationId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
