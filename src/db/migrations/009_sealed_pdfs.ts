import type { Kysely, Migration } from 'kysely';

/**
 * Final documents as signed PDFs: the image each participant signed with (a blob key), and the
 * SHA-256 of every final file as written at sealing, which /verify looks files up by.
 */
export const sealedPdfs: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('participants').addColumn('signature_key', 'text').execute();
    await db.schema
      .createTable('final_files')
      .addColumn('process_id', 'varchar(24)', (c) => c.notNull().references('processes.id'))
      .addColumn('file_key', 'varchar(200)', (c) => c.notNull())
      .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('final_files_pk', ['process_id', 'file_key'])
      .execute();
    await db.schema.createIndex('final_files_sha256').on('final_files').column('sha256').execute();
  },
};
