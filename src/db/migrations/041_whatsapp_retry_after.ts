import type { Kysely, Migration } from 'kysely';

/**
 * `whatsapp_messages.retry_after`: when a received message the conversation failed on may be tried
 * again (src/whatsapp/inbound/drain.ts). Until then its number waits, so that another drain job of
 * the number cannot spend the message's attempts at once, ahead of the outbox's retry of the job
 * that failed on it. Null for a message never failed on, and for every message sent.
 */
export const whatsappRetryAfter: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('whatsapp_messages').addColumn('retry_after', 'varchar(24)').execute();
  },
};
