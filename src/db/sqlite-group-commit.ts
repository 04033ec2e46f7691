import type BetterSqlite3 from 'better-sqlite3';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import type { Db } from './database.js';

/**
 * SQLite's one connection, shared by Kysely and by statements run directly, with group commit.
 *
 * What a write costs on SQLite is mostly the pages it appends to the WAL when it commits, and
 * writes arriving together touch the same pages (the last leaf of a table, of its indexes). So
 * transactions, and single writes run directly, commit together in one open transaction, which
 * commits once the event loop has handled the requests that arrived with them (setImmediate). Each
 * transaction runs in a savepoint and, if it fails, rolls back to it alone; a single statement
 * needs none, as SQLite undoes a failed statement by itself.
 *
 * Nobody is told a write succeeded before it is committed: a member's promise settles when the
 * shared COMMIT does, and a failed COMMIT fails every member. A plain write outside the group first
 * commits what is pending. A read outside a transaction (a SELECT) runs on a second, read-only
 * connection when there is one, and sees exactly what is committed: every write anyone was told of,
 * and nothing still pending, which nobody was told of. It leaves the group to grow (committing it
 * first, as it did before, held the group to one or two members under load). Without that
 * connection, such a read commits what is pending first, so it too only ever sees committed data.
 */
export class GroupCommitSqlite {
  /** Real COMMITs of groups, for tests and for whoever wants to see how writes are grouped. */
  commits = 0;
  private held = false;
  private readonly waiting: (() => void)[] = [];
  private pending: { resolve(): void; reject(error: unknown): void }[] = [];
  private flushScheduled = false;

  /** Reads answered by the read-only connection, for tests. */
  readerReads = 0;

  constructor(
    private readonly database: BetterSqlite3.Database,
    private readonly prepare: (sql: string) => BetterSqlite3.Statement,
    /** A read-only connection to the same file (WAL: it sees every commit at once), closed with this one. */
    private readonly reader?: { prepare: (sql: string) => BetterSqlite3.Statement; close(): void },
  ) {}

  /**
   * A SELECT outside the group, on the read-only connection: it sees what is committed without
   * committing what is pending. Only plain SELECTs: a pragma reads the connection's own settings.
   */
  private readOutside<R>(sql: string, parameters: readonly unknown[]): R[] | undefined {
    if (!this.reader || !READ_ONLY_SQL.test(sql)) return undefined;
    const statement = this.reader.prepare(sql);
    if (!statement.readonly || !statement.reader) return undefined;
    this.readerReads++;
    return rowsOf<R>(statement, parameters);
  }

  /**
   * Runs a statement at once when nobody holds the connection: a read answers its rows, a write
   * joins the group and answers once committed. Undefined while the connection is held: then the
   * caller goes through Kysely, which waits for it.
   */
  runDirect<R>(query: CompiledQuery<R>, parameters: readonly unknown[]): R[] | Promise<R[]> | undefined {
    const outside = this.readOutside<R>(query.sql, parameters);
    if (outside) return outside;
    if (this.held) return undefined;
    const statement = this.prepare(query.sql);
    if (statement.readonly) {
      this.flush();
      return rowsOf<R>(statement, parameters);
    }
    // One statement needs no savepoint: SQLite undoes a failed statement by itself, and nothing more.
    this.openGroup();
    let rows: R[] = [];
    try {
      if (statement.reader) rows = rowsOf<R>(statement, parameters);
      else statement.run(parameters);
    } catch (error) {
      this.afterFailure();
      throw error;
    }
    return this.joinGroup().then(() => rows);
  }

