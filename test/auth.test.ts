import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_CACHE_TTL_MS } from '../src/auth/key-resolver.js';
import { createApiKey, revokeApiKey } from '../src/organizations/organizations.js';
import { sampleTemplate } from './support/fixtures.js';
import { call, dialects, startTestService, type TestService } from './support/service.js';

describe.each(dialects)('authentication (%s)', (dialect) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService(dialect);
  });
  afterAll(async () => svc.close());

  describe('every endpoint takes the private key as the bare Authorization value', () => {
    it('accepts the bare prk_ key', async () => {
      const res = await call(svc.app, 'GET', '/template', { key: svc.orgA.privateKey });
      expect(res.statusCode).toBe(200);
    });

    it('refuses the key behind a Bearer scheme with 401', async () => {
      const res = await call(svc.app, 'GET', '/template', { key: `Bearer ${svc.orgA.privateKey}` });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: 'UNAUTHORIZED' });
    });
  });

  describe('a missing, unknown or revoked key yields 401 with a message', () => {
    it('missing key', async () => {
      for (const [method, url] of [
        ['GET', '/template'],
        ['POST', '/template'],
        ['PUT', '/template'],
        ['DELETE', '/template?id=64823dc5ce28a265e02d68f3'],
      ] as const) {
        const res = await call(svc.app, method, url);
        expect(res.statusCode, `${method} ${url}`).toBe(401);
        expect(res.json()).toEqual({ message: 'UNAUTHORIZED' });
      }
    });

    it('unknown key of the right shape', async () => {
      const res = await call(svc.app, 'GET', '/template', { key: 'prk_00000000000000000000000000000000' });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: 'UNAUTHORIZED' });
    });

    it('revoked key', async () => {
      const created = await createApiKey(svc.deps.db, svc.clock, { organizationId: svc.orgA.id, kind: 'private' });
      expect((await call(svc.app, 'GET', '/template', { key: created.key })).statusCode).toBe(200);
      await revokeApiKey(svc.deps.db, svc.clock, { key: created.key });
      svc.clock.advance(KEY_CACHE_TTL_MS);
      const res = await call(svc.app, 'GET', '/template', { key: created.key });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: 'UNAUTHORIZED' });
      expect((await call(svc.app, 'GET', '/template', { key: svc.orgA.privateKey })).statusCode).toBe(200);
    });
  });

  describe('a revoked key is refused within one second, from wherever it was revoked', () => {
    it('a key used just before its revocation keeps working less than a second', async () => {
      const created = await createApiKey(svc.deps.db, svc.clock, { organizationId: svc.orgA.id, kind: 'private' });
      expect((await call(svc.app, 'GET', '/template', { key: created.key })).statusCode).toBe(200);
      await revokeApiKey(svc.deps.db, svc.clock, { key: created.key });
      svc.clock.advance(KEY_CACHE_TTL_MS - 1);
      expect((await call(svc.app, 'GET', '/template', { key: created.key })).statusCode).toBe(200);
      svc.clock.advance(1);
      expect((await call(svc.app, 'GET', '/template', { key: created.key })).statusCode).toBe(401);
    });
  });

  describe('the public key only reads', () => {
    it('GET works with puk_', async () => {
      expect((await call(svc.app, 'GET', '/veriface/documents', { key: svc.orgA.publicKey })).statusCode).toBe(200);
    });

    it('writes with puk_ are 401 and change nothing', async () => {
      const res = await call(svc.app, 'POST', '/template', { key: svc.orgA.publicKey, body: sampleTemplate() });
      expect(res.statusCode).toBe(401);
      const list = await call(svc.app, 'GET', '/template', { key: svc.orgA.privateKey });
      expect(list.json().data).toEqual([]);
    });
  });

  describe('the key decides the organization', () => {
    it("one organization's key never lists the other's templates", async () => {
      const created = await call(svc.app, 'POST', '/template', { key: svc.orgA.privateKey, body: sampleTemplate() });
      expect(created.statusCode).toBe(200);
      const listA = await call(svc.app, 'GET', '/template', { key: svc.orgA.privateKey });
      const listB = await call(svc.app, 'GET', '/template', { key: svc.orgB.privateKey });
      expect(listA.json().data.map((t: { id: string }) => t.id)).toEqual([created.json().id]);
      expect(listB.json().data).toEqual([]);
    });
  });
});
