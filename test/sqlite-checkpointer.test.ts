import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { type CheckpointReport, startCheckpointer } from '../src/db/sqlite-checkpointer.js';
import { createDeps } from '../src/deps.js';

let dataDir: string;
beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'checkpointer-'));
});
afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** A WAL database whose own connection never checkpoints, holding `rows` pages' worth of writes in its WAL. */
function walWithWrites(rows: number): { file: string; db: BetterSqlite3.Database } {
  const file = path.join(dataDir, 'service.sqlite');
  const db = new BetterSqlite3(file);
  db.pragma('journal_mode = WAL');
  db.pragma('wal_autocheckpoint = 0');
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO t (body) VALUES (?)');
  for (let i = 0; i < rows; i++) insert.run('x'.repeat(3000));
  return { file, db };
}

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('The WAL is copied into the database off the event loop', () => {
  it('a background connection checkpoints every frame the writer left in the WAL', async () => {
    const { file, db } = walWithWrites(300);
    const reports: CheckpointReport[] = [];
    const errors: Error[] = [];
    const checkpointer = startCheckpointer({ file, intervalMs: 10, onCheckpoint: (r) => reports.push(r), onError: (e) => errors.push(e) });
    await until(() => reports.some((r) => r.logFrames >= 300 && r.checkpointedFrames === r.logFrames));
    await checkpointer.stop();
    expect(errors).toEqual([]);
    // The writer's next transaction starts the WAL over: every frame was in the database already.
    db.prepare('INSERT INTO t (body) VALUES (?)').run('y');
    expect(db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 301 });
    expect(db.pragma('wal_checkpoint(PASSIVE)')).toEqual([{ busy: 0, log: 1, checkpointed: 1 }]);
    db.close();
  });

  it('once stopped it reports nothing more, and the database stays usable', async () => {
    const { file, db } = walWithWrites(10);
    const reports: CheckpointReport[] = [];
    const checkpointer = startCheckpointer({ file, intervalMs: 10, onCheckpoint: (r) => reports.push(r) });
    await until(() => reports.length > 0);
    await checkpointer.stop();
    const seen = reports.length;
    db.prepare('INSERT INTO t (body) VALUES (?)').run('after');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(reports.length).toBe(seen);
    expect(db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 11 });
    db.close();
  });

  it('a missing database file is reported as an error, not a crash', async () => {
    const errors: Error[] = [];
    const checkpointer = startCheckpointer({ file: path.join(dataDir, 'absent.sqlite'), intervalMs: 10, onError: (e) => errors.push(e) });
    await until(() => errors.length > 0);
    await checkpointer.stop();
    expect(fs.existsSync(path.join(dataDir, 'absent.sqlite'))).toBe(false);
  });

  it('a serving instance runs it with its background work, and closing ends it', async () => {
    const deps = await createDeps(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }));
    deps.startBackgroundWork();
    await deps.close();
    const db = new BetterSqlite3(path.join(dataDir, 'service.sqlite'));
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
  });
});
