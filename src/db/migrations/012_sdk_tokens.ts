import { type Kysely, type Migration, PostgresAdapter } from 'kysely';

/**
 * Participant ids of 16 characters (they were 2), and embedding with a token: the tokens an integrator's backend mints with the private key (kept by
 * their SHA-256 only, each for one document, one origin, a few minutes and one use), and whether
 * the organization refuses embedding without one.
 */
export const sdkTokens: Migration = {
  async up(db: Kysely<unknown>) {
    // SQLite ignores a varchar's length; PostgreSQL enforces it.
    if (db.getExecutor().adapter instanceof PostgresAdapter) {
      for (const table of ['participants', 'process_events']) {
        await db.schema
          .alterTable(table)
          .alterColumn('participant_id', (c) => c.setDataType('varchar(16)'))
          .execute();
      }
    }
    await db.schema
      .createTable('sdk_tokens')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('organization_id', 'text', (c) => c.notNull())
      .addColumn('document', 'text', (c) => c.notNull())
      .addColumn('origin', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sdk_tokens_organization_expiry').on('sdk_tokens').columns(['organization_id', 'expires_at']).execute();
    await db.schema
      .alterTable('organizations')
      .addColumn('sdk_require_token', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
};
