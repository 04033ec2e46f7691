/**
 * The WhatsApp conversation, end to end: Meta's signed POSTs through the durable inbox (one job per
 * number, drained in order) to the service's real conversation (deps.handleChatMessage) and its
 * answers, in the local mailbox. Two figures (issue 26):
 *
 * - messages handled per second on one core, face matcher off (goal: 500/s). 300 people each have
 *   a signature open in WhatsApp; each taps "Empezar" (the documents are sent to them), then writes
 *   nine more messages the conversation answers with the current step. The service and the client
 *   posting the webhooks share one process, so one core: the client's share is in the figure.
 *   With PostgreSQL on this machine, the CPU its processes used a message too.
 * - a photo's time from the webhook to the answer with the face matcher on: a face validation in
 *   WhatsApp, the ID's front sent, then the face; the time from posting the face to the outcome's
 *   message handed to the sender.
 *
 * Both count only once the service reports itself ready (GET /health 200). It prints figures, it is
 * not a test: a missed goal still exits 0.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { buildApp } from '../src/app.js';
import { systemClock } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import { createDeps, type Deps } from '../src/deps.js';
import { createOrganization } from '../src/organizations/organizations.js';
import { storeLocalChatMedia } from '../src/whatsapp/media/local-media.js';
import { identityCard, selfie } from '../test/support/face-photos.js';
import { dropSchema } from '../test/support/postgres.js';
import { healthOf, waitUntilReady } from './ready.js';

const PEOPLE = 300;
const MESSAGES_EACH = 10;
const MESSAGES = PEOPLE * MESSAGES_EACH;
const CONCURRENCY = 32;
const GOAL = 500;
const PHOTO_RUNS = 5;
const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;

type Content = { type: 'text'; text: { body: string } } | { type: 'image'; image: { id: string; mime_type: string } };

/** One message as Meta delivers it: the whatsapp_business_account envelope. */
function delivery(from: string, content: Content): string {
  const id = `wamid.bench${crypto.randomBytes(12).toString('hex')}`;
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
              messages: [{ from, id, timestamp: String(Math.floor(Date.now() / 1000)), ...content }],
            },
          },
        ],
      },
    ],
  });
}

/**
 * One of Meta's POSTs, signed as Meta signs them. Meta's POSTs come from Meta's machines: the
 * client's share of this one core is kept small with node:http over kept-alive connections (fetch
 * cost as much CPU as the service's handling).
 */
function signedPost(options: { agent: http.Agent; url: string; secret: string; body: string }): Promise<void> {
  const { agent, url, secret, body } = options;
  return new Promise<void>((resolve, reject) => {
    const signature = `sha256=${crypto.createHmac('sha256', secret).update(body).digest('hex')}`;
    const request = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-hub-signature-256': signature },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`webhook answered ${res.statusCode}: ${Buffer.concat(chunks)}`))));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

interface Service {
  deps: Deps;
  url: string;
  api: (path: string, body: unknown) => Promise<unknown>;
  post: (body: string) => Promise<void>;
  close: () => Promise<void>;
}

async function startService(env: Record<string, string>): Promise<Service> {
  const config = loadConfig({ LOG_LEVEL: 'silent', PORT: '0', HOST: '127.0.0.1', ...env });
  const deps = await createDeps(config);
  const app = await buildApp(config, deps);
  await app.listen({ port: 0, host: '127.0.0.1' });
  deps.startBackgroundWork();
  await waitUntilReady(healthOf(app));
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening');
  const base = `http://127.0.0.1:${address.port}`;
  const org = await createOrganization(deps.db, systemClock, { name: 'Bench', email: 'bench@bench.test' });
  const secret = deps.whatsappWebhook.appSecret ?? '';
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  return {
    deps,
    url: base,
    async api(route, body) {
      const res = await fetch(`${base}/v1.5/ext${route}`, {
        method: 'POST',
        headers: { authorization: org.privateKey, 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'bench@bench.test', ...(body as object) }),
      });
      if (res.status !== 200) throw new Error(`${route} answered ${res.status}: ${await res.text()}`);
      return res.json();
    },
    post: (body) => signedPost({ agent, url: `${base}/whatsapp/webhook`, secret, body }),
    async close() {
      agent.destroy();
      await app.close();
      await deps.close();
    },
  };
}

async function onePagePdf(): Promise<string> {
  const document = await PDFDocument.create();
  document.addPage([400, 500]).drawText('Contrato', { x: 40, y: 450, size: 14, font: await document.embedFont(StandardFonts.Helvetica) });
  return Buffer.from(await document.save()).toString('base64');
}

async function handled(deps: Deps): Promise<number> {
  const row = await deps.db
    .selectFrom('whatsapp_messages')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('direction', '=', 'in')
    .where('status', '=', 'handled')
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * CPU time, in ms, of the PostgreSQL server's processes on this machine (Linux's /proc), or
 * undefined when none is seen here: on a machine the service shares with its database, the
 * database's CPU a message limits the figure as much as the service's (docs/benchmarks.md).
 */
function localPostgresCpuMs(): number | undefined {
  if (!fs.existsSync('/proc/self/stat')) return undefined;
  let ticks: number | undefined;
  for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // a process that ended while the list was read
    }
    if (!stat.includes('(postgres)')) continue;
    // utime and stime, the 14th and 15th fields, counted after the command's closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks = (ticks ?? 0) + Number(fields[11]) + Number(fields[12]);
  }
  // Linux counts them in hundredths of a second (USER_HZ).
  return ticks === undefined ? undefined : ticks * 10;
}

