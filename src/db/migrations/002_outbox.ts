import type { Kysely, Migration } from 'kysely';

export const outbox: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('outbox')
      .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
      .addColumn('organization_id', 'varchar(24)')
      .addColumn('kind', 'varchar(16)', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull())
      .addColumn('next_attempt_at', 'varchar(24)', (c) => c.notNull())
      .addColumn('locked_by', 'varchar(64)')
      .addColumn('locked_until', 'varchar(24)')
      .addColumn('last_error', 'text')
      .addColumn('dedupe_key', 'varchar(200)', (c) => c.unique())
      .addColumn('webhook_id', 'varchar(24)')
      .addColumn('event_type', 'varchar(100)')
      .addColumn('created_at', 'varchar(24)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(24)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('outbox_due').on('outbox').columns(['status', 'next_attempt_at']).execute();
    await db.schema.createIndex('outbox_webhook').on('outbox').columns(['webhook_id', 'created_at', 'id']).execute();
    await db.schema.createIndex('outbox_organization_kind').on('outbox').columns(['organization_id', 'kind', 'created_at', 'id']).execute();

    await db.schema
      .createTable('delivery_attempts')
      .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
      .addColumn('outbox_id', 'varchar(24)', (c) => c.notNull())
      .addColumn('started_at', 'varchar(24)', (c) => c.notNull())
      .addColumn('duration_ms', 'integer', (c) => c.notNull())
      .addColumn('ok', 'integer', (c) => c.notNull())
      .addColumn('status_code', 'integer')
      .addColumn('response', 'text')
      .addColumn('error', 'text')
      .execute();
    await db.schema.createIndex('delivery_attempts_outbox').on('delivery_attempts').columns(['outbox_id', 'started_at']).execute();

    await db.schema
      .createTable('webhooks')
      .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
      .addColumn('organization_id', 'varchar(24)', (c) => c.notNull().references('organizations.id'))
      .addColumn('name', 'varchar(100)', (c) => c.notNull())
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('secret', 'text', (c) => c.notNull())
      .addColumn('description', 'text')
      .addColumn('enabled', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'varchar(24)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(24)', (c) => c.notNull())
      .addUniqueConstraint('webhooks_organization_name', ['organization_id', 'name'])
      .execute();
  },
};
