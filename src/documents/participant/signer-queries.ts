import type { Db, Dialect } from '../../db/database.js';
import type { ParticipantRow, ProcessRow } from '../../db/schema.js';

/**
 * Queries of the signer's page that src/documents/queries.ts does not have. Every change is
 * conditional on the participant still being the one whose turn it is, so of two concurrent calls
 * only one can take effect.
 */

/**
 * Reads a process for a change of its participants. On PostgreSQL the row stays locked until the
 * transaction ends, so changes to one process's participants (and its closing) happen one after
 * the other; SQLite runs one writing transaction at a time anyway.
 */
export async function lockProcess(db: Db, dialect: Dialect, id: string): Promise<ProcessRow | undefined> {
  const query = db.selectFrom('processes').selectAll().where('id', '=', id);
  return (dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
}

export async function findParticipantById(db: Db, id: string): Promise<ParticipantRow | undefined> {
  return db.selectFrom('participants').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The first opening only; answers whether this call was it. */
export async function markOpened(db: Db, id: string, at: string): Promise<boolean> {
  const result = await db
    .updateTable('participants')
    .set({ opened_at: at, updated_at: at })
    .where('id', '=', id)
    .where('status', '=', 'NOTIFICATION')
    .where('opened_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Stores a new one-time code's hash unless one was sent after `sentBefore`; answers whether it did,
 * so two requests at the same moment send one code.
 */
export async function storeOtp(db: Db, id: string, otp: { hash: string; expiresAt: string; sentAt: string; sentBefore: string }): Promise<boolean> {
  const result = await db
    .updateTable('participants')
    .set({ otp_hash: otp.hash, otp_expires_at: otp.expiresAt, otp_sent_at: otp.sentAt, updated_at: otp.sentAt })
    .where('id', '=', id)
    .where('status', '=', 'NOTIFICATION')
    .where((eb) => eb.or([eb('otp_sent_at', 'is', null), eb('otp_sent_at', '<=', otp.sentBefore)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Marks the code verified and forgets it, only if it is still the stored one: a code works once. */
export async function consumeOtp(db: Db, id: string, hash: string, at: string): Promise<boolean> {
  const result = await db
    .updateTable('participants')
    .set({ otp_hash: null, otp_expires_at: null, otp_verified_at: at, updated_at: at })
    .where('id', '=', id)
    .where('status', '=', 'NOTIFICATION')
    .where('otp_hash', '=', hash)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Counts one more failure in the database itself (never a value read earlier), and answers the
 * new count, or undefined when the participant is no longer acting.
 */
export async function countFailure(db: Db, id: string, column: 'otp_failures' | 'camera_failures', at: string): Promise<number | undefined> {
  const result = await db
    .updateTable('participants')
    .set((eb) => ({ [column]: eb(column, '+', 1), updated_at: at }))
    .where('id', '=', id)
    .where('status', '=', 'NOTIFICATION')
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return undefined;
  const row = await db.selectFrom('participants').select(column).where('id', '=', id).executeTakeFirst();
  return row === undefined ? undefined : Number(row[column]);
}

/** Every participant of the process has finished (signed or approved). */
export async function everyoneFinished(db: Db, processId: string): Promise<boolean> {
  const open = await db.selectFrom('participants').select('id').where('process_id', '=', processId).where('status', '!=', 'FINISH').limit(1).executeTakeFirst();
  return open === undefined;
}

/** The documents (0-based positions) a participant opened on their page, from the audit trail's DOCUMENT_OPENED lines. */
export async function documentsOpened(db: Db, processId: string, participantId: string): Promise<number[]> {
  const rows = await db
    .selectFrom('process_events')
    .select('detail')
    .where('process_id', '=', processId)
    .where('participant_id', '=', participantId)
    .where('action', '=', 'DOCUMENT_OPENED')
    .execute();
  const positions = rows.map((row) => openedPosition(row.detail)).filter((position) => position !== undefined);
  return [...new Set(positions)].sort((a, b) => a - b);
}

function openedPosition(detail: string | null): number | undefined {
  if (detail === null) return undefined;
  const parsed: unknown = JSON.parse(detail);
  if (typeof parsed !== 'object' || parsed === null || !('document' in parsed)) return undefined;
  return typeof parsed.document === 'number' ? parsed.document : undefined;
}
