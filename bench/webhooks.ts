/**
 * Webhook delivery throughput: deliveries per second from the outbox to a local receiver, with one
 * and with two service processes sharing one PostgreSQL, and with one process on SQLite.
 * Goal: at least 4,000 deliveries per second on one process, on a ready service (issue 24).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { systemClock } from '../src/clock.js';
import { type DatabaseHandle, openDatabase } from '../src/db/database.js';
import { createOrganization } from '../src/organizations/organizations.js';
import { enqueue, type NewMessage } from '../src/outbox/enqueue.js';
import { createWebhook } from '../src/webhooks/webhooks.js';
import { closedPort } from '../test/support/ports.js';
import { dropSchema } from '../test/support/postgres.js';
import { compareWithLastRecorded } from './last-recorded.js';
import { healthAt, waitUntilReady } from './ready.js';

const root = path.resolve(import.meta.dirname, '..');
const MESSAGES = 10_000;
const GOAL = 4000;
const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** The cheapest receiver there is: it counts distinct message ids and answers 204. */
class Receiver {
  readonly seen = new Set<string>();
  private lastAt = 0;
  private readonly server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      this.seen.add(String(request.headers['webhook-id']));
      this.lastAt = performance.now();
      response.writeHead(204).end();
    });
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    return `http://127.0.0.1:${address.port}/hooks`;
  }

  async waitFor(count: number, timeoutMs: number): Promise<number> {
    const deadline = performance.now() + timeoutMs;
    while (this.seen.size < count && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    return this.lastAt;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

interface Store {
  label: string;
  env: Record<string, string>;
  open(): Promise<DatabaseHandle>;
  drop(): Promise<void>;
}

function sqliteStore(): Store {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-hooks-'));
  return {
    label: 'SQLite',
    env: { DATA_DIR: dataDir },
    open: () => openDatabase({ dataDir, databaseUrl: undefined, databaseSchema: 'public' }),
    drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
  };
}

function postgresStore(): Store {
  const schema = `bench_${crypto.randomBytes(4).toString('hex')}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-hooks-'));
  return {
    label: 'PostgreSQL',
    env: { DATA_DIR: dataDir, DATABASE_URL: postgresUrl, DATABASE_SCHEMA: schema },
    open: () => openDatabase({ dataDir, databaseUrl: postgresUrl, databaseSchema: schema }),
    async drop() {
      await dropSchema(postgresUrl, schema);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function startService(env: Record<string, string>): Promise<ChildProcess> {
  const port = await closedPort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', WEBHOOK_ALLOW_PRIVATE: 'true' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitUntilReady(healthAt(`http://127.0.0.1:${port}`));
    return child;
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
}

async function measure(store: Store, processes: number): Promise<number> {
  const receiver = new Receiver();
  const url = await receiver.start();
  const children: ChildProcess[] = [];
  try {
    const database = await store.open();
    const org = await createOrganization(database.db, systemClock, { name: 'Bench', email: 'bench@bench.test' });
    const webhook = await createWebhook(
      { db: database.db, clock: systemClock, allowPrivateUrls: true },
      { organizationId: org.organization, input: { name: 'default', url, enabled: true, format: 'typed' } },
    );
    const webhookId = (await database.db.selectFrom('webhooks').select('id').where('name', '=', webhook.name).executeTakeFirstOrThrow()).id;
    for (let i = 0; i < processes; i++) children.push(await startService(store.env));

    const started = performance.now();
    for (let offset = 0; offset < MESSAGES; offset += 1000) {
      const batch: NewMessage[] = Array.from({ length: 1000 }, (_, i) => ({
        kind: 'webhook',
        organizationId: org.organization,
        payload: { webhookId, event: { type: 'bench.event', timestamp: new Date().toISOString(), data: { code: `B${offset + i}` } } },
      }));
      await database.db.transaction().execute((trx) => enqueue(trx, systemClock, batch));
    }
    const lastAt = await receiver.waitFor(MESSAGES, 120_000);
    await database.close();
    if (receiver.seen.size < MESSAGES) throw new Error(`only ${receiver.seen.size} of ${MESSAGES} delivered`);
    return MESSAGES / ((lastAt - started) / 1000);
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map((c) => new Promise((resolve) => (c.exitCode === null ? c.once('exit', resolve) : resolve(null)))));
    await receiver.close();
    await store.drop();
  }
}

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: postgresUrl, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

const rows: [string, number][] = [];
rows.push(['SQLite, 1 process', await measure(sqliteStore(), 1)]);
if (await postgresReachable()) {
  rows.push(['PostgreSQL, 1 process', await measure(postgresStore(), 1)]);
  rows.push(['PostgreSQL, 2 processes', await measure(postgresStore(), 2)]);
} else {
  process.stdout.write(`PostgreSQL not reachable at ${postgresUrl}: set BENCH_DATABASE_URL to include it\n`);
}

process.stdout.write(`\nWebhook deliveries to a local receiver (${MESSAGES} messages each, enqueued in batches of 1,000)\n`);
for (const [label, rate] of rows) {
  const verdict = label.includes('1 process') ? (rate >= GOAL ? 'PASS' : 'MISS') : '';
  process.stdout.write(`  ${label.padEnd(26)} ${Math.round(rate).toString().padStart(7)} deliveries/s  ${verdict} ${verdict ? `(goal ${GOAL}/s)` : ''}\n`);
}
compareWithLastRecorded(
  'webhooks',
  rows.map(([label, rate]) => ({ name: label, value: Math.round(rate), unit: 'deliveries/s', better: 'higher' })),
);
