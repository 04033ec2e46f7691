import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Identity photos: every key written, with the process it belongs to (signers keep earlier
 * attempts under keys of their own, which the rows do not name), and when a process's photos
 * were deleted. The photos already stored are recorded from the rows that name them.
 */
export const photoVault: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('photo_blobs')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('owner_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('photo_blobs_owner').on('photo_blobs').column('owner_id').execute();
    await db.schema.alterTable('processes').addColumn('photos_deleted_at', 'text').execute();
    await db.schema.alterTable('veriface_processes').addColumn('photos_deleted_at', 'text').execute();
    await recordStoredPhotos(db);
  },
};

/** Records the photos the rows name (those stored before this migration), once each. */
export async function recordStoredPhotos<T>(db: Kysely<T>): Promise<void> {
  for (const column of ['face_key', 'document_front_key', 'document_back_key']) {
    await sql`INSERT INTO photo_blobs (key, owner_id, created_at)
      SELECT ${sql.ref(column)}, process_id, updated_at FROM participants WHERE ${sql.ref(column)} IS NOT NULL
      ON CONFLICT (key) DO NOTHING`.execute(db);
  }
  for (const column of ['document_front', 'document_back', 'face']) {
    await sql`INSERT INTO photo_blobs (key, owner_id, created_at)
      SELECT ${sql.ref(column)}, id, updated_at FROM veriface_processes WHERE ${sql.ref(column)} IS NOT NULL
      ON CONFLICT (key) DO NOTHING`.execute(db);
  }
}
