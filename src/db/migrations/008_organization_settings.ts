import type { Kysely, Migration } from 'kysely';

/**
 * What each organization sets for the people's side: the origins allowed to embed its pages with
 * the SDK (a JSON array), the language and time zone of its final documents, and how many days
 * identity photos are kept after a process ends.
 */
export const organizationSettings: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('organizations')
      .addColumn('sdk_origins', 'text', (c) => c.notNull().defaultTo('[]'))
      .execute();
    await db.schema
      .alterTable('organizations')
      .addColumn('language', 'text', (c) => c.notNull().defaultTo('es'))
      .execute();
    await db.schema
      .alterTable('organizations')
      .addColumn('time_zone', 'text', (c) => c.notNull().defaultTo('America/Bogota'))
      .execute();
    await db.schema
      .alterTable('organizations')
      .addColumn('photo_retention_days', 'integer', (c) => c.notNull().defaultTo(180))
      .execute();
  },
};
