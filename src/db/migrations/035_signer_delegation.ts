import type { Kysely, Migration } from 'kysely';

/**
 * Delegation (docs/real-service.md §3.5 UPDATE_SIGNER): an organization may let a signer hand
 * their place to another person from the signing page. Off by default: who signs is the
 * organization's decision. Each handing over is kept: who held the place before (their id, name,
 * contact and link, so the old link can say it was handed over instead of failing), the reason,
 * and when. The place itself, the participant row, then holds the new person.
 */
export const signerDelegation: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('organizations')
      .addColumn('signer_delegation', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .createTable('participant_delegations')
      .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
      .addColumn('process_id', 'varchar(24)', (c) => c.notNull().references('processes.id'))
      .addColumn('participant_row_id', 'varchar(24)', (c) => c.notNull().references('participants.id'))
      .addColumn('former_participant_id', 'text', (c) => c.notNull())
      .addColumn('former_name', 'text', (c) => c.notNull())
      .addColumn('former_email', 'text', (c) => c.notNull())
      .addColumn('former_phone', 'text')
      .addColumn('former_link_token', 'text', (c) => c.notNull().unique())
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('created_at', 'varchar(24)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('participant_delegations_process').on('participant_delegations').columns(['process_id', 'created_at']).execute();
  },
};
