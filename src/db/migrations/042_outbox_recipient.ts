import type { Kysely, Migration } from 'kysely';

/**
 * `outbox.recipient`: the number a WhatsApp message goes to (digits only), null for every other
 * kind. A person reads a chat in the order it arrives, so the claim holds a message back while an
 * earlier one to the same number waits for its retry or is being sent (src/outbox/queries.ts).
 * Messages queued before this migration have none and keep no such order.
 */
export const outboxRecipient: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('outbox').addColumn('recipient', 'varchar(32)').execute();
    await db.schema
      .createIndex('outbox_recipient')
      .on('outbox')
      .columns(['recipient', 'status', 'created_at', 'id'])
      .where('recipient', 'is not', null)
      .execute();
  },
};
