import { toCount } from '../db/database.js';
import { olderThan } from '../db/keyset.js';
import type { ConsoleAuditTable, ConsoleSessionsTable, ConsoleSignInsTable, Db, UserRole, UserRow } from '../db/schema.js';
import type { CursorPosition } from '../http/cursor.js';

export type ConsoleSignInRow = ConsoleSignInsTable;
export type ConsoleAuditRow = ConsoleAuditTable;

/** The users of every organization that go by this e-mail: one sign-in e-mail each. */
export async function findUsersByEmail(db: Db, email: string): Promise<(UserRow & { organization_name: string })[]> {
  return db
    .selectFrom('users')
    .innerJoin('organizations', 'organizations.id', 'users.organization_id')
    .selectAll('users')
    .select('organizations.name as organization_name')
    .where('users.email', '=', email)
    .orderBy('users.organization_id')
    .execute();
}

export async function countSignInsSince(db: Db, email: string, since: string): Promise<number> {
  const row = await db
    .selectFrom('console_sign_ins')
    .select((eb) => eb.fn.countAll<string | number>().as('count'))
    .where('email', '=', email)
    .where('created_at', '>', since)
    .executeTakeFirst();
  return toCount(row?.count);
}

export async function insertSignIn(db: Db, row: ConsoleSignInRow): Promise<void> {
  await db.insertInto('console_sign_ins').values(row).execute();
}

export async function findSignInByToken(db: Db, tokenHash: string): Promise<ConsoleSignInRow | undefined> {
  return db.selectFrom('console_sign_ins').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** The e-mail's sign-ins that may still open a session: unused, unexpired, not worn out by wrong codes. */
export async function findOpenSignIns(db: Db, options: { email: string; now: string; maxFailures: number }): Promise<ConsoleSignInRow[]> {
  return db
    .selectFrom('console_sign_ins')
    .selectAll()
    .where('email', '=', options.email)
    .where('used_at', 'is', null)
    .where('expires_at', '>', options.now)
    .where('failures', '<', options.maxFailures)
    .execute();
}

/** Uses a sign-in once: false when it was used, expired or worn out meanwhile. */
export async function useSignIn(db: Db, options: { id: string; now: string; maxFailures: number }): Promise<boolean> {
  const result = await db
    .updateTable('console_sign_ins')
    .set({ used_at: options.now })
    .where('id', '=', options.id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', options.now)
    .where('failures', '<', options.maxFailures)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function countCodeFailure(db: Db, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('console_sign_ins')
    .set((eb) => ({ failures: eb('failures', '+', 1) }))
    .where('id', 'in', ids)
    .execute();
}

export async function insertSession(db: Db, row: ConsoleSessionsTable): Promise<void> {
  await db.insertInto('console_sessions').values(row).execute();
}

export interface SessionWithUser {
  id: string;
  user_id: string;
  organization_id: string;
  last_seen_at: string;
  expires_at: string;
  email: string;
  role: UserRole;
}

/** An open session by its token's hash, with its user as the user is now (a changed role holds at once). */
export async function findOpenSession(db: Db, options: { tokenHash: string; now: string; idleSince: string }): Promise<SessionWithUser | undefined> {
  return (
    db
      .selectFrom('console_sessions')
      .innerJoin('users', 'users.id', 'console_sessions.user_id')
      .select([
        'console_sessions.id',
        'console_sessions.user_id',
        'console_sessions.organization_id',
        'console_sessions.last_seen_at',
        'console_sessions.expires_at',
        'users.email',
        'users.role',
      ])
      .where('console_sessions.token_hash', '=', options.tokenHash)
      .where('console_sessions.ended_at', 'is', null)
      .where('console_sessions.expires_at', '>', options.now)
      .where('console_sessions.last_seen_at', '>', options.idleSince)
      // The user's organization, not only the session's: a user is never moved, but a row never speaks for two.
      .whereRef('users.organization_id', '=', 'console_sessions.organization_id')
      .executeTakeFirst()
  );
}

export async function touchSession(db: Db, id: string, now: string): Promise<void> {
  await db.updateTable('console_sessions').set({ last_seen_at: now }).where('id', '=', id).execute();
}

export async function endSession(db: Db, id: string, now: string): Promise<void> {
  await db.updateTable('console_sessions').set({ ended_at: now }).where('id', '=', id).where('ended_at', 'is', null).execute();
}

export async function insertAudit(db: Db, row: ConsoleAuditRow): Promise<void> {
  await db.insertInto('console_audit').values(row).execute();
}

/** The organization's audit log, newest first, page by page. */
export async function listAudit(db: Db, organizationId: string, options: { limit: number; after?: CursorPosition }): Promise<ConsoleAuditRow[]> {
  let query = db.selectFrom('console_audit').selectAll().where('organization_id', '=', organizationId);
  if (options.after) query = query.where(olderThan(options.after));
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(options.limit).execute();
}
