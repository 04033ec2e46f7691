import type { CursorPosition } from '../db/cursor.js';
import { toCount } from '../db/database.js';
import { olderThan } from '../db/keyset.js';
import type { ConsoleAuditTable, ConsoleSessionsTable, ConsoleSignInsTable, Db, UserRole, UserRow } from '../db/schema.js';

export type ConsoleSignInRow = ConsoleSignInsTable;
export type ConsoleAuditRow = ConsoleAuditTable;

/** A user as sign-in reads it: with the organization's name. */
export type ConsoleUserRow = UserRow & { organization_name: string };

/** Users as ConsoleUserRow: each with its organization's name. */
function consoleUsers(db: Db) {
  return db
    .selectFrom('users')
    .innerJoin('organizations', 'organizations.id', 'users.organization_id')
    .selectAll('users')
    .select('organizations.name as organization_name');
}

/** The users of every organization that go by this e-mail: one sign-in e-mail each. */
export async function findUsersByEmail(db: Db, email: string): Promise<ConsoleUserRow[]> {
  return consoleUsers(db).where('users.email', '=', email).orderBy('users.organization_id').execute();
}

/** One user by id, in its organization. */
export async function findConsoleUser(db: Db, options: { userId: string; organizationId: string }): Promise<ConsoleUserRow | undefined> {
  return consoleUsers(db).where('users.id', '=', options.userId).where('users.organization_id', '=', options.organizationId).executeTakeFirst();
}

/** The organization's user going by this e-mail. */
export async function findOrganizationUser(db: Db, options: { email: string; organizationId: string }): Promise<ConsoleUserRow | undefined> {
  return consoleUsers(db).where('users.email', '=', options.email).where('users.organization_id', '=', options.organizationId).executeTakeFirst();
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
/**
 * A session by its token's hash, not ended nor expired, with its user as the user is now; `waiting`
 * says whether it is one that waits for its second factor or one open for the user.
 */
function liveSession(db: Db, options: { tokenHash: string; now: string; waiting: boolean }) {
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
        'console_sessions.factor_failures',
        'users.email',
        'users.role',
      ])
      .where('console_sessions.token_hash', '=', options.tokenHash)
      .where('console_sessions.ended_at', 'is', null)
      .where('console_sessions.pending_factor', options.waiting ? 'is not' : 'is', null)
      .where('console_sessions.expires_at', '>', options.now)
      // The user's organization, not only the session's: a user is never moved, but a row never speaks for two.
      .whereRef('users.organization_id', '=', 'console_sessions.organization_id')
  );
}

export async function findOpenSession(db: Db, options: { tokenHash: string; now: string; idleSince: string }): Promise<SessionWithUser | undefined> {
  return liveSession(db, { ...options, waiting: false })
    .where('console_sessions.last_seen_at', '>', options.idleSince)
    .executeTakeFirst();
}

/** A session that waits for its second factor, with its user as the user is now. */
export async function findPendingSession(
  db: Db,
  options: { tokenHash: string; now: string },
): Promise<(SessionWithUser & { factor_failures: number }) | undefined> {
  return liveSession(db, { ...options, waiting: true }).executeTakeFirst();
}

export async function completeSessionFactor(db: Db, options: { id: string; tokenHash: string; now: string; expiresAt: string }): Promise<void> {
  await db
    .updateTable('console_sessions')
    .set({ pending_factor: null, token_hash: options.tokenHash, last_seen_at: options.now, expires_at: options.expiresAt })
    .where('id', '=', options.id)
    .execute();
}

/** A wrong second-factor code in a waiting session; the session ends at `maxFailures`. */
/** Counts a wrong second-factor code; answers whether that ended the waiting session. */
export async function countFactorFailure(db: Db, options: { id: string; now: string; maxFailures: number }): Promise<boolean> {
  const row = await db
    .updateTable('console_sessions')
    .set((eb) => ({
      factor_failures: eb('factor_failures', '+', 1),
      ended_at: eb
        .case()
        .when('factor_failures', '>=', options.maxFailures - 1)
        .then(options.now)
        .else(eb.ref('ended_at'))
        .end(),
    }))
    .where('id', '=', options.id)
    .returning('ended_at')
    .executeTakeFirst();
  return row?.ended_at != null;
}

export async function touchSession(db: Db, id: string, now: string): Promise<void> {
  await db.updateTable('console_sessions').set({ last_seen_at: now }).where('id', '=', id).execute();
}

export async function endSession(db: Db, id: string, now: string): Promise<void> {
  await db.updateTable('console_sessions').set({ ended_at: now }).where('id', '=', id).where('ended_at', 'is', null).execute();
}

export async function insertAudit(db: Db, rows: ConsoleAuditRow | readonly ConsoleAuditRow[]): Promise<void> {
  await db.insertInto('console_audit').values(rows).execute();
}

/** The organization's audit log, newest first, page by page. */
export async function listAudit(db: Db, organizationId: string, options: { limit: number; after?: CursorPosition }): Promise<ConsoleAuditRow[]> {
  let query = db.selectFrom('console_audit').selectAll().where('organization_id', '=', organizationId);
  if (options.after) query = query.where(olderThan(options.after));
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(options.limit).execute();
}

/** The console language a user chose, null for the organization's; answers whether the user is the organization's. */
export async function setUserLanguage(db: Db, options: { userId: string; organizationId: string; language: string | null }): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ language: options.language })
    .where('id', '=', options.userId)
    .where('organization_id', '=', options.organizationId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
