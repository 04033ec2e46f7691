import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type DatabaseHandle, type Db, openDatabase } from '../src/db/database.js';
import { reusableQuery } from '../src/db/reusable-query.js';
import { type GroupCommitSqlite, groupCommitOf } from '../src/db/sqlite-group-commit.js';

const organizationInsert = reusableQuery((db, p: { id: string; name: string; createdAt: string }) =>
  db.insertInto('organizations').values({ id: p.id, name: p.name, sdk_integration: 0, created_at: p.createdAt }),
);
const insertOrganization = (db: Db, id: string, name: string, createdAt: string) => organizationInsert(db, { id, name, createdAt });
const organizationNamed = reusableQuery((db, p: { name: string }) => db.selectFrom('organizations').select('id').where('name', '=', p.name));

/** Holds back the flushes of files (the real fdatasync, called once released), to look at what happens while the disk works. */
function holdFlushes(): { held(): number; release(): void } {
  const real = fs.fdatasync;
  const held: (() => void)[] = [];
  const spy = vi.spyOn(fs, 'fdatasync').mockImplementation((fd, callback) => {
    held.push(() => real(fd, callback));
  });
  return {
    held: () => held.length,
    release: () => {
      spy.mockRestore();
      for (const flush of held.splice(0)) flush();
    },
  };
}

function settles<T>(promise: Promise<T>): { promise: Promise<T>; settled: boolean } {
  const state = { promise, settled: false };
  promise.then(
    () => {
      state.settled = true;
    },
    () => {
      state.settled = true;
    },
  );
  return state;
}

const nextTurns = async (turns: number) => {
  for (let i = 0; i < turns; i++) await new Promise((resolve) => setImmediate(resolve));
};

async function until(condition: () => boolean): Promise<void> {
  for (let turn = 0; !condition(); turn++) {
    if (turn > 1000) throw new Error('the condition never held');
    await nextTurns(1);
  }
}