  async lock(): Promise<void> {
    if (!this.held) {
      this.held = true;
      return;
    }
    // unlock() hands the connection over: `held` stays true on the way.
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  unlock(): void {
    const next = this.waiting.shift();
    if (next) {
      next();
      return;
    }
    this.held = false;
    this.scheduleFlush();
  }

  /** A statement of Kysely's: a member's runs in its savepoint; any other first commits what is pending. */
  execute<R>(query: CompiledQuery, member: boolean): QueryResult<R> {
    if (!member) {
      const outside = this.readOutside<R>(query.sql, query.parameters);
      if (outside) return { rows: outside };
      this.flush();
    }
    const statement = this.prepare(query.sql);
    if (statement.reader) return { rows: rowsOf<R>(statement, query.parameters) };
    const { changes, lastInsertRowid } = statement.run(query.parameters);
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
  }

  beginMember(): void {
    this.openGroup();
    this.run('savepoint group_member');
  }

  /** Keeps the member's work in the group; settles with the group's COMMIT. */
  commitMember(): Promise<void> {
    this.run('release group_member');
    return this.joinGroup();
  }

  rollbackMember(): void {
    if (this.database.inTransaction) {
      this.run('rollback to group_member');
      this.run('release group_member');
    }
    this.afterFailure();
  }

  private openGroup(): void {
    if (!this.database.inTransaction) this.run('begin');
  }

  private joinGroup(): Promise<void> {
    const committed = new Promise<void>((resolve, reject) => this.pending.push({ resolve, reject }));
    this.scheduleFlush();
    return committed;
  }

  /** After a member's work was undone: ends a transaction left with nothing in it, or fails the group SQLite gave up on. */
  private afterFailure(): void {
    if (!this.database.inTransaction) {
      // SQLite rolled the whole transaction back (a full disk, an I/O error): the group's work is gone.
      this.failPending(new Error('The transaction this write was grouped in was rolled back'));
    } else if (this.pending.length === 0) {
      this.run('rollback');
    }
  }

  /** Commits what is pending, now; only called while no member is halfway through its work. */
  flush(): void {
    if (!this.database.inTransaction) return;
    const members = this.pending;
    this.pending = [];
    try {
      this.run('commit');
    } catch (error) {
      if (this.database.inTransaction) this.run('rollback');
      for (const member of members) member.reject(error);
      return;
    }
    this.commits++;
    for (const member of members) member.resolve();
  }

  close(): void {
    this.flush();
    this.database.close();
    this.reader?.close();
  }

  private scheduleFlush(): void {
    if (this.flushScheduled || this.pending.length === 0) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      // Held: the holder's unlock() schedules the flush again.
      if (!this.held) this.flush();
    });
  }

  private failPending(error: Error): void {
    const members = this.pending;
    this.pending = [];
    for (const member of members) member.reject(error);
  }

  private run(sql: string): void {
    this.prepare(sql).run();
  }
}

/** What Kysely compiles a plain read to; anything else (pragmas, writes with RETURNING) stays on the main connection. */
const READ_ONLY_SQL = /^\s*select\b/i;

/** The rows as Kysely's own SQLite driver returns them, typed as it types them. */
function rowsOf<R>(statement: BetterSqlite3.Statement, parameters: readonly unknown[]): R[] {
  return statement.all(parameters) as R[];
}

/** Kysely's view of the connection while one caller holds it. */
class HeldConnection implements DatabaseConnection {
  member = false;
  /** Set once a member's commit has handed the connection over: nothing may run on it any more. */
  handedOver = false;

  constructor(private readonly owner: GroupCommitSqlite) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.handedOver) throw new Error('This connection was handed over when its transaction committed');
    return this.owner.execute<R>(query, this.member);
  }

  streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming queries are not supported on SQLite here');
  }
}

class GroupCommitDriver implements Driver {
  constructor(private readonly owner: GroupCommitSqlite) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.owner.lock();
    return new HeldConnection(this.owner);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    this.owner.beginMember();
    held(connection).member = true;
  }

  /** The connection goes to the next caller at once: waiting for the group's COMMIT must not hold it. */
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const state = held(connection);
    const committed = this.owner.commitMember();
    state.member = false;
    state.handedOver = true;
    this.owner.unlock();
    await committed;
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const state = held(connection);
    // After a handed-over commit failed, the group's rollback already undid this member's work.
    if (state.handedOver) return;
    state.member = false;
    this.owner.rollbackMember();
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    if (!held(connection).handedOver) this.owner.unlock();
  }

  async destroy(): Promise<void> {
    this.owner.close();
  }
}

function held(connection: DatabaseConnection): HeldConnection {
  if (!(connection instanceof HeldConnection)) throw new Error('Not a connection of this driver');
  return connection;
}

class GroupCommitDialect implements Dialect {
  constructor(private readonly owner: GroupCommitSqlite) {}

  createAdapter(): DialectAdapter {
    return new SqliteAdapter();
  }

  createDriver(): Driver {
    return new GroupCommitDriver(this.owner);
  }

  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }

  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}

const owners = new WeakMap<Db, GroupCommitSqlite>();

/** The connection owner of a SQLite store's root instance; none for PostgreSQL or a transaction. */
export function groupCommitOf(db: Db): GroupCommitSqlite | undefined {
  return owners.get(db);
}

/** The dialect over `owner`, and the registration of the Kysely instance built on it. */
export function groupCommitDialect(owner: GroupCommitSqlite): { dialect: Dialect; register(db: Db): void } {
  return { dialect: new GroupCommitDialect(owner), register: (db) => owners.set(db, owner) };
}
