import type { Kysely, Migration } from 'kysely';

/** Who decided a blocked face validation by hand, and why. */
export const verifaceReview: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('veriface_processes').addColumn('email_validated', 'text').execute();
    await db.schema.alterTable('veriface_processes').addColumn('review_reason', 'text').execute();
  },
};