describe('SQLite group commit: writes arriving together commit together, and nobody hears of a write before it is committed', () => {
  let dataDir: string;
  let handle: DatabaseHandle;
  let db: Db;
  let group: GroupCommitSqlite;
  /** Another connection to the same file: it sees only what is committed. */
  let outside: BetterSqlite3.Database;

  beforeEach(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'group-commit-'));
    handle = await openDatabase({ databaseUrl: undefined, databaseSchema: 'public', dataDir });
    db = handle.db;
    const found = groupCommitOf(db);
    if (!found) throw new Error('a SQLite store has a group commit');
    group = found;
    outside = new BetterSqlite3(path.join(dataDir, 'service.sqlite'), { readonly: true });
    // Both organizations of every data test; the writes below add more beside them.
    await insertOrganization(db, 'org-a', 'Acme', '2026-01-01T00:00:00.000Z');
    await insertOrganization(db, 'org-b', 'Globex', '2026-01-01T00:00:00.000Z');
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    outside.close();
    await handle.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const committedNames = () => (outside.prepare('select name from organizations order by name').all() as { name: string }[]).map((row) => row.name);
  const addInTransaction = (name: string, fail = false) =>
    db.transaction().execute(async (trx) => {
      await trx
        .insertInto('organizations')
        .values({ id: `id-${name}`, name, sdk_integration: 0, created_at: '2026-01-02T00:00:00.000Z' })
        .execute();
      if (fail) throw new Error(`${name} fails`);
    });

  describe('transactions started together commit in one COMMIT', () => {
    it('twenty transactions: all succeed, one COMMIT, every row stored', async () => {
      const before = group.commits;
      const names = Array.from({ length: 20 }, (_, i) => `Org ${String(i).padStart(2, '0')}`);
      await Promise.all(names.map((name) => addInTransaction(name)));
      expect(group.commits - before).toBe(1);
      expect(committedNames()).toEqual(['Acme', 'Globex', ...names]);
    });
  });

  describe('a write is acknowledged only once it is committed', () => {
    it('a direct write is invisible to another connection until its promise settles, then visible', async () => {
      const written = insertOrganization(db, 'id-initech', 'Initech', '2026-01-02T00:00:00.000Z');
      expect(committedNames()).toEqual(['Acme', 'Globex']);
      await written;
      expect(committedNames()).toEqual(['Acme', 'Globex', 'Initech']);
    });

    it('a transaction is visible to another connection as soon as it resolves', async () => {
      await addInTransaction('Initech');
      expect(committedNames()).toEqual(['Acme', 'Globex', 'Initech']);
    });
  });

  describe('a member that fails rolls back alone; the rest of its group commits', () => {
    it('a transaction that throws: its row is gone, the others of the same COMMIT are stored', async () => {
      const before = group.commits;
      const results = await Promise.allSettled([addInTransaction('Initech'), addInTransaction('Hooli', true), addInTransaction('Umbrella')]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect(group.commits - before).toBe(1);
      expect(committedNames()).toEqual(['Acme', 'Globex', 'Initech', 'Umbrella']);
    });

    it('a direct write that breaks a constraint fails alone', async () => {
      const results = await Promise.allSettled([
        insertOrganization(db, 'id-initech', 'Initech', '2026-01-02T00:00:00.000Z'),
        insertOrganization(db, 'org-a', 'Duplicate of Acme', '2026-01-02T00:00:00.000Z'),
        insertOrganization(db, 'id-umbrella', 'Umbrella', '2026-01-02T00:00:00.000Z'),
      ]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect(committedNames()).toEqual(['Acme', 'Globex', 'Initech', 'Umbrella']);
    });
  });

  describe('anything outside the group sees only committed data', () => {
    it('a read while writes are pending runs on the read-only connection: it neither sees them nor commits them', async () => {
      const before = group.commits;
      const written = insertOrganization(db, 'id-initech', 'Initech', '2026-01-02T00:00:00.000Z');
      const reads = group.readerReads;
      expect(await organizationNamed(db, { name: 'Initech' })).toEqual([]);
      expect(await db.selectFrom('organizations').select('id').where('name', '=', 'Initech').execute()).toEqual([]);
      expect(group.readerReads - reads).toBe(2);
      expect(committedNames()).not.toContain('Initech');
      await written;
      expect(group.commits - before).toBe(1);
      expect((await organizationNamed(db, { name: 'Initech' })).map((row) => row.id)).toEqual(['id-initech']);
    });

    it('a plain Kysely write outside a transaction joins the group and answers once it is committed', async () => {
      const before = group.commits;
      const written = insertOrganization(db, 'id-initech', 'Initech', '2026-01-02T00:00:00.000Z');
      await sql`update organizations set name = 'Initech Ltd' where id = 'id-initech'`.execute(db);
      expect(committedNames()).toContain('Initech Ltd');
      await written;
      expect(group.commits - before).toBe(1);
    });
  });

  describe('a read never misses a write already acknowledged to any client', () => {
    it('reads issued the moment each of many interleaved writes is acknowledged all see it', async () => {
      const names = Array.from({ length: 200 }, (_, i) => `Client ${String(i).padStart(3, '0')}`);
      const missed: string[] = [];
      await Promise.all(
        names.map(async (name, i) => {
          // Writes of both kinds, started in bursts so they share COMMITs with reads running among them.
          if (i % 2 === 0) await addInTransaction(name);
          else await insertOrganization(db, `id-${name}`, name, '2026-01-02T00:00:00.000Z');
          const direct = await organizationNamed(db, { name });
          const built = await db.selectFrom('organizations').select('id').where('name', '=', name).execute();
          if (direct.length !== 1 || built.length !== 1) missed.push(name);
        }),
      );
      expect(missed).toEqual([]);
      expect(group.readerReads).toBeGreaterThan(0);
    });

    it('an organization reads only its rows through the read-only connection', async () => {
      const acme = await db.selectFrom('organizations').select('name').where('id', '=', 'org-a').execute();
      const globex = await db.selectFrom('organizations').select('name').where('id', '=', 'org-b').execute();
      expect(acme).toEqual([{ name: 'Acme' }]);
      expect(globex).toEqual([{ name: 'Globex' }]);
    });
  });

  describe('the log is on disk before anyone hears of a COMMIT or reads it', () => {
    it('no member is told of its write until the flush after its COMMIT has ended', async () => {
      const flushes = holdFlushes();
      const written = settles(insertOrganization(db, 'id-initech', 'Initech', '2026-01-02T00:00:00.000Z'));
      const inTransaction = settles(addInTransaction('Umbrella'));
      await until(() => flushes.held() === 1);
      await nextTurns(3);
      expect(committedNames()).toEqual(['Acme', 'Globex', 'Initech', 'Umbrella']);
      expect([written.settled, inTransaction.settled]).toEqual([false, false]);
      flushes.release();
      await Promise.all([written.promise, inTransaction.promise]);
    });

    it('a read issued while a COMMIT waits for its flush waits for it, then sees the write', async () => {
      const flushes = holdFlushes();
      const written = insertOrganization(db, 'id-initech', 'Initech', '2026-01-02T00:00:00.000Z');
      await until(() => flushes.held() === 1);
      const read = settles(organizationNamed(db, { name: 'Initech' }));
      const built = settles(db.selectFrom('organizations').select('id').where('name', '=', 'Initech').execute());
      await nextTurns(3);
      expect([read.settled, built.settled]).toEqual([false, false]);
      flushes.release();
      expect(await read.promise).toEqual([{ id: 'id-initech' }]);
      expect(await built.promise).toEqual([{ id: 'id-initech' }]);
      await written;
    });

    it('writes arriving while a COMMIT waits for its flush gather into the next COMMIT', async () => {
      const flushes = holdFlushes();
      const before = group.commits;
      const first = insertOrganization(db, 'id-initech', 'Initech', '2026-01-02T00:00:00.000Z');
      await until(() => flushes.held() === 1);
      const names = Array.from({ length: 10 }, (_, i) => `Org ${i}`);
      const later = Promise.all(names.map((name) => addInTransaction(name)));
      await nextTurns(3);
      expect(group.commits - before).toBe(1);
      flushes.release();
      await Promise.all([first, later]);
      expect(group.commits - before).toBe(2);
    });

    it('a flush that fails fails every member of its COMMIT; the next COMMIT flushes again', async () => {
      const failing = vi
        .spyOn(fs, 'fdatasync')
        .mockImplementationOnce((_fd, callback) => callback(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' })));
      const results = await Promise.allSettled([addInTransaction('Initech'), insertOrganization(db, 'id-umbrella', 'Umbrella', '2026-01-02T00:00:00.000Z')]);
      expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
      failing.mockRestore();
      await addInTransaction('Hooli');
      expect(committedNames()).toContain('Hooli');
    });
  });

  describe('reads outside transactions leave the group to grow', () => {
    it('twenty transactions with reads running among them: one COMMIT', async () => {
      const before = group.commits;
      const names = Array.from({ length: 20 }, (_, i) => `Org ${String(i).padStart(2, '0')}`);
      await Promise.all(names.flatMap((name) => [addInTransaction(name), organizationNamed(db, { name: 'Acme' })]));
      expect(group.commits - before).toBe(1);
    });
  });

  describe('when SQLite gives up on the whole transaction, what was acknowledged is exactly what is stored', () => {
    it('a full database: the write that filled it fails, each other write is stored if and only if it succeeded', async () => {
      const pages = Number((outside.pragma('page_count', { simple: true }) as number | bigint).toString());
      await sql.raw(`PRAGMA max_page_count = ${pages + 1}`).execute(db);
      const big = 'x'.repeat(64 * 1024);
      const results = await Promise.allSettled([
        addInTransaction('Initech'),
        db.transaction().execute(async (trx) => {
          await trx.insertInto('organizations').values({ id: 'id-big', name: big, sdk_integration: 0, created_at: '2026-01-02T00:00:00.000Z' }).execute();
        }),
        addInTransaction('Umbrella'),
      ]);
      expect(results[1]?.status).toBe('rejected');
      const stored = committedNames();
      expect(stored).not.toContain(big);
      expect(stored.includes('Initech')).toBe(results[0]?.status === 'fulfilled');
      expect(stored.includes('Umbrella')).toBe(results[2]?.status === 'fulfilled');

      await sql.raw('PRAGMA max_page_count = 1073741823').execute(db);
      await addInTransaction('Hooli');
      expect(committedNames()).toContain('Hooli');
    });
  });
});
