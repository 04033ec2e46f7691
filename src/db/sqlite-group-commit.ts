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
import type { Db } from './schema.js';
import type { WalFlusher } from './wal-flusher.js';

/**
 * SQLite's one connection, shared by Kysely and by statements run directly, with group commit.
 *
 * What a write costs on SQLite is mostly the pages it appends to the WAL when it commits, and
 * writes arriving together touch the same pages (the last leaf of a table, of its indexes). So
 * transactions, and single writes, commit together in one open transaction, which commits once the
 * event loop has handled the requests that arrived with it (setImmediate). Each transaction runs in
 * a savepoint and, if it fails, rolls back to it alone; a single statement needs none, as SQLite
 * undoes a failed statement by itself.
 *
 * The connection runs with `synchronous = NORMAL`: its COMMIT writes the log without waiting for the
 * disk, and this class flushes the log itself (src/db/wal-flusher.ts) in libuv's pool, so the event
 * loop serves requests while the disk works instead of stopping in every COMMIT's fsync. One COMMIT
 * at a time waits for its flush; the writes arriving meanwhile gather in the next group, committed
 * when the flush ends.
 *
 * Nobody is told a write succeeded before it is committed and its COMMIT is on disk: a member's
 * promise settles when the flush after its COMMIT does, and a failed COMMIT or flush fails every
 * member. A read outside a transaction runs on a second, read-only connection, and sees exactly
 * what is committed and on disk: while a COMMIT waits for its flush, reads wait with it, and run
 * before the next COMMIT. So every write anyone was told of is seen, and nothing that a power loss
 * could still take away. Reads leave the group to grow (committing it first held the group to one
 * or two members under load). A flush the disk refuses fails its members; what they wrote stays
 * committed, and may or may not survive a power loss, as any write whose answer was lost.
 */
export class GroupCommitSqlite {
  /** Real COMMITs of groups, for tests and for whoever wants to see how writes are grouped. */
  commits = 0;
  private held = false;
  private readonly waiting: (() => void)[] = [];
  private pending: Member[] = [];
  private flushScheduled = false;
  /** Set from a COMMIT until its flush has ended: no other COMMIT, and no read outside, meanwhile. */
  private flushing = false;
  private readonly afterFlush: (() => void)[] = [];

  /** Reads answered by the read-only connection, for tests. */
  readerReads = 0;

  constructor(
    private readonly database: BetterSqlite3.Database,
    private readonly prepare: (sql: string) => BetterSqlite3.Statement,
    /** A read-only connection to the same file (WAL: it sees every commit at once), closed with this one. */
    private readonly reader: { prepare: (sql: string) => BetterSqlite3.Statement; close(): void },
    private readonly wal: WalFlusher,
  ) {}

  /**
   * A read outside the group, on the read-only connection: it sees what is committed and flushed,
   * without committing what is pending.
   */
  private readOutside<R>(sql: string, parameters: readonly unknown[]): R[] | Promise<R[]> | undefined {
    if (!READ_SQL.test(sql)) return undefined;
    const statement = this.reader.prepare(sql);
    if (!statement.readonly || !statement.reader) return undefined;
    this.readerReads++;
    if (!this.flushing) return rowsOf<R>(statement, parameters);
    return new Promise<R[]>((resolve, reject) =>
      this.afterFlush.push(() => {
        try {
          resolve(rowsOf<R>(statement, parameters));
        } catch (error) {
          reject(error);
        }
      }),
    );
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
    if (statement.readonly) return rowsOf<R>(statement, parameters);
    const rows = this.runInGroup<R>(statement, parameters).rows;
    return this.joinGroup().then(() => rows);
  }

