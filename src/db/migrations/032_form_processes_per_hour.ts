import type { Kysely, Migration } from 'kysely';

/**
 * How many processes the organization's public forms (reference links and the SDK's fill flow)
 * may create in an hour. Anyone holding such a link can submit it, and each submission invites the
 * participants the answers name: the cap bounds what a stranger can make the organization send.
 * The processes are counted where each form records what it made: a reference link's uses, and
 * the SDK's fill sessions, which now say when they made theirs.
 */
export const formProcessesPerHour: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('organizations')
      .addColumn('form_processes_per_hour', 'integer', (c) => c.notNull().defaultTo(100))
      .execute();
    await db.schema.alterTable('fill_sessions').addColumn('used_at', 'text').execute();
    await db.schema.createIndex('reference_link_uses_organization').on('reference_link_uses').columns(['organization_id', 'created_at']).execute();
    await db.schema.createIndex('fill_sessions_organization_use').on('fill_sessions').columns(['organization_id', 'used_at']).execute();
  },
};
