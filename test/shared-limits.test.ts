import crypto from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { createDeps, type Deps, RECURRING_JOBS } from '../src/deps.js';
import { call, dialects, startTestService, type TestOrganization, type TestService } from './support/service.js';
import { PDF_BASE64, stored } from './support/signing.js';

const postgresUrl = process.env.TEST_DATABASE_URL;
const randomKey = () => `prk_${crypto.randomBytes(16).toString('hex')}`;
let unique = 0;
const email = (name: string) => `${name}-${++unique}@limits.test`;

const templatesFrom = (app: FastifyInstance, remoteAddress: string, key: string): Promise<LightMyRequestResponse> =>
  app.inject({ method: 'GET', url: '/v1.5/ext/template', headers: { authorization: key }, remoteAddress });

describe.each(dialects)('an address past the failed-authentication limit is refused right or wrong (%s)', (dialect) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService(dialect, { AUTH_FAILURES_MAX: '5', AUTH_FAILURES_WINDOW_S: '60' });
  });
  afterAll(async () => svc.close());

  it('a right key another address used a moment ago is answered 429 to the address past AUTH_FAILURES_MAX, and still 200 to the other', async () => {
    // Both keys are admitted, and so remembered for a second, before the guesser runs out of attempts.
    expect((await templatesFrom(svc.app, '198.51.100.20', svc.orgA.privateKey)).statusCode).toBe(200);
    expect((await templatesFrom(svc.app, '198.51.100.21', svc.orgB.privateKey)).statusCode).toBe(200);
    for (let i = 0; i < 5; i++) expect((await templatesFrom(svc.app, '203.0.113.50', randomKey())).statusCode).toBe(401);

    for (const key of [svc.orgA.privateKey, svc.orgB.privateKey, svc.orgA.publicKey]) {
      const refused = await templatesFrom(svc.app, '203.0.113.50', key);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({ message: expect.stringMatching(/^TOO_MANY_REQUESTS: try again in \d+ s$/) });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect((await templatesFrom(svc.app, '198.51.100.20', svc.orgA.privateKey)).statusCode).toBe(200);
    expect((await templatesFrom(svc.app, '198.51.100.21', svc.orgB.privateKey)).statusCode).toBe(200);
  });
});

interface Instances {
  apps: FastifyInstance[];
  deps: Deps[];
  close(): Promise<void>;
}

/** Further instances of the service on the PostgreSQL schema of `svc`, as behind a balancer. */
async function moreInstances(svc: TestService, count: number): Promise<Instances> {
  const started: { app: FastifyInstance; deps: Deps }[] = [];
  for (let i = 0; i < count; i++) {
    const deps = await createDeps(svc.config, { clock: svc.clock });
    started.push({ deps, app: await buildApp(svc.config, deps) });
  }
  return {
    apps: [svc.app, ...started.map((instance) => instance.app)],
    deps: [svc.deps, ...started.map((instance) => instance.deps)],
    async close() {
      for (const instance of started) {
        await instance.app.close();
        await instance.deps.close();
      }
    },
  };
}

