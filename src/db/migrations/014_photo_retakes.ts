import type { Kysely, Migration } from 'kysely';

/**
 * Retakes replace photos: a photo a decision was taken on (a match, a block) is marked and kept,
 * any other is deleted once a newer one of its kind replaces it. Photo attempts are counted per
 * participant or face validation and day, in the database, so that the bound holds across instances.
 */
export const photoRetakes: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('photo_blobs').addColumn('decided_at', 'text').execute();
    await db.schema
      .createTable('photo_attempts')
      .addColumn('owner_id', 'text', (c) => c.notNull())
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('photo_attempts_pk', ['owner_id', 'day'])
      .execute();
  },
};
