import type { Db } from '../../db/database.js';
import type { WhatsAppMessageRow } from '../../db/schema.js';

/** The oldest message received from this number that the conversation has not handled yet. */
export async function nextReceived(db: Db, phone: string): Promise<WhatsAppMessageRow | undefined> {
  return db
    .selectFrom('whatsapp_messages')
    .selectAll()
    .where('phone', '=', phone)
    .where('status', '=', 'received')
    .orderBy('created_at')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
}

/** Handled: its content (which may hold a code the person typed) is not kept. */
export async function markHandled(db: Db, options: { id: string; at: string }): Promise<void> {
  await db.updateTable('whatsapp_messages').set({ status: 'handled', status_at: options.at, content: null }).where('id', '=', options.id).execute();
}

/** A failed attempt to handle it; at `maxAttempts` it is given up (failed), so the number's later messages go on. */
export async function countHandlingFailure(db: Db, options: { id: string; at: string; error: string; maxAttempts: number }): Promise<'retry' | 'given-up'> {
  const row = await db
    .updateTable('whatsapp_messages')
    .set((eb) => ({ attempts: eb('attempts', '+', 1), error: options.error }))
    .where('id', '=', options.id)
    .returning('attempts')
    .executeTakeFirst();
  if (row === undefined || row.attempts < options.maxAttempts) return 'retry';
  await db.updateTable('whatsapp_messages').set({ status: 'failed', status_at: options.at, content: null }).where('id', '=', options.id).execute();
  return 'given-up';
}

/** Whether a number has messages to handle, or statuses to apply to messages already recorded. */
export async function hasPendingWork(db: Db, phone: string): Promise<boolean> {
  const received = await db
    .selectFrom('whatsapp_messages')
    .select('id')
    .where('phone', '=', phone)
    .where('status', '=', 'received')
    .limit(1)
    .executeTakeFirst();
  if (received) return true;
  const status = await db
    .selectFrom('whatsapp_statuses')
    .innerJoin('whatsapp_messages', 'whatsapp_messages.wamid', 'whatsapp_statuses.wamid')
    .select('whatsapp_statuses.id')
    .where('whatsapp_statuses.phone', '=', phone)
    .where('whatsapp_statuses.applied_at', 'is', null)
    .limit(1)
    .executeTakeFirst();
  return status !== undefined;
}

/**
 * Takes a number's lock when nobody holds it, or its holder's lease ran out (a worker that died): one
 * statement, whether the number's row exists yet or not.
 */
export async function takeConversationLock(db: Db, options: { phone: string; holder: string; now: string; until: string }): Promise<boolean> {
  const taken = await db
    .insertInto('whatsapp_conversation_locks')
    .values({ phone: options.phone, locked_by: options.holder, locked_until: options.until })
    .onConflict((oc) =>
      oc
        .column('phone')
        .doUpdateSet({ locked_by: options.holder, locked_until: options.until })
        .where((eb) => eb.or([eb('whatsapp_conversation_locks.locked_until', 'is', null), eb('whatsapp_conversation_locks.locked_until', '<', options.now)])),
    )
    .returning('phone')
    .executeTakeFirst();
  return taken !== undefined;
}

/** Extends the lease while its holder still holds the lock; false once it lost it. */
export async function renewConversationLock(db: Db, options: { phone: string; holder: string; until: string }): Promise<boolean> {
  const result = await db
    .updateTable('whatsapp_conversation_locks')
    .set({ locked_until: options.until })
    .where('phone', '=', options.phone)
    .where('locked_by', '=', options.holder)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function releaseConversationLock(db: Db, options: { phone: string; holder: string }): Promise<void> {
  await db
    .updateTable('whatsapp_conversation_locks')
    .set({ locked_by: null, locked_until: null })
    .where('phone', '=', options.phone)
    .where('locked_by', '=', options.holder)
    .execute();
}
