import type { Kysely, Migration } from 'kysely';

/**
 * Every WhatsApp message in and out (src/whatsapp/records), the statuses Meta reports for the ones
 * sent, and one lock per person's number so that their messages are handled one at a time, in order.
 */
export const whatsappMessages: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('whatsapp_messages')
      .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
      .addColumn('organization_id', 'varchar(24)')
      .addColumn('process_id', 'varchar(24)')
      .addColumn('participant_id', 'varchar(64)')
      .addColumn('veriface_id', 'varchar(64)')
      .addColumn('phone', 'varchar(32)', (c) => c.notNull())
      .addColumn('direction', 'varchar(3)', (c) => c.notNull())
      .addColumn('kind', 'varchar(16)', (c) => c.notNull())
      .addColumn('purpose', 'varchar(16)')
      .addColumn('wamid', 'varchar(200)', (c) => c.unique())
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('status_at', 'text', (c) => c.notNull())
      .addColumn('error', 'varchar(200)')
      .addColumn('content', 'text')
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('whatsapp_messages_participant').on('whatsapp_messages').columns(['organization_id', 'participant_id', 'created_at']).execute();
    await db.schema.createIndex('whatsapp_messages_phone').on('whatsapp_messages').columns(['phone', 'status', 'created_at']).execute();
    // The business's latest message to a number, which a received message is attributed to.
    await db.schema.createIndex('whatsapp_messages_phone_direction').on('whatsapp_messages').columns(['phone', 'direction', 'created_at']).execute();

    await db.schema
      .createTable('whatsapp_statuses')
      .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
      .addColumn('wamid', 'varchar(200)', (c) => c.notNull())
      .addColumn('phone', 'varchar(32)', (c) => c.notNull())
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('error', 'varchar(200)')
      .addColumn('applied_at', 'text')
      .addUniqueConstraint('whatsapp_statuses_once', ['wamid', 'status'])
      .execute();
    await db.schema.createIndex('whatsapp_statuses_phone').on('whatsapp_statuses').columns(['phone', 'applied_at']).execute();

    await db.schema
      .createTable('whatsapp_conversation_locks')
      .addColumn('phone', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('locked_by', 'varchar(100)')
      .addColumn('locked_until', 'text')
      .execute();
  },
};
