import type { Kysely, Migration } from 'kysely';

/**
 * The language each person reads (issue 41): a participant's, a face validation's person's and a
 * console user's, one of es, en, pt, fr. Null means "the organization's", so the people of
 * processes created before, and everyone no one chose a language for, follow the organization's
 * setting as they did, and a change of that setting still reaches them.
 */
export const personLanguages: Migration = {
  async up(db: Kysely<unknown>) {
    for (const table of ['participants', 'veriface_processes', 'users']) {
      await db.schema.alterTable(table).addColumn('language', 'varchar(2)').execute();
    }
  },
};
