import type BetterSqlite3 from 'better-sqlite3';

/**
 * Kysely prepares every query anew; compiling the SQL costs as much as running it. The service
 * issues a small, fixed set of statements, so keeping the prepared ones (by their SQL text, with a
 * bound for statements built from variable-length lists) removes that cost from every request.
 */
export function statementCache(database: BetterSqlite3.Database, limit = 500): (sql: string) => BetterSqlite3.Statement {
  const cache = new Map<string, BetterSqlite3.Statement>();
  return (sql) => {
    const cached = cache.get(sql);
    if (cached) return cached;
    const statement = database.prepare(sql);
    if (cache.size >= limit) {
      const oldest = cache.keys().next().value;
      if (oldest !== undefined) cache.delete(oldest);
    }
    cache.set(sql, statement);
    return statement;
  };
}
