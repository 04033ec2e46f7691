import type { Kysely, Migration } from 'kysely';

/**
 * Reference links carry their settings (the identity validations and channels of the processes
 * made through them, "sign now", an expiry, an on/off switch, the user the processes are created
 * by), and each use of a link is recorded: the process it made, under the key the form sent, so
 * that a submission sent twice makes one process.
 */
export const referenceSettings: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('reference_links').addColumn('validations', 'text').execute();
    await db.schema
      .alterTable('reference_links')
      .addColumn('sign_now', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('reference_links').addColumn('expires_at', 'varchar(24)').execute();
    await db.schema
      .alterTable('reference_links')
      .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    await db.schema.alterTable('reference_links').addColumn('creator_email', 'text').execute();
    await db.schema
      .createTable('reference_link_uses')
      .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
      .addColumn('organization_id', 'varchar(24)', (c) => c.notNull().references('organizations.id'))
      .addColumn('reference_link_id', 'varchar(24)', (c) => c.notNull().references('reference_links.id'))
      .addColumn('idempotency_key', 'varchar(64)', (c) => c.notNull())
      .addColumn('process_id', 'varchar(24)', (c) => c.notNull().references('processes.id'))
      .addColumn('process_code', 'varchar(10)', (c) => c.notNull())
      .addColumn('filler_participant_id', 'varchar(24)')
      .addColumn('created_at', 'varchar(24)', (c) => c.notNull())
      .addUniqueConstraint('reference_link_uses_key', ['reference_link_id', 'idempotency_key'])
      .execute();
    await db.schema.createIndex('reference_link_uses_link').on('reference_link_uses').columns(['reference_link_id', 'created_at', 'id']).execute();
  },
};
