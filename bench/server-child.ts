/**
 * The server side of `npm run bench`, forked by bench/run.ts so the service and the load generator
 * each get a core. Runs the real service three times on SQLite, one store per folder under argv[2]
 * (see STORES; argv[3], when given, names the ones to run, comma-separated), plus a bare Fastify route as the baseline, all in this one process so all pay the
 * same event loop.
 */
import path from 'node:path';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import type { NewTemplateRow } from '../src/db/schema.js';
import { createDeps } from '../src/deps.js';
import { validate } from '../src/http/validate.js';
import { newObjectId } from '../src/ids.js';
import { createOrganization } from '../src/organizations/organizations.js';
import { createTemplateSchema } from '../src/templates/schemas.js';
import { mergeBody } from '../src/templates/template-document.js';
import { checkTemplateReferences } from '../src/templates/template-rules.js';
import { localPath } from '../test/support/service.js';
import { contractHtml, contractTemplate } from './contract-template.js';
import {
  type ChildMessage,
  COMPLETE_HTML,
  isDrainCommand,
  isSeedCommand,
  type ProcessTemplate,
  type StoreAddress,
  type StoreName,
  sampleTemplate,
  storesNamed,
} from './protocol.js';
import { healthOf, waitUntilReady } from './ready.js';

// 9 columns a row: 500 rows stay far below SQLite's bound-parameter limit.
const INSERT_BATCH = 500;

interface Store {
  address: StoreAddress;
  seed(count: number): Promise<{ ids: string[]; stored: number }>;
  /** Resolves once nothing is due, with how many messages the outbox has delivered so far. */
  drain(): Promise<number>;
  close(): Promise<void>;
}

function send(message: ChildMessage): void {
  process.send?.(message);
}

async function startStore(dataDir: string, name: StoreName): Promise<Store> {
  // Not process.env: a DATABASE_URL or S3_BUCKET in the caller's shell must not move the bench off SQLite.
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    HOST: '127.0.0.1',
    PORT: '0',
    ...(name === 'service' ? {} : { TEMPLATE_CACHE_MB: '0' }),
  });
  const deps = await createDeps(config);
  const app = await buildApp(config, deps);
  const organization = await createOrganization(deps.db, deps.clock, { name: 'Bench', email: 'bench@bench.test' });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  const withHtml = async (template: Record<string, unknown>, html: string): Promise<string> => {
    const created = await app.inject({
      method: 'POST',
      url: '/v1.5/ext/template',
      headers: { authorization: organization.privateKey },
      payload: template,
    });
    if (created.statusCode !== 200) throw new Error(`creating a template failed: ${created.body}`);
    const uploaded = await app.inject({
      method: 'PUT',
      url: localPath(String(created.json().urls.complete)),
      headers: { 'content-type': 'text/html' },
      payload: html,
    });
    if (uploaded.statusCode !== 200) throw new Error(`uploading the Complete HTML failed: ${uploaded.body}`);
    return String(created.json().id);
  };
  const processTemplates: Record<ProcessTemplate, string> = {
    sample: await withHtml(sampleTemplate(), COMPLETE_HTML),
    contract: await withHtml(contractTemplate(), contractHtml()),
  };
  // As src/server.ts does: a real instance pays for its background work (outbox polling, SQLite
  // checkpoints, the face workers, the renderer) while it serves requests, and is measured once ready.
  deps.startBackgroundWork();
  void deps.startRendererSelfTest();
  await waitUntilReady(healthOf(app));

  // The stored body is exactly what POST /template would store: validated, merged, cross-checked.
  const body = mergeBody(validate(createTemplateSchema, sampleTemplate()));
  checkTemplateReferences(body);
  const bodyJson = JSON.stringify(body);

  async function seed(count: number): Promise<{ ids: string[]; stored: number }> {
    const ids: string[] = [];
    await deps.db.transaction().execute(async (trx) => {
      for (let done = 0; done < count; done += INSERT_BATCH) {
        const now = deps.clock.now();
        const rows: NewTemplateRow[] = [];
        for (let i = 0; i < Math.min(INSERT_BATCH, count - done); i++) {
          const id = newObjectId(now);
          ids.push(id);
          rows.push({
            id,
            organization_id: organization.organization,
            name: `Bench template ${done + i}`,
            description: 'Seeded by the benchmark',
            body: bodyJson,
            build: 1,
            status: 'active',
            created_at: now.toISOString(),
            updated_at: now.toISOString(),
            files_stored: 0,
          });
        }
        await trx.insertInto('templates').values(rows).execute();
      }
    });
    // Otherwise the next measurement would pay for checkpointing the seed's WAL pages.
    await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(deps.db);
    const row = await deps.db
      .selectFrom('templates')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('organization_id', '=', organization.organization)
      .executeTakeFirstOrThrow();
    return { ids, stored: Number(row.count) };
  }

  async function drain(): Promise<number> {
    for (;;) {
      const due = await deps.db
        .selectFrom('outbox')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', deps.clock.now().toISOString())
        .executeTakeFirstOrThrow();
      if (Number(due.count) === 0) break;
      // Short, so the time the parent measures until drained is close to when delivery ended.
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const delivered = await deps.db
      .selectFrom('outbox')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('status', '=', 'delivered')
      .where('kind', '!=', 'job')
      .executeTakeFirstOrThrow();
    return Number(delivered.count);
  }

  return {
    address: { url, privateKey: organization.privateKey, creatorEmail: 'bench@bench.test', processTemplates },
    seed,
    drain,
    async close() {
      await app.close();
      await deps.close();
    },
  };
}

async function main(): Promise<void> {
  const root = process.argv[2];
  if (!root || !process.send) throw new Error('server-child.ts is forked by bench/run.ts with a data folder');

  const names = storesNamed(process.argv[3]);
  const stores: Partial<Record<StoreName, Store>> = {};
  const addresses: Partial<Record<StoreName, StoreAddress>> = {};
  for (const [i, store] of (await Promise.all(names.map((name) => startStore(path.join(root, name), name)))).entries()) {
    const name = names[i];
    if (name === undefined) continue;
    stores[name] = store;
    addresses[name] = store.address;
  }
  const bare = Fastify({ logger: false });
  bare.get('/', async () => ({ hello: 'world' }));
  const bareUrl = await bare.listen({ host: '127.0.0.1', port: 0 });

  const failed = (error: unknown) => send({ type: 'error', message: String(error) });
  process.on('message', (message: unknown) => {
    if (isSeedCommand(message)) {
      const store = stores[message.store];
      if (!store) failed(`no store ${message.store} here`);
      else store.seed(message.count).then((seeded) => send({ type: 'seeded', ...seeded }), failed);
    } else if (isDrainCommand(message)) {
      const store = stores[message.store];
      if (!store) failed(`no store ${message.store} here`);
      else store.drain().then((delivered) => send({ type: 'drained', delivered }), failed);
    }
  });

  // The parent owns this process: when it goes away, for whatever reason, so do we.
  process.on('disconnect', () => {
    void Promise.allSettled([bare.close(), ...Object.values(stores).map((store) => store.close())]).finally(() => process.exit(0));
  });

  send({ type: 'ready', bareUrl, stores: addresses });
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`bench server: ${message}\n`);
  send({ type: 'error', message });
  process.exit(1);
});
