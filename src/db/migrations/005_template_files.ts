import type { Kysely, Migration } from 'kysely';

/**
 * Whether any HTML file of a template may be stored, so that deleting a template whose files never
 * arrived does not go looking for them. Templates that exist already may have files: 1.
 */
export const templateFiles: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('templates')
      .addColumn('files_stored', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
  },
};