const texts = ['Empezar', ...Array.from({ length: MESSAGES_EACH - 1 }, (_, i) => (i % 3 === 2 ? 'AYUDA' : 'Hola, ¿qué hago ahora?'))];

/** The numbers of `count` people, apart from the other figures' by `prefix`. */
function numbersOf(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}${String(10_000 + i)}`);
}

/** Each person's messages in the order they wrote them; the people side by side. */
async function postAll(post: (body: string) => Promise<void>, numbers: string[]): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < PEOPLE) {
        const number = numbers[next++] ?? '';
        for (const text of texts) await post(delivery(number, { type: 'text', text: { body: text } }));
      }
    }),
  );
}

/**
 * The baseline: the same signed POSTs from the same client to a Fastify route that only parses
 * them and answers 200, in this process. Machines here have differed two- to threefold in speed
 * (docs/benchmarks.md): the ratio to it tells a slower machine from slower code.
 */
async function bareRate(): Promise<number> {
  const bare = Fastify({ logger: false });
  bare.post('/whatsapp/webhook', async () => '');
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const address = bare.server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening');
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  try {
    const url = `http://127.0.0.1:${address.port}/whatsapp/webhook`;
    const numbers = numbersOf('5730092', PEOPLE);
    const post = (body: string) => signedPost({ agent, url, secret: 'bare', body });
    await postAll(post, numbers); // warm-up
    const started = performance.now();
    await postAll(post, numbers);
    const perSecond = MESSAGES / ((performance.now() - started) / 1000);
    console.log(`Bare Fastify POST (baseline): ${MESSAGES} signed webhook POSTs, ${perSecond.toFixed(0)}/s`);
    return perSecond;
  } finally {
    agent.destroy();
    await bare.close();
  }
}

