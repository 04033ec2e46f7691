import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app.js';
import { ManualClock } from '../../src/clock.js';
import { type Config, loadConfig } from '../../src/config.js';
import { createDeps, type Deps } from '../../src/deps.js';
import { createOrganization } from '../../src/organizations/organizations.js';
import { closedPort } from './ports.js';
import { dropSchema } from './postgres.js';

export type TestDialect = 'sqlite' | 'postgres';

const postgresUrl = process.env.TEST_DATABASE_URL;

/** Every data test runs on SQLite, and on PostgreSQL too whenever TEST_DATABASE_URL is set. */
export const dialects: TestDialect[] = postgresUrl ? ['sqlite', 'postgres'] : ['sqlite'];

export interface TestOrganization {
  id: string;
  email: string;
  privateKey: string;
  publicKey: string;
}

export interface TestService {
  app: FastifyInstance;
  deps: Deps;
  config: Config;
  clock: ManualClock;
  /** Two organizations: every test checks they never see each other's data. */
  orgA: TestOrganization;
  orgB: TestOrganization;
  close(): Promise<void>;
}

export const PUBLIC_URL = 'http://service.test';

/** A fresh store per call: a temporary SQLite folder, or a PostgreSQL schema of its own. */
export async function startTestService(dialect: TestDialect, env: Record<string, string> = {}): Promise<TestService> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-test-'));
  const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    PUBLIC_URL,
    // Tests that compare real faces ask for FACE_MATCHER=local; the others need no worker threads.
    FACE_MATCHER: 'manual',
    ...(dialect === 'postgres' && postgresUrl ? { DATABASE_URL: postgresUrl, DATABASE_SCHEMA: schema } : {}),
    ...env,
  });
  const clock = new ManualClock(new Date());
  const deps = await createDeps(config, { clock });
  const app = await buildApp(config, deps);
  const organization = async (name: string, email: string): Promise<TestOrganization> => {
    const created = await createOrganization(deps.db, clock, { name, email });
    return { id: created.organization, email, privateKey: created.privateKey, publicKey: created.publicKey };
  };
  const orgA = await organization('Acme', 'owner@acme.test');
  const orgB = await organization('Globex', 'owner@globex.test');
  return {
    app,
    deps,
    config,
    clock,
    orgA,
    orgB,
    async close() {
      await app.close();
      await deps.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (dialect === 'postgres' && postgresUrl) await dropSchema(postgresUrl, schema);
    },
  };
}

export interface CallOptions {
  key?: string;
  body?: InjectOptions['payload'];
  query?: Record<string, string>;
  headers?: Record<string, string>;
}

/** One API call under /v1.5/ext with the bare key in Authorization, as the contract shows. */
export async function call(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  options: CallOptions = {},
): Promise<LightMyRequestResponse> {
  const request: InjectOptions = {
    method,
    url: `/v1.5/ext${url}`,
    headers: { ...(options.key ? { authorization: options.key } : {}), ...options.headers },
  };
  if (options.query) request.query = options.query;
  if (options.body !== undefined) request.payload = options.body;
  return app.inject(request);
}

/** Serves the test service on a loopback port of its own, for tests that need a real socket; answers the port. */
export async function listenOnLoopback(svc: TestService): Promise<number> {
  await svc.app.listen({ port: 0, host: '127.0.0.1' });
  const address = svc.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('the service is not listening on a TCP port');
  return address.port;
}

/** The path and query of an absolute URL the service issued, to inject it back. */
export function localPath(url: string): string {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
}

/**
 * A test service on a loopback port of its own whose PUBLIC_URL is that address, with its
 * background work running: the links it sends can be opened by a browser.
 */
export async function startServedService(dialect: TestDialect, env: Record<string, string> = {}): Promise<{ svc: TestService; base: string }> {
  const port = await closedPort();
  const base = `http://127.0.0.1:${port}`;
  const svc = await startTestService(dialect, { PUBLIC_URL: base, ...env });
  await svc.app.listen({ port, host: '127.0.0.1' });
  svc.deps.startBackgroundWork();
  // As a serving instance does at start: the renderer's Chromium is launched before a page asks
  // for a document's preview, so the first page opened does not also wait for that launch (on a
  // loaded machine it took more than the 30 s a page is given). A failure shows in /health.
  svc.deps.startRendererSelfTest().catch(() => undefined);
  return { svc, base };
}

/**
 * A test service whose two organizations each have a webhook of each format, `default` (typed
 * bodies) and `flat` (the real service's), at an address nobody answers: the tests read what
 * was queued for them from the outbox.
 */
export async function startServiceWithBothWebhookFormats(dialect: TestDialect): Promise<TestService> {
  const svc = await startTestService(dialect, { WEBHOOK_ALLOW_PRIVATE: 'true' });
  for (const org of [svc.orgA, svc.orgB]) {
    await call(svc.app, 'POST', '/webhooks', { key: org.privateKey, body: { name: 'default', url: 'http://127.0.0.1:9/typed' } });
    await call(svc.app, 'POST', '/webhooks', { key: org.privateKey, body: { name: 'flat', url: 'http://127.0.0.1:9/flat', format: 'flat' } });
  }
  return svc;
}
