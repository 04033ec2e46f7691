import type { Kysely, Migration } from 'kysely';

/**
 * `processes.sign`: 0 for a process created with `sign: false` (POST /document/save), whose
 * document was e-mailed to its participants for printing instead of signed; 1 for every other.
 *
 * The creator's review of a file a participant gave (docs/api.md, "Attachments"): `review` is
 * `approved` or `rejected` (then the file is asked again, `review_reason` saying why), empty until
 * reviewed and again once the participant gives the file anew.
 */
export const attachmentReviewsAndPrinting: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('participant_attachments').addColumn('review', 'varchar(16)').execute();
    await db.schema.alterTable('participant_attachments').addColumn('review_reason', 'text').execute();
    await db.schema.alterTable('participant_attachments').addColumn('reviewed_at', 'varchar(24)').execute();
    await db.schema
      .alterTable('processes')
      .addColumn('sign', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
  },
};
