import type { Kysely, Migration } from 'kysely';

/**
 * The name of an organization's user, which the roadmap shows as its author's (REFERENCE §3.5
 * `author.name`); null for users added without one, and then left out.
 */
export const userNames: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('users').addColumn('name', 'text').execute();
  },
};
