import type { Kysely, Migration } from 'kysely';

/**
 * The PAdES level an organization's final documents are sealed at (issue 44): B-B, B-T, B-LT or
 * B-LTA. Null means "the instance's" (PADES_LEVEL), so every organization that chose none keeps
 * following the operator's setting, and a change of it still reaches them.
 */
export const padesLevels: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('organizations').addColumn('pades_level', 'varchar(5)').execute();
  },
};
