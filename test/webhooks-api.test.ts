import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, dialects, startTestService, type TestService } from './support/service.js';

describe.each(dialects)('webhooks API (%s)', (dialect) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService(dialect);
  });
  afterAll(async () => svc.close());

  const key = () => svc.orgA.privateKey;
  const create = (body: Record<string, unknown>, k = key()) => call(svc.app, 'POST', '/webhooks', { key: k, body });

  describe('an organization keeps named webhooks: name, URL, secret, enabled', () => {
    it('creates one and shows its secret once', async () => {
      const res = await create({ name: 'default', url: 'https://hooks.example.test/sign', description: 'Main' });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({ name: 'default', url: 'https://hooks.example.test/sign', description: 'Main', enabled: true });
      expect(body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
      const list = await call(svc.app, 'GET', '/webhooks', { key: svc.orgA.privateKey });
      expect(list.json().data).toEqual([expect.objectContaining({ name: 'default', enabled: true })]);
      expect(JSON.stringify(list.json())).not.toContain(body.secret);
    });

    it('accepts a secret given by the integrator', async () => {
      const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
      const res = await create({ name: 'given', url: 'https://hooks.example.test/given', secret });
      expect(res.json().secret).toBe(secret);
    });

    it('names are unique within the organization, not across organizations', async () => {
      await create({ name: 'billing', url: 'https://hooks.example.test/b' });
      const again = await create({ name: 'billing', url: 'https://hooks.example.test/b2' });
      expect(again.statusCode).toBe(400);
      expect(again.json()).toEqual({ message: 'WEBHOOK_ALREADY_EXISTS' });
      expect((await create({ name: 'billing', url: 'https://hooks.example.test/b' }, svc.orgB.privateKey)).statusCode).toBe(200);
    });

    it('updates URL, description and enabled; omitted fields are kept', async () => {
      await create({ name: 'crm', url: 'https://hooks.example.test/crm', description: 'CRM' });
      const res = await call(svc.app, 'PUT', '/webhooks', { key: key(), body: { name: 'crm', enabled: false } });
      expect(res.json()).toMatchObject({ name: 'crm', url: 'https://hooks.example.test/crm', description: 'CRM', enabled: false });
      const moved = await call(svc.app, 'PUT', '/webhooks', { key: key(), body: { name: 'crm', url: 'https://hooks.example.test/crm2' } });
      expect(moved.json()).toMatchObject({ url: 'https://hooks.example.test/crm2', enabled: false });
    });

    it('rotates the secret', async () => {
      const first = (await create({ name: 'rotating', url: 'https://hooks.example.test/r' })).json().secret;
      const res = await call(svc.app, 'POST', '/webhooks/rotate-secret', { key: key(), body: { name: 'rotating' } });
      expect(res.json().name).toBe('rotating');
      expect(res.json().secret).toMatch(/^whsec_/);
      expect(res.json().secret).not.toBe(first);
    });

    it('deletes one', async () => {
      await create({ name: 'gone', url: 'https://hooks.example.test/g' });
      const res = await call(svc.app, 'DELETE', '/webhooks?name=gone', { key: key() });
      expect(res.json()).toEqual({ name: 'gone', deleted: true });
      const names = (await call(svc.app, 'GET', '/webhooks', { key: key() })).json().data.map((w: { name: string }) => w.name);
      expect(names).not.toContain('gone');
    });
  });

  describe('bad input is a 400 with a message', () => {
    for (const [body, message] of [
      [{ url: 'https://x.test' }, '"name" is required'],
      [{ name: 'a b', url: 'https://x.test' }, /^"name" with value "a b" fails to match the required pattern/],
      [{ name: 'x', url: 'ftp://x.test' }, '"url" must be a valid uri with a scheme matching the http|https pattern'],
      [{ name: 'x', url: 'https://x.test', secret: 'plain' }, '"secret" must be "whsec_" followed by 24 to 64 bytes in base64'],
      [{ name: 'x', url: 'https://user:pw@x.test' }, '"url" must not carry credentials'],
    ] as const) {
      it(JSON.stringify(body), async () => {
        const res = await create({ ...body });
        expect(res.statusCode).toBe(400);
        if (typeof message === 'string') expect(res.json()).toEqual({ message });
        else expect(res.json().message).toMatch(message);
      });
    }

    it('unknown webhooks are WEBHOOK_NOT_FOUND, also for another organization', async () => {
      await create({ name: 'mine', url: 'https://hooks.example.test/m' });
      for (const [method, url, body] of [
        ['PUT', '/webhooks', { name: 'mine', enabled: false }],
        ['POST', '/webhooks/rotate-secret', { name: 'mine' }],
        ['DELETE', '/webhooks?name=mine', undefined],
        ['POST', '/webhooks/test', { name: 'mine' }],
      ] as const) {
        const res = await call(svc.app, method, url, { key: svc.orgB.privateKey, ...(body ? { body } : {}) });
        expect(res.json(), `${method} ${url}`).toEqual({ message: 'WEBHOOK_NOT_FOUND' });
      }
      expect((await call(svc.app, 'GET', '/webhooks', { key: svc.orgA.privateKey })).json().data.map((w: { name: string }) => w.name)).toContain('mine');
    });
  });

  describe('URLs that resolve to private, loopback or link-local addresses are refused unless allowed', () => {
    for (const url of [
      'http://127.0.0.1:8080/x',
      'http://localhost/x',
      'http://10.1.2.3/x',
      'http://172.16.0.9/x',
      'http://192.168.1.1/x',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]/x',
      'http://[fd00::1]/x',
      'http://[::ffff:127.0.0.1]/x',
      'http://0.0.0.0/x',
    ]) {
      it(`refuses ${url}`, async () => {
        const res = await create({ name: `p${Math.random().toString(36).slice(2, 8)}`, url });
        expect(res.statusCode).toBe(400);
        expect(res.json().message).toMatch(/^WEBHOOK_URL_NOT_ALLOWED/);
      });
    }

    it('refuses them on update too', async () => {
      await create({ name: 'public', url: 'https://8.8.8.8/x' });
      const res = await call(svc.app, 'PUT', '/webhooks', { key: key(), body: { name: 'public', url: 'http://127.0.0.1/x' } });
      expect(res.json().message).toMatch(/^WEBHOOK_URL_NOT_ALLOWED/);
    });

    it('the operator can allow them (WEBHOOK_ALLOW_PRIVATE)', async () => {
      const local = await startTestService(dialect, { WEBHOOK_ALLOW_PRIVATE: 'true' });
      try {
        const res = await call(local.app, 'POST', '/webhooks', { key: local.orgA.privateKey, body: { name: 'default', url: 'http://127.0.0.1:9/x' } });
        expect(res.statusCode).toBe(200);
      } finally {
        await local.close();
      }
    });
  });
});