describe.skipIf(!postgresUrl)('per-address limits hold for the deployment: three instances on one PostgreSQL schema share them', () => {
  let svc: TestService;
  let instances: Instances;
  /** The instance a round-robin balancer hands the n-th request to. */
  const at = (n: number): FastifyInstance => instances.apps[n % instances.apps.length]!;

  beforeAll(async () => {
    svc = await startTestService('postgres', { AUTH_FAILURES_MAX: '5', AUTH_FAILURES_WINDOW_S: '60', VERIFY_RATE_LIMIT: '4' });
    instances = await moreInstances(svc, 2);
  });
  afterAll(async () => {
    await instances.close();
    await svc.close();
  });

  async function signerToken(org: TestOrganization): Promise<string> {
    const res = await call(svc.app, 'POST', '/document/upload', {
      key: org.privateKey,
      body: { email: org.email, name: 'Lease', file: PDF_BASE64, signProfile: [{ name: 'Ana', email: email('ana'), otpCode: true }] },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { participants } = await stored(svc, org, res.json().code);
    return participants[0]!.link_token;
  }

  const checkCode = (app: FastifyInstance, token: string, remoteAddress: string) =>
    app.inject({ method: 'POST', url: '/people/signing/otp/check', headers: { 'x-link-token': token }, payload: { code: '000000' }, remoteAddress });

  it('ten code checks a minute from one address, spread over the instances: the eleventh is 429 wherever it lands', async () => {
    const [tokenA, tokenB] = [await signerToken(svc.orgA), await signerToken(svc.orgB)];
    for (let n = 0; n < 10; n++) expect((await checkCode(at(n), tokenA, '203.0.113.60')).statusCode).toBe(400);
    for (let n = 10; n < 13; n++) {
      const limited = await checkCode(at(n), tokenA, '203.0.113.60');
      expect(limited.statusCode).toBe(429);
      expect(limited.json().message).toMatch(/^TOO_MANY_REQUESTS: try again in \d+ s$/);
    }
    // Another address, on the other organization's process, counts apart and sees only its own process.
    for (let n = 0; n < 3; n++) expect((await checkCode(at(n), tokenB, '198.51.100.60')).statusCode).toBe(400);
    const pageB = await at(1).inject({ method: 'GET', url: '/people/signing', headers: { 'x-link-token': tokenB }, remoteAddress: '198.51.100.60' });
    expect(pageB.json().process.organization).toBe('Globex');
  });

  it('failed authentications lock the address on every instance: past AUTH_FAILURES_MAX in all, wrong and right keys are 429', async () => {
    for (let n = 0; n < 5; n++) expect((await templatesFrom(at(n), '203.0.113.70', randomKey())).statusCode).toBe(401);
    for (let n = 5; n < 8; n++) expect((await templatesFrom(at(n), '203.0.113.70', randomKey())).statusCode).toBe(429);
    for (let n = 0; n < 3; n++) {
      expect((await templatesFrom(at(n), '203.0.113.70', svc.orgA.privateKey)).statusCode).toBe(429);
      expect((await templatesFrom(at(n), '203.0.113.70', svc.orgB.privateKey)).statusCode).toBe(429);
    }
    const listed = await templatesFrom(at(2), '198.51.100.70', svc.orgB.privateKey);
    expect(listed.statusCode).toBe(200);
  });

  it('/verify past VERIFY_RATE_LIMIT a minute from one address, over all the instances, is 429', async () => {
    const verify = (n: number) => at(n).inject({ method: 'GET', url: '/verify', query: { code: 'ABCDEFGHIJ' }, remoteAddress: '203.0.113.80' });
    for (let n = 0; n < 4; n++) expect((await verify(n)).statusCode).toBe(200);
    for (let n = 4; n < 7; n++) expect((await verify(n)).statusCode).toBe(429);
  });

  it('past its limit a client costs the database nothing: once each instance has seen the count reach it, the count stops', async () => {
    const verify = (n: number) => at(n).inject({ method: 'GET', url: '/verify', query: { code: 'ABCDEFGHIJ' }, remoteAddress: '203.0.113.81' });
    const counted = async () =>
      (await svc.deps.db.selectFrom('rate_limit_hits').select('hits').where('key', '=', 'GET /verify 203.0.113.81').executeTakeFirstOrThrow()).hits;
    for (let n = 0; n < 7; n++) await verify(n);
    const reached = await counted();
    for (let n = 7; n < 20; n++) expect((await verify(n)).statusCode).toBe(429);
    expect(await counted()).toBe(reached);
    expect(reached).toBeLessThanOrEqual(4 + 2);
  });

  it('hits counted at once on every instance are none lost: each count from 1 to 60 is answered once', async () => {
    const key = `test ${crypto.randomUUID()}`;
    const counters = instances.deps.map((deps) => deps.rateLimitHits!);
    const counts = await Promise.all(Array.from({ length: 60 }, (_, n) => counters[n % counters.length]!.hit(key, 60_000)));
    expect(counts.map((count) => count.hits).sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, n) => n + 1));
    for (const count of counts) expect(count.ttlMs).toBeGreaterThan(50_000);
  });

  it('a window that has ended starts again, and the recurring job forgets ended windows only', async () => {
    const counter = svc.deps.rateLimitHits!;
    const [short, kept] = [`test ${crypto.randomUUID()}`, `test ${crypto.randomUUID()}`];
    expect(await counter.hit(short, 200)).toMatchObject({ hits: 1 });
    expect(await counter.hit(short, 200)).toMatchObject({ hits: 2 });
    expect((await counter.read(short)).hits).toBe(2);
    await counter.hit(kept, 60_000);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await counter.read(short)).toEqual({ hits: 0, ttlMs: 0 });

    await counter.deleteEndedWindows();
    const keys = (await svc.deps.db.selectFrom('rate_limit_hits').select('key').where('key', 'in', [short, kept]).execute()).map((row) => row.key);
    expect(keys).toEqual([kept]);
    expect(await counter.hit(short, 60_000)).toMatchObject({ hits: 1 });
    expect(RECURRING_JOBS).toContainEqual({ name: 'rate-limit-windows', everyMs: 60_000 });
    // UNLOGGED: a hit writes no WAL and waits for no flush.
    const table = await sql<{ relpersistence: string }>`SELECT relpersistence FROM pg_class
      WHERE relname = 'rate_limit_hits' AND relnamespace = to_regnamespace(current_schema())`.execute(svc.deps.db);
    expect(table.rows).toEqual([{ relpersistence: 'u' }]);
  });
});
