import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type GraphApiStandIn, startGraphApi } from './support/graph-api.js';
import { metaSignature, textMessage, webhookBody } from './support/meta-webhooks.js';
import { closedPort } from './support/ports.js';
import { dropSchema } from './support/postgres.js';
import { dialects } from './support/service.js';
import { startServiceProcess } from './support/service-process.js';
import { APP_SECRET } from './support/whatsapp-service.js';

const postgresUrl = process.env.TEST_DATABASE_URL;
const PEOPLE = 40;

describe.each(dialects)('a kill -9 after the 200 loses no WhatsApp message (%s)', (dialect) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('every message answered 200 is handled and answered after a restart, though the first process died before it could', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-wa-crash-'));
    const schema = `wacrash_${crypto.randomBytes(4).toString('hex')}`;
    const graph: GraphApiStandIn = await startGraphApi();
    cleanups.push(() => graph.close());
    const port = await closedPort();
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      DATA_DIR: dataDir,
      PORT: String(port),
      LOCAL_CHAT_PORT: 'off',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      FACE_MATCHER: 'manual',
      WHATSAPP_TOKEN: graph.token,
      WHATSAPP_PHONE_NUMBER_ID: graph.phoneNumberId,
      WHATSAPP_API_URL: graph.url,
      WHATSAPP_APP_SECRET: APP_SECRET,
      // Claims of a killed process lapse after the lease; a short one keeps the test from waiting a minute.
      WEBHOOK_TIMEOUT_MS: '1000',
      MESSAGE_TIMEOUT_MS: '1000',
      OUTBOX_LEASE_MS: '2000',
      ...(dialect === 'postgres' && postgresUrl ? { DATABASE_URL: postgresUrl, DATABASE_SCHEMA: schema } : {}),
    };
    cleanups.push(async () => {
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (dialect === 'postgres' && postgresUrl) await dropSchema(postgresUrl, schema);
    });
    const base = `http://127.0.0.1:${port}`;
    const start = () => startServiceProcess({ env, base, cleanups });

    // Meta is slow to take the answers: the first process dies with its work on them unfinished.
    graph.sendDelayMs = 1500;
    const first = await start();
    const numbers = Array.from({ length: PEOPLE }, (_, i) => `5730055${String(10_000 + i)}`);
    const answers = await Promise.all(
      numbers.map((from) => {
        const raw = JSON.stringify(webhookBody({ messages: [textMessage({ from, text: 'Hola' })] }));
        return fetch(`${base}/whatsapp/webhook`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-hub-signature-256': metaSignature(raw, APP_SECRET) },
          body: raw,
        }).then((res) => res.status);
      }),
    );
    expect(answers.every((status) => status === 200)).toBe(true);
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    const answeredBefore = new Set(graph.sent.map((sent) => sent.to));
    expect(answeredBefore.size).toBeLessThan(PEOPLE);

    graph.sendDelayMs = 0;
    await start();
    await expect.poll(() => numbers.filter((number) => !graph.sent.some((sent) => sent.to === number)), { timeout: 30_000, interval: 100 }).toEqual([]);
    // Each answer is the conversation's polite text to a number with nothing open.
    for (const number of numbers) {
      const texts = graph.sent.filter((sent) => sent.to === number).map((sent) => sent.body.type);
      expect(
        texts.every((type) => type === 'text'),
        number,
      ).toBe(true);
    }
  }, 180_000);
});
