import type { Db } from '../../db/database.js';
import type { FillSessionRow } from '../../db/schema.js';

export async function insertFillSession(db: Db, row: FillSessionRow): Promise<void> {
  await db.insertInto('fill_sessions').values(row).execute();
}

/** Sessions that can no longer be used, of one organization: deleted as it opens new ones. */
export async function deleteExpiredFillSessions(db: Db, organizationId: string, now: string): Promise<void> {
  await db.deleteFrom('fill_sessions').where('organization_id', '=', organizationId).where('expires_at', '<=', now).execute();
}

export async function findFillSession(db: Db, tokenHash: string): Promise<FillSessionRow | undefined> {
  return db.selectFrom('fill_sessions').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Records the process the session made, if it made none yet; answers whether it did (a second submission that lost a race did not). */
export async function markFillSessionUsed(db: Db, options: { tokenHash: string; idempotencyKey: string; processCode: string; at: string }): Promise<boolean> {
  const result = await db
    .updateTable('fill_sessions')
    .set({ idempotency_key: options.idempotencyKey, process_code: options.processCode, used_at: options.at })
    .where('token_hash', '=', options.tokenHash)
    .where('process_code', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * The processes the SDK's fill flow made of the organization's templates by themselves (without a
 * reference link, whose uses count them, and without a prebuilt process, which the integrator
 * made) since `since`, and the earliest of their times.
 */
export async function countTemplateFillsSince(db: Db, organizationId: string, since: string): Promise<{ count: number; earliest: string | null }> {
  const row = await db
    .selectFrom('fill_sessions')
    .select((eb) => [eb.fn.countAll<string | number>().as('count'), eb.fn.min('used_at').as('earliest')])
    .where('organization_id', '=', organizationId)
    .where('used_at', '>=', since)
    .where('reference_link_id', 'is', null)
    .where('prebuilt_id', 'is', null)
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), earliest: row.earliest };
}
