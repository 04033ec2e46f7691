import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../src/clock.js';
import { openDatabase } from '../src/db/database.js';
import { createOrganization } from '../src/organizations/organizations.js';
import { closedPort } from './support/ports.js';
import { dropSchema } from './support/postgres.js';
import { dialects } from './support/service.js';
import { startServiceProcess } from './support/service-process.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

const postgresUrl = process.env.TEST_DATABASE_URL;

describe.each(dialects)('a crash loses nothing already committed (%s)', (dialect) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('kill -9 mid-delivery, restart: every event is delivered at least once', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-crash-'));
    const schema = `crash_${crypto.randomBytes(4).toString('hex')}`;
    const port = await closedPort();
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      DATA_DIR: dataDir,
      PORT: String(port),
      LOCAL_CHAT_PORT: 'off',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      OUTBOX_BATCH_SIZE: '5',
      // Claims of a killed process lapse after the lease; a short one keeps the test from waiting a minute.
      WEBHOOK_TIMEOUT_MS: '1000',
      OUTBOX_LEASE_MS: '2000',
      ...(dialect === 'postgres' && postgresUrl ? { DATABASE_URL: postgresUrl, DATABASE_SCHEMA: schema } : {}),
    };
    cleanups.push(async () => {
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (dialect === 'postgres' && postgresUrl) await dropSchema(postgresUrl, schema);
    });

    const database = await openDatabase({ dataDir, databaseUrl: env.DATABASE_URL, databaseSchema: env.DATABASE_SCHEMA ?? 'public' });
    const org = await createOrganization(database.db, systemClock, { name: 'Crash', email: 'c@c.test' });
    await database.close();

    const receiver = new WebhookReceiver();
    const receiverUrl = await receiver.start();
    cleanups.push(() => receiver.close());
    // Slow answers keep deliveries in flight when the process is killed.
    receiver.respond = () => ({ status: 200, delayMs: 150 });

    const base = `http://127.0.0.1:${port}`;
    const start = () => startServiceProcess({ env, base, cleanups });
    const api = (method: string, url: string, body?: unknown) =>
      fetch(`${base}/v1.5/ext${url}`, {
        method,
        headers: { authorization: org.privateKey, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }).then((r) => r.json());

    const first = await start();
    const webhook = await api('POST', '/webhooks', { name: 'default', url: receiverUrl });
    receiver.secret = webhook.secret;
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) ids.push((await api('POST', '/webhooks/test', { name: 'default' })).id);

    await expect.poll(() => receiver.received.length, { timeout: 20_000, interval: 20 }).toBeGreaterThanOrEqual(5);
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    const beforeRestart = new Set(receiver.received.map((r) => r.id)).size;
    expect(beforeRestart).toBeLessThan(40);

    await start();
    const expected = new Set(ids.map((id) => `msg_${id}`));
    await expect.poll(() => [...expected].every((id) => receiver.received.some((r) => r.id === id)), { timeout: 30_000, interval: 100 }).toBe(true);
    expect(receiver.received.every((r) => r.verified)).toBe(true);
  }, 180_000);
});
