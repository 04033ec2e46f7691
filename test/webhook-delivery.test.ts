import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS, RETRY_DELAYS_MS } from '../src/outbox/retry-schedule.js';
import { emitEvent } from '../src/webhooks/emit-event.js';
import { call, dialects, startTestService, type TestService } from './support/service.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

describe.each(dialects)('webhook delivery (%s)', (dialect) => {
  let svc: TestService;
  let receiver: WebhookReceiver;
  let other: WebhookReceiver;
  let urls: { main: string; other: string };

  beforeAll(async () => {
    receiver = new WebhookReceiver();
    other = new WebhookReceiver();
    urls = { main: await receiver.start(), other: await other.start() };
  });
  afterAll(async () => {
    await receiver.close();
    await other.close();
  });

  // A service per test: retries left pending by one test must not be delivered in the next.
  const names = { main: 'main', other: 'other' };
  beforeEach(async () => {
    svc = await startTestService(dialect, { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_MS: '300' });
    receiver.received.length = 0;
    other.received.length = 0;
    receiver.respond = () => ({ status: 200 });
    receiver.now = () => svc.clock.now();
    other.now = () => svc.clock.now();
    receiver.secret = (await call(svc.app, 'POST', '/webhooks', { key: svc.orgA.privateKey, body: { name: names.main, url: urls.main } })).json().secret;
    other.secret = (await call(svc.app, 'POST', '/webhooks', { key: svc.orgA.privateKey, body: { name: names.other, url: urls.other } })).json().secret;
  });
  afterEach(async () => svc.close());

  const emit = (options: { targetWebhooks?: string[]; custom?: Record<string, unknown>; tags?: string[] } = {}) =>
    emitEvent(svc.deps.db, svc.clock, {
      organizationId: svc.orgA.id,
      type: 'document.created',
      data: { code: 'TR99AQMY31', status: 'CREATE' },
      ...options,
    });
  const deliver = () => svc.deps.worker.deliverDue();
  const deliveries = async (query: Record<string, string> = {}) =>
    (await call(svc.app, 'GET', '/webhooks/deliveries', { key: svc.orgA.privateKey, query })).json();

  describe('every delivery is a JSON POST signed as Standard Webhooks does', () => {
    it('the receiver verifies it with the standardwebhooks package; the body carries type, timestamp, resource, stage, custom and tags', async () => {
      receiver.now = undefined;
      await emit({ targetWebhooks: [names.main], custom: { externalId: 'ORDER-123' }, tags: ['vip'] });
      expect(await deliver()).toBe(1);
      expect(receiver.received).toHaveLength(1);
      const [hook] = receiver.received;
      expect(hook!.verified).toBe(true);
      expect(hook!.id).toMatch(/^msg_[0-9a-f]{24}$/);
      expect(hook!.body).toEqual({
        type: 'document.created',
        timestamp: expect.stringMatching(/Z$/),
        data: { code: 'TR99AQMY31', status: 'CREATE', custom: { externalId: 'ORDER-123' }, tags: ['vip'] },
      });
    });

    it('custom and tags are absent when the process had none', async () => {
      await emit({ targetWebhooks: [names.main] });
      await deliver();
      expect(receiver.received[0]!.body.data).toEqual({ code: 'TR99AQMY31', status: 'CREATE' });
    });
  });

  describe('the webhook named default receives events when a request gives no targetWebhooks', () => {
    it('goes to default only when targetWebhooks is absent, and only to the named ones when present', async () => {
      const secret = (await call(svc.app, 'POST', '/webhooks', { key: svc.orgA.privateKey, body: { name: 'default', url: urls.other } })).json().secret;
      other.secret = secret;
      await emit();
      await deliver();
      expect(other.received).toHaveLength(1);
      expect(receiver.received).toHaveLength(0);

      other.secret = (await call(svc.app, 'POST', '/webhooks/rotate-secret', { key: svc.orgA.privateKey, body: { name: names.other } })).json().secret;
      other.received.length = 0;
      await emit({ targetWebhooks: [names.main] });
      await deliver();
      expect(receiver.received).toHaveLength(1);
      expect(other.received).toHaveLength(0);
    });

    it('disabled or unknown webhooks receive nothing; another organization never receives', async () => {
      await call(svc.app, 'PUT', '/webhooks', { key: svc.orgA.privateKey, body: { name: names.other, enabled: false } });
      const bSecret = (await call(svc.app, 'POST', '/webhooks', { key: svc.orgB.privateKey, body: { name: names.main, url: urls.other } })).json().secret;
      expect(bSecret).toMatch(/^whsec_/);
      const ids = await emit({ targetWebhooks: [names.main, names.other, 'nope'] });
      expect(ids).toHaveLength(1);
      await deliver();
      expect(receiver.received).toHaveLength(1);
      expect(other.received).toHaveLength(0);
    });
  });

  describe('a 2xx within the timeout is success; anything else is retried with backoff, with a stable id', () => {
    it('fails on purpose, recovers, and the same webhook-id arrives each time', async () => {
      receiver.respond = (_hook, index) => ({ status: index < 2 ? 503 : 204 });
      await emit({ targetWebhooks: [names.main] });
      expect(await deliver()).toBe(1);
      expect(await deliver()).toBe(0);
      svc.clock.advance(RETRY_DELAYS_MS[0] * 1.2 + 1);
      expect(await deliver()).toBe(1);
      svc.clock.advance(RETRY_DELAYS_MS[1] * 0.79);
      expect(await deliver()).toBe(0);
      svc.clock.advance(RETRY_DELAYS_MS[1] * 0.42);
      expect(await deliver()).toBe(1);
      expect(receiver.received.map((h) => h.id)).toEqual(Array(3).fill(receiver.received[0]!.id));
      const [delivery] = (await deliveries({ webhook: names.main })).data;
      expect(delivery.status).toBe('delivered');
      expect(delivery.attempts.map((a: { ok: boolean; status_code: number }) => [a.ok, a.status_code])).toEqual([
        [false, 503],
        [false, 503],
        [true, 204],
      ]);
      expect(delivery.attempts[0].response).toBe('failing on purpose with 503');
      expect(delivery.attempts[0].duration_ms).toBeGreaterThanOrEqual(0);
    });

    it('a receiver slower than the timeout counts as a failure', async () => {
      receiver.respond = () => ({ status: 200, delayMs: 1000 });
      await emit({ targetWebhooks: [names.main] });
      await deliver();
      const [delivery] = (await deliveries({ webhook: names.main })).data;
      expect(delivery.status).toBe('pending');
      expect(delivery.attempts[0]).toMatchObject({ ok: false, error: 'timed out after 300 ms' });
    });

    it('after the last retry the delivery is marked failed; a resend starts again with the same id', async () => {
      receiver.respond = () => ({ status: 500 });
      await emit({ targetWebhooks: [names.main] });
      for (let i = 0; i < MAX_ATTEMPTS; i++) {
        expect(await deliver()).toBe(1);
        svc.clock.advance((RETRY_DELAYS_MS[i] ?? 0) * 1.2 + 1);
      }
      expect(await deliver()).toBe(0);
      const [failed] = (await deliveries({ webhook: names.main, status: 'failed' })).data;
      expect(failed.attempts).toHaveLength(MAX_ATTEMPTS);

      receiver.respond = () => ({ status: 200 });
      const resend = await call(svc.app, 'POST', '/webhooks/deliveries/resend', { key: svc.orgA.privateKey, body: { id: failed.id } });
      expect(resend.json()).toEqual({ id: failed.id, status: 'pending' });
      expect(await deliver()).toBe(1);
      const [after] = (await deliveries({ id: failed.id })).data;
      expect(after.status).toBe('delivered');
      expect(after.attempts).toHaveLength(MAX_ATTEMPTS + 1);
      expect(new Set(receiver.received.map((h) => h.id)).size).toBe(1);
    });

    it('a webhook deleted before delivery makes it fail without retries', async () => {
      await emit({ targetWebhooks: [names.main] });
      await call(svc.app, 'DELETE', `/webhooks?name=${names.main}`, { key: svc.orgA.privateKey });
      await deliver();
      const [delivery] = (await deliveries({ status: 'failed' })).data;
      expect(delivery.attempts.at(-1)).toMatchObject({ ok: false, error: 'WEBHOOK_DELETED' });
    });
  });

  describe('the API lists deliveries with their attempts and resends one', () => {
    it('lists newest first, pages, and hides other organizations', async () => {
      for (let i = 0; i < 3; i++) {
        await emit({ targetWebhooks: [names.main] });
        svc.clock.advance(1);
      }
      await deliver();
      const first = await deliveries({ webhook: names.main, limit: '2' });
      expect(first.data).toHaveLength(2);
      const second = await deliveries({ webhook: names.main, limit: '2', cursor: first.next });
      expect(second.data).toHaveLength(1);
      expect(second.next).toBeNull();
      const foreign = await call(svc.app, 'GET', '/webhooks/deliveries', { key: svc.orgB.privateKey, query: { id: first.data[0].id } });
      expect(foreign.json()).toEqual({ message: 'DELIVERY_NOT_FOUND' });
      const resend = await call(svc.app, 'POST', '/webhooks/deliveries/resend', { key: svc.orgB.privateKey, body: { id: first.data[0].id } });
      expect(resend.json()).toEqual({ message: 'DELIVERY_NOT_FOUND' });
    });

    it('a pending delivery cannot be resent', async () => {
      receiver.respond = () => ({ status: 500 });
      const [id] = await emit({ targetWebhooks: [names.main] });
      const res = await call(svc.app, 'POST', '/webhooks/deliveries/resend', { key: svc.orgA.privateKey, body: { id } });
      expect(res.json()).toEqual({ message: 'DELIVERY_PENDING' });
    });

    it('POST /webhooks/test sends a webhook.test event', async () => {
      const res = await call(svc.app, 'POST', '/webhooks/test', { key: svc.orgA.privateKey, body: { name: names.main } });
      expect(res.json().id).toMatch(/^[0-9a-f]{24}$/);
      await deliver();
      expect(receiver.received.at(-1)!.body).toMatchObject({ type: 'webhook.test', data: { webhook: names.main } });
    });
  });
});
