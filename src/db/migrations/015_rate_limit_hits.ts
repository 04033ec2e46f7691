import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

/**
 * Hits per client address (and route) in the current window, shared by every instance on
 * PostgreSQL (src/http/rate-limit-store.ts). UNLOGGED there: a count is worth no WAL write and no
 * flush per request, and a crash that empties the table only starts every window again. SQLite
 * keeps its limits in memory (one instance), so the table stays empty there.
 */
export const rateLimitHits: Migration = {
  async up(db: Kysely<unknown>) {
    const unlogged = db.getExecutor().adapter instanceof PostgresAdapter;
    await db.schema
      .createTable('rate_limit_hits')
      .$call((table) => (unlogged ? table.modifyFront(sql`unlogged`) : table))
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('hits', 'integer', (c) => c.notNull())
      // Milliseconds since the epoch, on the database's clock, which every instance shares.
      .addColumn('resets_at', 'bigint', (c) => c.notNull())
      .execute();
  },
};
