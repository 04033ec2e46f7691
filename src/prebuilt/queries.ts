import type { Db } from '../db/database.js';
import type { PrebuiltProcessRow } from '../db/schema.js';

export async function insertPrebuilt(db: Db, row: PrebuiltProcessRow): Promise<void> {
  await db.insertInto('prebuilt_processes').values(row).execute();
}

export async function findPrebuiltByCode(db: Db, organizationId: string, code: string): Promise<PrebuiltProcessRow | undefined> {
  return db.selectFrom('prebuilt_processes').selectAll().where('organization_id', '=', organizationId).where('code', '=', code).executeTakeFirst();
}

export async function findPrebuilt(db: Db, organizationId: string, id: string): Promise<PrebuiltProcessRow | undefined> {
  return db.selectFrom('prebuilt_processes').selectAll().where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
}

/** The prebuilt process a form's token opens, of whichever organization: the token is the whole secret. */
export async function findPrebuiltByToken(db: Db, token: string): Promise<PrebuiltProcessRow | undefined> {
  return db.selectFrom('prebuilt_processes').selectAll().where('link_token', '=', token).executeTakeFirst();
}

/** Whether a process, or another prebuilt one, already has the code: codes name one process in the whole service. */
export async function codeTaken(db: Db, code: string): Promise<boolean> {
  const process = await db.selectFrom('processes').select('id').where('code', '=', code).executeTakeFirst();
  if (process) return true;
  return (await db.selectFrom('prebuilt_processes').select('id').where('code', '=', code).executeTakeFirst()) !== undefined;
}

/** Marks it completed by this submission if it still waits; answers whether it did (a completion that lost a race did not). */
export async function markCompleted(db: Db, options: { id: string; key: string; now: string }): Promise<boolean> {
  const result = await db
    .updateTable('prebuilt_processes')
    .set({ status: 'COMPLETED', completion_key: options.key, completed_at: options.now, updated_at: options.now })
    .where('id', '=', options.id)
    .where('status', '=', 'PENDING')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
