import { type ChildProcess, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.js';
import { dropSchema } from './support/postgres.js';

const root = path.resolve(import.meta.dirname, '..');
const postgresUrl = process.env.TEST_DATABASE_URL;

interface Started {
  child: ChildProcess;
  /** Resolves when the service says it started, or when the process ends first (with its exit code). */
  outcome: Promise<{ started: boolean; code: number | null; stderr: string }>;
}

/** The real service, `src/server.ts`, on a data folder and a free port. */
function startService(dataDir: string): Started {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const outcome = new Promise<{ started: boolean; code: number | null; stderr: string }>((resolve) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      if (stdout.includes('service started')) resolve({ started: true, code: null, stderr });
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('exit', (code) => resolve({ started: false, code, stderr }));
  });
  return { child, outcome };
}

const running: ChildProcess[] = [];
afterEach(() => {
  for (const child of running.splice(0)) child.kill('SIGKILL');
});

describe('a second instance on the same SQLite data folder refuses to start', () => {
  it('says the folder is in use and exits 1; once the first is killed with SIGKILL, a new one starts', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-lock-'));
    try {
      const first = startService(dataDir);
      running.push(first.child);
      expect((await first.outcome).started).toBe(true);

      const second = startService(dataDir);
      running.push(second.child);
      const refused = await second.outcome;
      expect(refused.started).toBe(false);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`The data folder ${dataDir} is in use by another instance of the service`);

      first.child.kill('SIGKILL');
      await new Promise((resolve) => first.child.once('exit', resolve));
      const third = startService(dataDir);
      running.push(third.child);
      expect((await third.outcome).started).toBe(true);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('other data folders are not affected', async () => {
    const [a, b] = [fs.mkdtempSync(path.join(os.tmpdir(), 'svc-a-')), fs.mkdtempSync(path.join(os.tmpdir(), 'svc-b-'))];
    try {
      const first = startService(a);
      const second = startService(b);
      running.push(first.child, second.child);
      expect((await first.outcome).started).toBe(true);
      expect((await second.outcome).started).toBe(true);
    } finally {
      fs.rmSync(a, { recursive: true, force: true });
      fs.rmSync(b, { recursive: true, force: true });
    }
  }, 60_000);
});

describe.skipIf(!postgresUrl)('any number of instances can start together on a new PostgreSQL schema', () => {
  it('six openDatabase() at once on a fresh schema all succeed, five times over', async () => {
    for (let round = 0; round < 5; round++) {
      const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
      try {
        const opened = await Promise.allSettled(
          Array.from({ length: 6 }, () => openDatabase({ databaseUrl: postgresUrl, databaseSchema: schema, dataDir: os.tmpdir() })),
        );
        const failures = opened.filter((result) => result.status === 'rejected').map((result) => String(result.reason));
        for (const result of opened) if (result.status === 'fulfilled') await result.value.close();
        expect(failures).toEqual([]);
      } finally {
        await dropSchema(postgresUrl!, schema);
      }
    }
  });
});

describe.skipIf(!postgresUrl)('an instance starts whatever happens to other schemas of the same database', () => {
  it('opening a schema while other schemas are created and dropped side by side always succeeds', async () => {
    let churning = true;
    // Other tenants (or tests) creating and dropping schemas with tables, as fast as they can.
    const churner = async () => {
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      try {
        while (churning) {
          const other = `churn_${crypto.randomBytes(6).toString('hex')}`;
          // Separate statements, each committed: others see the table, then see it go.
          await client.query(`CREATE SCHEMA "${other}"`);
          await client.query(`CREATE TABLE "${other}".t (id serial PRIMARY KEY, v text)`);
          await client.query(`DROP SCHEMA "${other}" CASCADE`);
        }
      } finally {
        await client.end();
      }
    };
    const churn = Promise.all([churner(), churner(), churner()]);
    const failures: string[] = [];
    try {
      for (let round = 0; round < 10; round++) {
        const schemas = Array.from({ length: 3 }, () => `t_${crypto.randomBytes(6).toString('hex')}`);
        const opened = await Promise.allSettled(
          schemas.map((schema) => openDatabase({ databaseUrl: postgresUrl, databaseSchema: schema, dataDir: os.tmpdir() })),
        );
        for (const result of opened) {
          if (result.status === 'fulfilled') await result.value.close();
          else failures.push(String(result.reason));
        }
        for (const schema of schemas) await dropSchema(postgresUrl!, schema);
      }
    } finally {
      churning = false;
      await churn;
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it("opening a schema does not wait for another application's Kysely migrations on the same database", async () => {
    // Kysely's migrator locks one key for the whole database (its PostgresAdapter's LOCK_ID): here
    // another application on the same database is in the middle of its migrations and holds it.
    const other = new pg.Client({ connectionString: postgresUrl });
    await other.connect();
    const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
    try {
      await other.query('SELECT pg_advisory_lock(3853314791062309107)');
      const handle = await Promise.race([
        openDatabase({ databaseUrl: postgresUrl, databaseSchema: schema, dataDir: os.tmpdir() }),
        new Promise<undefined>((resolve) => setTimeout(resolve, 20_000, undefined)),
      ]);
      expect(handle, 'the schema was opened within 20 s').toBeDefined();
      await handle?.close();
    } finally {
      await other.end();
      await dropSchema(postgresUrl!, schema);
    }
  }, 60_000);
});
