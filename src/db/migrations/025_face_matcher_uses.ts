import type { Kysely, Migration } from 'kysely';

/**
 * The face matcher's share per participant or face validation (src/veriface/face-share/): the
 * comparisons over the flow's life and in its current UTC hour, in the database so that every
 * instance counts against the same bound, and the hour whose refusal the integrator was told of.
 */
export const faceMatcherUses: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('face_matcher_uses')
      .addColumn('owner_id', 'text', (c) => c.primaryKey())
      .addColumn('uses', 'integer', (c) => c.notNull())
      // YYYY-MM-DDTHH (UTC): the hour `hour_uses` counts.
      .addColumn('hour', 'text', (c) => c.notNull())
      .addColumn('hour_uses', 'integer', (c) => c.notNull())
      .addColumn('refused_hour', 'text')
      .execute();
  },
};