async function throughput(label: string, env: Record<string, string>, bare: number): Promise<void> {
  const service = await startService({ FACE_MATCHER: 'manual', ...env });
  try {
    const file = await onePagePdf();
    const numbers = numbersOf('5730090', PEOPLE);
    for (const number of numbers) {
      await service.api('/document/upload', {
        name: 'Contrato',
        file,
        signProfile: [{ name: 'Ana Gómez', email: `ana${number}@bench.test`, phone: `+${number}`, options: { whatsapp: true } }],
      });
    }
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    const databaseBefore = env.DATABASE_URL === undefined ? undefined : localPostgresCpuMs();
    await postAll(service.post, numbers);
    const stored = performance.now();
    while ((await handled(service.deps)) < MESSAGES) {
      if (performance.now() - started > 300_000) throw new Error(`only ${await handled(service.deps)} of ${MESSAGES} handled after 5 minutes`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const databaseAfter = databaseBefore === undefined ? undefined : localPostgresCpuMs();
    const database =
      databaseBefore === undefined || databaseAfter === undefined
        ? ''
        : `; the database's CPU ${((databaseAfter - databaseBefore) / MESSAGES).toFixed(2)} ms a message`;
    console.log(
      `WhatsApp inbound, ${label}: ${MESSAGES} messages from ${PEOPLE} people in open signatures in ${seconds.toFixed(2)} s (taken in within ${((stored - started) / 1000).toFixed(2)} s): ${(MESSAGES / seconds).toFixed(0)} handled/s (goal ${GOAL}/s), ${(MESSAGES / seconds / bare).toFixed(2)} × the bare route's POSTs/s in this run; this process's CPU ${((cpu.user + cpu.system) / 1000 / MESSAGES).toFixed(2)} ms a message (less sensitive to a busy machine than the rate)${database}`,
    );
  } finally {
    await service.close();
  }
}

/** The newest message the service queued to `number` after `since`, once the sender has handed it on. */
async function answeredAfter(deps: Deps, number: string, since: string): Promise<boolean> {
  const row = await deps.db
    .selectFrom('whatsapp_messages')
    .select('id')
    .where('phone', '=', number)
    .where('direction', '=', 'out')
    .where('created_at', '>', since)
    .where('status', '!=', 'queued')
    .executeTakeFirst();
  return row !== undefined;
}

async function waitForAnswer(deps: Deps, number: string, since: string): Promise<void> {
  const deadline = performance.now() + 60_000;
  while (!(await answeredAfter(deps, number, since))) {
    if (performance.now() > deadline) throw new Error(`no answer to ${number} within a minute`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function photoAnswer(label: string, env: Record<string, string>): Promise<void> {
  const service = await startService(env);
  try {
    const [card, face] = await Promise.all([identityCard('authorSelected'), selfie('authorPhoto')]);
    const times: number[] = [];
    for (const number of numbersOf('5730091', PHOTO_RUNS)) {
      await service.api('/veriface', {
        platform: 'whatsapp',
        name: 'Juan Pérez',
        phone: `+${number}`,
        country: 'CO',
        type: 'CC',
        identification: '1001001010',
      });
      let since = new Date().toISOString();
      await service.post(delivery(number, { type: 'text', text: { body: 'Empezar' } }));
      await waitForAnswer(service.deps, number, since);
      const cardId = await storeLocalChatMedia(service.deps.blobs, { bytes: card, mimeType: 'image/png' });
      since = new Date().toISOString();
      await service.post(delivery(number, { type: 'image', image: { id: cardId, mime_type: 'image/png' } }));
      await waitForAnswer(service.deps, number, since);
      const faceId = await storeLocalChatMedia(service.deps.blobs, { bytes: face, mimeType: 'image/png' });
      since = new Date().toISOString();
      const started = performance.now();
      await service.post(delivery(number, { type: 'image', image: { id: faceId, mime_type: 'image/png' } }));
      await waitForAnswer(service.deps, number, since);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const ms = (value: number | undefined) => `${(value ?? 0).toFixed(0)} ms`;
    console.log(
      `WhatsApp face photo to its answer, ${label}, face matcher on: median ${ms(times[Math.floor(times.length / 2)])} (min ${ms(times[0])}, max ${ms(times.at(-1))}, ${PHOTO_RUNS} validations)`,
    );
  } finally {
    await service.close();
  }
}

async function onEachStore(measure: (label: string, env: Record<string, string>) => Promise<void>): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-whatsapp-'));
  try {
    await measure('SQLite', { DATA_DIR: dataDir });
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  if (!postgresUrl) return;
  const schema = `bench_wa_${crypto.randomBytes(4).toString('hex')}`;
  const pgDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-whatsapp-'));
  try {
    await measure('PostgreSQL', { DATA_DIR: pgDir, DATABASE_URL: postgresUrl, DATABASE_SCHEMA: schema });
  } finally {
    fs.rmSync(pgDir, { recursive: true, force: true });
    await dropSchema(postgresUrl, schema);
  }
}

const bare = await bareRate();
await onEachStore((label, env) => throughput(label, env, bare));
await onEachStore(photoAnswer);
