import type { Kysely, Migration } from 'kysely';

/**
 * Each identity check of a participant or a face validation, as it was decided: the photos it was
 * made on (their keys and the SHA-256 of their bytes), the similarity, what was read on the
 * document and how its number compared with the declared one, whether it succeeded and why not.
 * Rows are written once and never changed, except that deleting a process's photos clears the keys.
 */
export const identityAttempts: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('identity_attempts')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('organization_id', 'text', (c) => c.notNull())
      // The signing process or the face validation, as photo_blobs names it.
      .addColumn('owner_id', 'text', (c) => c.notNull())
      .addColumn('participant_row_id', 'text')
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('document_front_key', 'text')
      .addColumn('document_back_key', 'text')
      .addColumn('face_key', 'text')
      .addColumn('photo_sha256', 'text', (c) => c.notNull())
      .addColumn('similarity', 'double precision')
      .addColumn('number_check', 'text', (c) => c.notNull())
      .addColumn('document_data', 'text', (c) => c.notNull())
      .addColumn('successful', 'integer', (c) => c.notNull())
      .addColumn('error_messages', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('identity_attempts_owner').on('identity_attempts').columns(['owner_id', 'at']).execute();
  },
};
