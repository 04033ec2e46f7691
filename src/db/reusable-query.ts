import type { Compilable, CompiledQuery } from 'kysely';
import type { Db } from './database.js';
import { groupCommitOf } from './sqlite-group-commit.js';

/**
 * A query whose SQL is built and compiled once per dialect, then run again with new parameters.
 * On the hot paths Kysely's builder and compiler cost more than the database's own work. Only for
 * queries whose shape never depends on their parameters: the SQL must be the same for every call.
 * On SQLite, outside a transaction, it runs at once on the connection (src/db/sqlite-group-commit.ts).
 */
export function reusableQuery<P extends unknown[], R>(build: (db: Db, ...params: P) => Compilable<R>) {
  const compiledByDialect = new Map<unknown, CompiledQuery<R>>();
  return async (db: Db, ...params: P): Promise<R[]> => {
    const dialect = db.getExecutor().adapter.constructor;
    let compiled = compiledByDialect.get(dialect);
    if (!compiled) {
      compiled = build(db, ...params).compile();
      const used = compiled.parameters;
      if (used.length !== params.length || used.some((value, i) => value !== params[i])) {
        throw new Error('A reusable query must use each of its parameters once, in order');
      }
      compiledByDialect.set(dialect, compiled);
      return (await db.executeQuery(compiled)).rows;
    }
    const direct = groupCommitOf(db)?.runDirect(compiled, params);
    if (direct) return direct;
    const again: CompiledQuery<R> = { ...compiled, parameters: params };
    return (await db.executeQuery(again)).rows;
  };
}
