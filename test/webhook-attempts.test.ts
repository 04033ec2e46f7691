import { afterEach, describe, expect, it } from 'vitest';
import { emitEvent } from '../src/webhooks/emit-event.js';
import { call, dialects, startTestService, type TestService } from './support/service.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

interface AttemptView {
  ok: boolean;
  error?: string;
  instance?: string;
}

describe.each(dialects)('webhook attempts (%s)', (dialect) => {
  let svc: TestService | undefined;
  const receivers: WebhookReceiver[] = [];
  afterEach(async () => {
    await svc?.close();
    for (const receiver of receivers.splice(0)) await receiver.close();
  });

  async function serviceWith(env: Record<string, string>): Promise<TestService> {
    svc = await startTestService(dialect, { WEBHOOK_ALLOW_PRIVATE: 'true', ...env });
    return svc;
  }

  async function receiverFor(service: TestService, name: string, delayMs: number): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver();
    receivers.push(receiver);
    const url = await receiver.start();
    receiver.now = () => service.clock.now();
    receiver.respond = () => ({ status: 200, delayMs });
    receiver.secret = (await call(service.app, 'POST', '/webhooks', { key: service.orgA.privateKey, body: { name, url } })).json().secret;
    return receiver;
  }

  const emit = (service: TestService, webhook: string) =>
    emitEvent(service.deps.db, service.clock, {
      organizationId: service.orgA.id,
      type: 'document.created',
      data: { code: 'TR99AQMY31', status: 'CREATE' },
      targetWebhooks: [webhook],
    });

  const deliveries = async (service: TestService, key = service.orgA.privateKey) =>
    (await call(service.app, 'GET', '/webhooks/deliveries', { key, query: { limit: '200' } })).json().data as { webhook: string; attempts: AttemptView[] }[];

  describe('the timeout measures the receiver, not our own queue of connections', () => {
    it('eight deliveries over two connections to a receiver that answers in 300 ms, with a 500 ms timeout: none times out', async () => {
      const service = await serviceWith({ WEBHOOK_TIMEOUT_MS: '500', WEBHOOK_CONNECTIONS: '2' });
      const receiver = await receiverFor(service, 'slowish', 300);
      for (let i = 0; i < 8; i++) await emit(service, 'slowish');
      expect(await service.deps.worker.deliverDue()).toBe(8);
      const attempts = (await deliveries(service)).flatMap((delivery) => delivery.attempts);
      expect(attempts).toHaveLength(8);
      expect(attempts.filter((attempt) => !attempt.ok)).toEqual([]);
      expect(new Set(receiver.received.map((hook) => hook.id)).size).toBe(8);
      expect(receiver.received).toHaveLength(8);
    });

    it('a receiver slower than the timeout is still recorded as timed out', async () => {
      const service = await serviceWith({ WEBHOOK_TIMEOUT_MS: '200' });
      await receiverFor(service, 'stuck', 600);
      await emit(service, 'stuck');
      await service.deps.worker.deliverDue();
      const [delivery] = await deliveries(service);
      expect(delivery!.attempts).toEqual([expect.objectContaining({ ok: false, error: 'timed out after 200 ms' })]);
    });
  });

  describe('each attempt is recorded as it ends, with the instance that made it', () => {
    it("a fast receiver's attempt is in the log while a slow one of the same round is still being answered", async () => {
      const service = await serviceWith({ WEBHOOK_TIMEOUT_MS: '5000' });
      await receiverFor(service, 'fast', 0);
      const slow = await receiverFor(service, 'slow', 1500);
      await emit(service, 'fast');
      await emit(service, 'slow');
      const round = service.deps.worker.deliverDue();

      let seen: { webhook: string; attempts: AttemptView[] }[] = [];
      for (let i = 0; i < 100; i++) {
        seen = await deliveries(service);
        if (seen.some((delivery) => delivery.webhook === 'fast' && delivery.attempts.length > 0)) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const byName = new Map(seen.map((delivery) => [delivery.webhook, delivery]));
      expect(byName.get('fast')!.attempts).toEqual([expect.objectContaining({ ok: true, instance: service.deps.worker.id })]);
      expect(byName.get('slow')!.attempts).toEqual([]);
      expect(slow.received).toHaveLength(1);

      expect(await round).toBe(2);
      const after = new Map((await deliveries(service)).map((delivery) => [delivery.webhook, delivery]));
      expect(after.get('slow')!.attempts).toEqual([expect.objectContaining({ ok: true, instance: service.deps.worker.id })]);
      expect(service.deps.worker.id).toMatch(/^[^:]+:\d+:[0-9a-f]{6}$/);
      // The other organization sees none of it.
      expect(await deliveries(service, service.orgB.privateKey)).toEqual([]);
    });
  });
});
