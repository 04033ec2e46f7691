import type { Kysely, Migration } from 'kysely';

/** Each delivery attempt names the instance (worker) that made it. */
export const attemptInstance: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('delivery_attempts').addColumn('instance', 'text').execute();
  },
};
