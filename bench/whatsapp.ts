/**
 * WhatsApp inbound throughput: messages people send, handled per second on one core, from Meta's
 * signed POSTs through the durable inbox (one job per number, drained in order) to the service's
 * real conversation (deps.handleChatMessage) and its answer, in the local mailbox. The face matcher
 * is off. The service and the client posting the webhooks share one process, so one core: the
 * figure is the whole path's, the client's share included. Goal: 500 messages per second (issue 26).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createDeps } from '../src/deps.js';
import { dropSchema } from '../test/support/postgres.js';

const MESSAGES = 3000;
const PEOPLE = 300;
const CONCURRENCY = 32;
const GOAL = 500;
const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;

function delivery(from: string, index: number): string {
  return JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550783881', phone_number_id: '106540352242922' },
              contacts: [{ profile: { name: 'Ana Gómez' }, wa_id: from }],
              messages: [
                { from, id: `wamid.bench${index}${crypto.randomBytes(8).toString('hex')}`, timestamp: '1767225600', type: 'text', text: { body: 'Hola' } },
              ],
            },
          },
        ],
      },
    ],
  });
}

async function measure(label: string, env: Record<string, string>): Promise<number> {
  const config = loadConfig({ LOG_LEVEL: 'silent', FACE_MATCHER: 'manual', PORT: '0', HOST: '127.0.0.1', ...env });
  const deps = await createDeps(config);
  const app = await buildApp(config, deps);
  await app.listen({ port: 0, host: '127.0.0.1' });
  deps.startBackgroundWork();
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening');
  const url = `http://127.0.0.1:${address.port}/whatsapp/webhook`;
  const secret = deps.whatsappWebhook.appSecret ?? '';
  const bodies = Array.from({ length: MESSAGES }, (_, i) => delivery(`5730090${String(10_000 + (i % PEOPLE))}`, i));
  const signatures = bodies.map((body) => `sha256=${crypto.createHmac('sha256', secret).update(body).digest('hex')}`);
  try {
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < MESSAGES) {
          const i = next++;
          const res = await fetch(url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-hub-signature-256': signatures[i]! },
            body: bodies[i]!,
          });
          if (res.status !== 200) throw new Error(`webhook answered ${res.status}: ${await res.text()}`);
          await res.arrayBuffer();
        }
      }),
    );
    const stored = performance.now();
    for (;;) {
      const row = await deps.db
        .selectFrom('whatsapp_messages')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('direction', '=', 'in')
        .where('status', '=', 'handled')
        .executeTakeFirstOrThrow();
      if (Number(row.count) >= MESSAGES) break;
      if (performance.now() - started > 300_000) throw new Error(`only ${row.count} of ${MESSAGES} handled after 5 minutes`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const seconds = (performance.now() - started) / 1000;
    const perSecond = MESSAGES / seconds;
    console.log(
      `WhatsApp inbound, ${label}: ${MESSAGES} messages from ${PEOPLE} numbers in ${seconds.toFixed(2)} s (stored in ${((stored - started) / 1000).toFixed(2)} s): ${perSecond.toFixed(0)} handled/s (goal ${GOAL}/s)`,
    );
    return perSecond;
  } finally {
    await app.close();
    await deps.close();
  }
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-whatsapp-'));
try {
  await measure('SQLite', { DATA_DIR: dataDir });
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
if (postgresUrl) {
  const schema = `bench_wa_${crypto.randomBytes(4).toString('hex')}`;
  const pgDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-whatsapp-'));
  try {
    await measure('PostgreSQL', { DATA_DIR: pgDir, DATABASE_URL: postgresUrl, DATABASE_SCHEMA: schema });
  } finally {
    fs.rmSync(pgDir, { recursive: true, force: true });
    await dropSchema(postgresUrl, schema);
  }
}
