import type { Kysely, Migration } from 'kysely';

/**
 * Attachments (docs/real-service.md §3.2 and §5 `files`): the files a process asks of a
 * participant, one row each, in the order asked. The file the person gave (through their signing
 * page) is kept in the blob store under `file_key`, with the SHA-256 of its bytes as received;
 * until then those columns are empty. A file given again replaces the one before, until the
 * participant signs.
 */
export const participantAttachments: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('participant_attachments')
      .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
      .addColumn('process_id', 'varchar(24)', (c) => c.notNull().references('processes.id'))
      .addColumn('participant_row_id', 'varchar(24)', (c) => c.notNull().references('participants.id'))
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('description', 'text')
      .addColumn('optional', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('file_key', 'text')
      .addColumn('sha256', 'text')
      .addColumn('content_type', 'text')
      .addColumn('size', 'integer')
      .addColumn('uploaded_at', 'varchar(24)')
      .addColumn('created_at', 'varchar(24)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('participant_attachments_place').on('participant_attachments').columns(['participant_row_id', 'position']).unique().execute();
    await db.schema.createIndex('participant_attachments_process').on('participant_attachments').columns(['process_id', 'position']).execute();
  },
};
