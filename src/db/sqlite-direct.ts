import {
  SqliteDialect,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryCompiler,
  type SqliteDatabase,
  type SqliteDialectConfig,
  type TransactionSettings,
} from 'kysely';
import type { Db } from './database.js';

/**
 * Runs a compiled statement at once on SQLite's one connection, without Kysely's connection mutex
 * and the promises around it, which on the busiest reads cost more than SQLite's own work.
 */
export interface DirectExecutor {
  /** The rows, or undefined when the connection is held (a transaction is open): then use Kysely. */
  rows<R>(query: CompiledQuery<R>, parameters: readonly unknown[]): R[] | undefined;
}

const executors = new WeakMap<Db, DirectExecutor>();

/** The direct executor of a SQLite store's root instance; none for PostgreSQL or a transaction. */
export function directExecutorOf(db: Db): DirectExecutor | undefined {
  return executors.get(db);
}

/**
 * Whether a caller holds the connection: Kysely holds it from acquire to release, for a single
 * query and for a whole transaction alike. While it is free, no transaction is open, so a statement
 * run directly sees exactly what it would see through Kysely and commits on its own (autocommit).
 */
class HoldTracker {
  holders = 0;
}

class HoldTrackingDriver implements Driver {
  constructor(
    private readonly inner: Driver,
    private readonly tracker: HoldTracker,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.inner.acquireConnection();
    this.tracker.holders++;
    return connection;
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.inner.beginTransaction(connection, settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(connection);
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.rollbackTransaction(connection);
  }

  async savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await this.inner.savepoint?.(connection, name, compile);
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await this.inner.rollbackToSavepoint?.(connection, name, compile);
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await this.inner.releaseSavepoint?.(connection, name, compile);
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    this.tracker.holders--;
    await this.inner.releaseConnection(connection);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

/** Kysely's SQLite dialect, with its driver telling whether the connection is held. */
class HoldTrackingSqliteDialect extends SqliteDialect {
  constructor(
    config: SqliteDialectConfig,
    private readonly tracker: HoldTracker,
  ) {
    super(config);
  }

  override createDriver(): Driver {
    return new HoldTrackingDriver(super.createDriver(), this.tracker);
  }
}

/**
 * The dialect for a SQLite store, and a function to register the Kysely instance built on it so
 * that `directExecutorOf` finds its direct executor. Statements come from `database`, the same
 * prepared-statement cache Kysely uses.
 */
export function directSqlite(database: SqliteDatabase): { dialect: SqliteDialect; register(db: Db): void } {
  const tracker = new HoldTracker();
  const executor: DirectExecutor = {
    rows<R>(query: CompiledQuery<R>, parameters: readonly unknown[]): R[] | undefined {
      if (tracker.holders > 0) return undefined;
      const statement = database.prepare(query.sql);
      // The rows Kysely's own SQLite driver would return for this query, typed as it types them.
      if (statement.reader) return statement.all(parameters) as R[];
      statement.run(parameters);
      return [];
    },
  };
  return {
    dialect: new HoldTrackingSqliteDialect({ database }, tracker),
    register: (db) => executors.set(db, executor),
  };
}
