import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Public forms made into a relay no more. Organizations still at the first cap of 100 processes
 * an hour (2,400 invitations a day from one leaked link) go to the new first cap of 30; one that
 * chose another number keeps it. New organizations are given it by createOrganization, so the
 * column's own default (which SQLite cannot change) is never used.
 *
 * Each reference link gets a count of its uses (taken by the UPDATE that records one, so it is the
 * row lock that makes them one after the other), an optional total, and a cap of its own per hour,
 * 20 for the links there are: one link of many cannot spend the organization's whole hour.
 *
 * `form_confirmations`: a public form's process is held, nobody invited, until the person who
 * filled it types the code sent to their own address; the code kept as the signers' are (the
 * SHA-256 salted with the participant's row), with its wrong attempts counted.
 */
export const formLimits: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`UPDATE organizations SET form_processes_per_hour = 30 WHERE form_processes_per_hour = 100`.execute(db);
    await db.schema.alterTable('reference_links').addColumn('max_uses', 'integer').execute();
    await db.schema
      .alterTable('reference_links')
      .addColumn('hourly_cap', 'integer', (c) => c.notNull().defaultTo(20))
      .execute();
    await db.schema
      .alterTable('reference_links')
      .addColumn('uses', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await sql`UPDATE reference_links SET uses = (SELECT COUNT(*) FROM reference_link_uses WHERE reference_link_uses.reference_link_id = reference_links.id)`.execute(
      db,
    );
    await db.schema
      .createTable('form_confirmations')
      .addColumn('process_id', 'varchar(24)', (c) => c.primaryKey().references('processes.id'))
      .addColumn('organization_id', 'varchar(24)', (c) => c.notNull().references('organizations.id'))
      .addColumn('participant_id', 'varchar(24)', (c) => c.notNull().references('participants.id'))
      .addColumn('medium', 'varchar(8)', (c) => c.notNull())
      .addColumn('sent_to', 'text', (c) => c.notNull())
      .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('expires_at', 'varchar(24)', (c) => c.notNull())
      .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('sent_at', 'varchar(24)', (c) => c.notNull())
      .addColumn('resends', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('confirmed_at', 'varchar(24)')
      .addColumn('created_at', 'varchar(24)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('reference_link_uses_link_time').on('reference_link_uses').columns(['reference_link_id', 'created_at']).execute();
  },
};
