import type { Kysely, Migration } from 'kysely';

/**
 * What GET and PUT /company keep beyond the name (REFERENCE §10): the logo's https URL and the
 * colours of the people's pages (JSON `{primaryColor?, alternateColor?}`), per organization; and per
 * webhook the body format it receives (`typed`, today's bodies, for the webhooks made before) and
 * the optional static header added to every delivery.
 */
export const company: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('organizations').addColumn('image', 'text').execute();
    await db.schema
      .alterTable('organizations')
      .addColumn('ux_options', 'text', (c) => c.notNull().defaultTo('{}'))
      .execute();
    await db.schema
      .alterTable('webhooks')
      .addColumn('format', 'text', (c) => c.notNull().defaultTo('typed'))
      .execute();
    await db.schema.alterTable('webhooks').addColumn('header_key', 'text').execute();
    await db.schema.alterTable('webhooks').addColumn('header_value', 'text').execute();
  },
};
