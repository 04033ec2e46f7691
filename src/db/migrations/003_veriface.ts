import type { Kysely, Migration } from 'kysely';

export const veriface: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('veriface_processes')
      .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
      .addColumn('code', 'varchar(16)', (c) => c.notNull().unique())
      .addColumn('organization_id', 'varchar(24)', (c) => c.notNull().references('organizations.id'))
      .addColumn('creator_email', 'text', (c) => c.notNull())
      .addColumn('platform', 'varchar(16)', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('phone', 'varchar(20)', (c) => c.notNull())
      .addColumn('country', 'varchar(2)', (c) => c.notNull())
      .addColumn('document_type', 'varchar(16)', (c) => c.notNull())
      .addColumn('identification', 'varchar(50)', (c) => c.notNull())
      .addColumn('user_email', 'text')
      .addColumn('custom', 'text')
      .addColumn('target_webhooks', 'text')
      .addColumn('tags', 'text')
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('expires_at', 'varchar(24)')
      .addColumn('link_token', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('document_front', 'text')
      .addColumn('document_back', 'text')
      .addColumn('face', 'text')
      .addColumn('similarity', 'real')
      .addColumn('result_reason', 'text')
      .addColumn('created_at', 'varchar(24)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(24)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('veriface_processes_expiry').on('veriface_processes').columns(['status', 'expires_at']).execute();

    await db.schema
      .createTable('veriface_stages')
      .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
      .addColumn('process_id', 'varchar(24)', (c) => c.notNull().references('veriface_processes.id'))
      .addColumn('stage', 'varchar(32)', (c) => c.notNull())
      .addColumn('detail', 'text')
      .addColumn('at', 'varchar(24)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('veriface_stages_process').on('veriface_stages').columns(['process_id', 'at']).execute();
  },
};
