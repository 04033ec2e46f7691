import type { ExpressionBuilder } from 'kysely';
import type { Db } from '../../db/database.js';
import { reusableQuery } from '../../db/reusable-query.js';
import type { Database, WhatsAppMessageRow } from '../../db/schema.js';

/**
 * A message of the number that failed and waits for its retry (retry_after): the whole number waits
 * with it, as its messages are handled in order.
 */
function waitingForRetry(eb: ExpressionBuilder<Database, 'whatsapp_messages'>, p: { phone: string; now: string }) {
  return eb
    .selectFrom('whatsapp_messages as waiting')
    .select('waiting.id')
    .where('waiting.phone', '=', p.phone)
    .where('waiting.status', '=', 'received')
    .where('waiting.retry_after', '>', p.now);
}

// Every received message runs these (src/whatsapp/inbound/drain.ts): compiled once (src/db/reusable-query.ts).
const received = reusableQuery((db, p: { phone: string; limit: number; now: string }) =>
  db
    .selectFrom('whatsapp_messages')
    .selectAll()
    .where('phone', '=', p.phone)
    .where('status', '=', 'received')
    .where((eb) => eb.not(eb.exists(waitingForRetry(eb, p))))
    .orderBy('created_at')
    .orderBy('id')
    .limit(p.limit),
);
const handled = reusableQuery((db, p: { id: string; at: string }) =>
  db.updateTable('whatsapp_messages').set({ status: 'handled', status_at: p.at, content: null }).where('id', '=', p.id),
);
const lockTaken = reusableQuery((db, p: { phone: string; holder: string; now: string; until: string }) =>
  db
    .insertInto('whatsapp_conversation_locks')
    .values({ phone: p.phone, locked_by: p.holder, locked_until: p.until })
    .onConflict((oc) =>
      oc
        .column('phone')
        .doUpdateSet({ locked_by: p.holder, locked_until: p.until })
        .where((eb) => eb.or([eb('whatsapp_conversation_locks.locked_until', 'is', null), eb('whatsapp_conversation_locks.locked_until', '<', p.now)])),
    )
    .returning('phone'),
);
const lockRenewed = reusableQuery((db, p: { phone: string; holder: string; until: string }) =>
  db
    .updateTable('whatsapp_conversation_locks')
    .set({ locked_until: p.until })
    .where('phone', '=', p.phone)
    .where('locked_by', '=', p.holder)
    .returning('phone'),
);
const lockReleased = reusableQuery((db, p: { phone: string; holder: string }) =>
  db.updateTable('whatsapp_conversation_locks').set({ locked_by: null, locked_until: null }).where('phone', '=', p.phone).where('locked_by', '=', p.holder),
);
const pendingWork = reusableQuery((db, p: { phone: string; now: string }) =>
  db.selectNoFrom((eb) => [
    eb
      .and([
        eb.exists(eb.selectFrom('whatsapp_messages').select('id').where('phone', '=', p.phone).where('status', '=', 'received')),
        eb.not(eb.exists(waitingForRetry(eb, p))),
      ])
      .as('messages'),
    eb
      .exists(
        eb
          .selectFrom('whatsapp_statuses')
          .innerJoin('whatsapp_messages', 'whatsapp_messages.wamid', 'whatsapp_statuses.wamid')
          .select('whatsapp_statuses.id')
          .where('whatsapp_statuses.phone', '=', p.phone)
          .where('whatsapp_statuses.applied_at', 'is', null),
      )
      .as('statuses'),
  ]),
);
const statusWaiting = reusableQuery((db, p: { phone: string }) =>
  db.selectFrom('whatsapp_statuses').select('id').where('phone', '=', p.phone).where('applied_at', 'is', null).limit(1),
);

/**
 * The oldest messages received from this number that the conversation has not handled yet, at most
 * `limit`, in order; none while one of them waits for its retry.
 */
export async function nextReceived(db: Db, options: { phone: string; limit: number; now: string }): Promise<WhatsAppMessageRow[]> {
  return received(db, options);
}

/** Handled: its content (which may hold a code the person typed) is not kept. */
export async function markHandled(db: Db, options: { id: string; at: string }): Promise<void> {
  await handled(db, options);
}

/**
 * A failed attempt to handle it, to be tried again from `retryAfter`; at `maxAttempts` it is given up
 * (failed), so the number's later messages go on.
 */
export async function countHandlingFailure(
  db: Db,
  options: { id: string; at: string; retryAfter: string; error: string; maxAttempts: number },
): Promise<'retry' | 'given-up'> {
  const row = await db
    .updateTable('whatsapp_messages')
    .set((eb) => ({ attempts: eb('attempts', '+', 1), error: options.error, retry_after: options.retryAfter }))
    .where('id', '=', options.id)
    .returning('attempts')
    .executeTakeFirst();
  if (row === undefined || row.attempts < options.maxAttempts) return 'retry';
  await db.updateTable('whatsapp_messages').set({ status: 'failed', status_at: options.at, content: null }).where('id', '=', options.id).execute();
  return 'given-up';
}

/**
 * Whether a number has messages to handle, or statuses to apply to messages already recorded: one
 * statement, as a drain asks it each time it lets go of the number.
 */
export async function hasPendingWork(db: Db, options: { phone: string; now: string }): Promise<boolean> {
  const [row] = await pendingWork(db, options);
  return Boolean(row?.messages) || Boolean(row?.statuses);
}

/** Whether Meta reported a status for this number that is not applied yet (whether its message is recorded or not). */
export async function hasStatusWaiting(db: Db, phone: string): Promise<boolean> {
  return (await statusWaiting(db, { phone })).length > 0;
}

/**
 * Takes a number's lock when nobody holds it, or its holder's lease ran out (a worker that died): one
 * statement, whether the number's row exists yet or not.
 */
export async function takeConversationLock(db: Db, options: { phone: string; holder: string; now: string; until: string }): Promise<boolean> {
  return (await lockTaken(db, options)).length === 1;
}

/** Extends the lease while its holder still holds the lock; false once it lost it. */
export async function renewConversationLock(db: Db, options: { phone: string; holder: string; until: string }): Promise<boolean> {
  return (await lockRenewed(db, options)).length === 1;
}

export async function releaseConversationLock(db: Db, options: { phone: string; holder: string }): Promise<void> {
  await lockReleased(db, options);
}
