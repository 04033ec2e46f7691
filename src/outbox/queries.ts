import type { Db, Dialect } from '../db/database.js';
import { reusableQuery, reusableRowsInsert } from '../db/reusable-query.js';
import type { DeliveryAttemptRow, OutboxRow } from '../db/schema.js';

// Every creation queues its messages: compiled once (src/db/reusable-query.ts).
const outboxInsert = reusableQuery((db, row: OutboxRow) => db.insertInto('outbox').values(row));

export const insertOutboxRows = reusableRowsInsert(outboxInsert, (db, rows: OutboxRow[]) => db.insertInto('outbox').values(rows).execute());

/** Inserts a message unless one with the same dedupe key is pending already. */
export async function insertOutboxRowOnce(db: Db, row: OutboxRow): Promise<void> {
  await db
    .insertInto('outbox')
    .values(row)
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .execute();
}

/**
 * Takes up to `limit` due messages for one worker until `leaseUntil`. A WhatsApp message is held
 * back while an earlier one to the same number waits for its retry or is held by a round: a person
 * reads the chat in the order it arrives (the handler keeps that order within a round). On
 * PostgreSQL, SKIP LOCKED lets instances claim side by side without waiting on or taking each
 * other's rows; an expired lease (a worker that died) makes a message claimable again.
 */
export async function claimDueMessages(
  db: Db,
  dialect: Dialect,
  options: { workerId: string; now: string; leaseUntil: string; limit: number },
): Promise<OutboxRow[]> {
  const due = db
    .selectFrom('outbox')
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', options.now)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', options.now)]))
    .where((eb) =>
      eb.or([
        eb('recipient', 'is', null),
        eb.not(
          eb.exists(
            eb
              .selectFrom('outbox as earlier')
              .select('earlier.id')
              .whereRef('earlier.recipient', '=', 'outbox.recipient')
              .where('earlier.status', '=', 'pending')
              .where((e) =>
                e.or([
                  e('earlier.created_at', '<', e.ref('outbox.created_at')),
                  e.and([e('earlier.created_at', '=', e.ref('outbox.created_at')), e('earlier.id', '<', e.ref('outbox.id'))]),
                ]),
              )
              .where((e) => e.or([e('earlier.next_attempt_at', '>', options.now), e('earlier.locked_until', '>=', options.now)])),
          ),
        ),
      ]),
    )
    .orderBy('next_attempt_at')
    .limit(options.limit);
  return db
    .updateTable('outbox')
    .set({ locked_by: options.workerId, locked_until: options.leaseUntil, updated_at: options.now })
    .where('id', 'in', dialect === 'postgres' ? due.forUpdate().skipLocked() : due)
    .returningAll()
    .execute();
}

/**
 * Extends a claim by its holder: only while the message is still pending and held by that worker
 * under the lease it was given (`lockedUntil`), which no other claim of the message can have.
 * Answers whether it still held it.
 */
export async function renewClaim(db: Db, options: { id: string; workerId: string; lockedUntil: string; leaseUntil: string }): Promise<boolean> {
  const result = await db
    .updateTable('outbox')
    .set({ locked_until: options.leaseUntil })
    .where('id', '=', options.id)
    .where('status', '=', 'pending')
    .where('locked_by', '=', options.workerId)
    .where('locked_until', '=', options.lockedUntil)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export type MessageResult =
  | { id: string; status: 'delivered' | 'failed'; attempts: number; lastError: string | null }
  | { id: string; status: 'pending'; attempts: number; lastError: string | null; nextAttemptAt: string };

/**
 * Records the results of a round; a message whose lease this worker lost is left to its new holder.
 * Successes, the common case, are one statement however many there are.
 */
export async function finishMessages(db: Db, options: { workerId: string; now: string; results: MessageResult[] }): Promise<void> {
  const delivered = options.results.filter((r) => r.status === 'delivered').map((r) => r.id);
  if (delivered.length > 0) {
    await db
      .updateTable('outbox')
      .set((eb) => ({
        status: 'delivered',
        attempts: eb('attempts', '+', 1),
        last_error: null,
        locked_by: null,
        locked_until: null,
        dedupe_key: null,
        updated_at: options.now,
      }))
      .where('id', 'in', delivered)
      .where('locked_by', '=', options.workerId)
      .execute();
  }
  for (const result of options.results.filter((r) => r.status !== 'delivered')) {
    await db
      .updateTable('outbox')
      .set({
        status: result.status,
        attempts: result.attempts,
        last_error: result.lastError,
        locked_by: null,
        locked_until: null,
        updated_at: options.now,
        ...(result.status === 'pending' ? { next_attempt_at: result.nextAttemptAt } : { dedupe_key: null }),
      })
      .where('id', '=', result.id)
      .where('locked_by', '=', options.workerId)
      .execute();
  }
}

/** Attempts that ended together, in one statement (src/outbox/attempt-recorder.ts). */
export async function recordAttempts(db: Db, attempts: DeliveryAttemptRow[]): Promise<void> {
  if (attempts.length > 0) await db.insertInto('delivery_attempts').values(attempts).execute();
}

export async function listAttempts(db: Db, outboxIds: string[]): Promise<DeliveryAttemptRow[]> {
  if (outboxIds.length === 0) return [];
  return db.selectFrom('delivery_attempts').selectAll().where('outbox_id', 'in', outboxIds).orderBy('started_at').execute();
}

/** Starts a new round of attempts for a message, keeping its id (receivers de-duplicate on it). */
export async function requeueMessage(db: Db, options: { id: string; now: string }): Promise<void> {
  await db
    .updateTable('outbox')
    .set({ status: 'pending', attempts: 0, next_attempt_at: options.now, locked_by: null, locked_until: null, updated_at: options.now })
    .where('id', '=', options.id)
    .execute();
}
