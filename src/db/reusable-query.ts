import { type Compilable, type CompiledQuery, SqliteAdapter } from 'kysely';
import type { Db } from './database.js';
import { groupCommitOf } from './sqlite-group-commit.js';

/** Where each parameter of the compiled SQL comes from: a named parameter, or a value the SQL fixes. */
type ParameterSource<P> = { name: keyof P & string } | { value: unknown };

const PROBE_PREFIX = '\u0000reusable-query-parameter:';

/**
 * A query whose SQL is built and compiled once per dialect, then run again with new parameters,
 * given by name. On the hot paths Kysely's builder and compiler cost more than the database's own
 * work. Only for queries whose shape never depends on their parameters: the SQL must be the same
 * for every call. It is compiled from probe values, one per name, so the compiled query says which
 * parameter goes where (a name may be used more than once; values the builder fixes stay fixed).
 * On SQLite, outside a transaction, it runs at once on the connection (src/db/sqlite-group-commit.ts).
 */
export function reusableQuery<P extends Record<string, unknown>, R>(build: (db: Db, params: P) => Compilable<R>) {
  const compiledByDialect = new Map<unknown, { compiled: CompiledQuery<R>; sources: ParameterSource<P>[] }>();
  const compile = (db: Db, names: string[]) => {
    // Probe values stand for the parameters while the SQL is built; only their positions are kept.
    const probe = Object.fromEntries(names.map((name) => [name, `${PROBE_PREFIX}${name}`])) as P;
    const compiled = build(db, probe).compile();
    const sources = compiled.parameters.map((value): ParameterSource<P> => {
      if (typeof value === 'string' && value.startsWith(PROBE_PREFIX)) return { name: value.slice(PROBE_PREFIX.length) };
      return { value };
    });
    return { compiled, sources };
  };
  return async (db: Db, params: P): Promise<R[]> => {
    const dialect = db.getExecutor().adapter.constructor;
    let entry = compiledByDialect.get(dialect);
    if (!entry) {
      entry = compile(db, Object.keys(params));
      compiledByDialect.set(dialect, entry);
    }
    const values = entry.sources.map((source) => ('name' in source ? params[source.name] : source.value));
    const direct = groupCommitOf(db)?.runDirect<R>(entry.compiled, values);
    if (direct) return direct;
    const again: CompiledQuery<R> = { ...entry.compiled, parameters: values };
    return (await db.executeQuery(again)).rows;
  };
}

/**
 * Rows of one table, inserted by a reusable single-row INSERT (`one`) each on SQLite, where a
 * prepared statement costs microseconds a row and building a multi-row INSERT costs more than it
 * saves; on PostgreSQL, where each statement is a round trip, several rows go in one INSERT
 * (`many`) as before. A single row takes `one` on both.
 */
export function reusableRowsInsert<Row extends Record<string, unknown>>(
  one: (db: Db, row: Row) => Promise<unknown>,
  many: (db: Db, rows: Row[]) => Promise<unknown>,
): (db: Db, rows: Row[]) => Promise<void> {
  return async (db, rows) => {
    if (rows.length > 1 && !(db.getExecutor().adapter instanceof SqliteAdapter)) {
      await many(db, rows);
      return;
    }
    for (const row of rows) await one(db, row);
  };
}
