import type { Kysely, Migration } from 'kysely';

/**
 * The people who follow a process without acting in it (docs/real-service.md §3, `readers`) and
 * the addresses that get a copy of its final files (`cc`). Kept apart from `participants`, so
 * that no signing rule (turns, validations, the end of the process) and no signer's link can ever
 * reach them: their link opens a page that only reads.
 */
export const processReaders: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('process_readers')
      .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
      .addColumn('process_id', 'varchar(24)', (c) => c.notNull().references('processes.id'))
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('kind', 'varchar(8)', (c) => c.notNull())
      .addColumn('name', 'text')
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('link_token', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('created_at', 'varchar(24)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('process_readers_process').on('process_readers').columns(['process_id', 'position']).unique().execute();
  },
};