  /** One statement in the open group, without a savepoint: SQLite undoes a failed statement by itself, and nothing more. */
  private runInGroup<R>(statement: BetterSqlite3.Statement, parameters: readonly unknown[]): QueryResult<R> {
    this.openGroup();
    try {
      return runStatement<R>(statement, parameters);
    } catch (error) {
      this.afterFailure();
      throw error;
    }
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

  /**
   * A statement of Kysely's: a member's runs in its savepoint; a read outside goes to the read-only
   * connection; a write outside joins the group, and `committed` tells when it is on disk.
   */
  execute<R>(query: CompiledQuery, member: boolean): { result: QueryResult<R> | Promise<QueryResult<R>>; committed?: Promise<void> } {
    if (!member) {
      const outside = this.readOutside<R>(query.sql, query.parameters);
      if (outside) return { result: Array.isArray(outside) ? { rows: outside } : outside.then((rows) => ({ rows })) };
    }
    const statement = this.prepare(query.sql);
    if (member || statement.readonly) return { result: runStatement<R>(statement, query.parameters) };
    const result = this.runInGroup<R>(statement, query.parameters);
    return { result, committed: this.joinGroup() };
  }

  beginMember(): void {
    this.openGroup();
    this.run('savepoint group_member');
  }

  /** Keeps the member's work in the group; settles with the group's COMMIT and its flush. */
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

  /**
   * Commits what is pending and flushes the log; only called while no member is halfway through
   * its work. While an earlier COMMIT waits for its flush, this waits too: the flush's end commits.
   */
  private commitGroup(): void {
    if (this.flushing) return;
    const members = this.commit();
    if (!members) return;
    this.flushing = true;
    this.wal.flush().then(
      () => this.flushed(members),
      (error: unknown) => this.flushed(members, error),
    );
  }

  /** The COMMIT itself: the members it holds, or undefined when nothing was pending or it failed (its members are told). */
  private commit(): Member[] | undefined {
    if (!this.database.inTransaction) return undefined;
    const members = this.pending;
    this.pending = [];
    try {
      this.run('commit');
    } catch (error) {
      if (this.database.inTransaction) this.run('rollback');
      for (const member of members) member.reject(error);
      return undefined;
    }
    this.commits++;
    return members;
  }

  /** The log is on disk (or the flush failed): the members hear of it, the reads that waited run, the next group commits. */
  private flushed(members: Member[], error?: unknown): void {
    this.flushing = false;
    for (const member of members) {
      if (error === undefined) member.resolve();
      else member.reject(error);
    }
    for (const read of this.afterFlush.splice(0)) read();
    if (!this.held) this.commitGroup();
  }

  /** Waits for a flush under way, then commits and flushes what is pending, on this thread. */
  async close(): Promise<void> {
    while (this.flushing) await new Promise<void>((resolve) => this.afterFlush.push(resolve));
    const members = this.commit();
    if (members) {
      this.wal.flushNow();
      for (const member of members) member.resolve();
    }
    this.database.close();
    this.reader.close();
    this.wal.close();
  }

  private scheduleFlush(): void {
    if (this.flushScheduled || this.pending.length === 0) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      // Held: the holder's unlock() schedules the flush again.
      if (!this.held) this.commitGroup();
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

interface Member {
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * What Kysely compiles a read to. Anything else stays on the main connection: a pragma reads or sets
 * that connection's own settings; a write, `RETURNING` included, is refused by the reader anyway.
 */
const READ_SQL = /^\s*(select|with)\b/i;

function runStatement<R>(statement: BetterSqlite3.Statement, parameters: readonly unknown[]): QueryResult<R> {
  if (statement.reader) return { rows: rowsOf<R>(statement, parameters) };
  const { changes, lastInsertRowid } = statement.run(parameters);
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
}

/** The rows as Kysely's own SQLite driver returns them, typed as it types them. */
function rowsOf<R>(statement: BetterSqlite3.Statement, parameters: readonly unknown[]): R[] {
  return statement.all(parameters) as R[];
}

/** Kysely's view of the connection while one caller holds it. */
class HeldConnection implements DatabaseConnection {
  member = false;
  /** Set once a member's commit has handed the connection over: nothing may run on it any more. */
  handedOver = false;
  /** Writes made outside a transaction: their caller hears of them once they are on disk, after the connection is released. */
  readonly committed: Promise<void>[] = [];

  constructor(private readonly owner: GroupCommitSqlite) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.handedOver) throw new Error('This connection was handed over when its transaction committed');
    const { result, committed } = this.owner.execute<R>(query, this.member);
    if (committed) this.committed.push(committed);
    return result;
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

  /** Kysely awaits this before answering the statements run on the connection: a write outside a transaction is answered once on disk. */
  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const state = held(connection);
    if (!state.handedOver) this.owner.unlock();
    await Promise.all(state.committed);
  }

  async destroy(): Promise<void> {
    await this.owner.close();
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
