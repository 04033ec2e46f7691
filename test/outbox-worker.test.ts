import { Agent } from 'undici';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { withTransaction } from '../src/db/transaction.js';
import type { Claim } from '../src/outbox/claim.js';
import { enqueue } from '../src/outbox/enqueue.js';
import type { JobPayload, OutboxHandler } from '../src/outbox/types.js';
import { OutboxWorker } from '../src/outbox/worker.js';
import { webhookDeliveryHandler } from '../src/webhooks/deliver-webhook.js';
import { emitEvent } from '../src/webhooks/emit-event.js';
import { call, dialects, startTestService, type TestService } from './support/service.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

describe.each(dialects)('the outbox worker (%s)', (dialect) => {
  let svc: TestService;
  let receiver: WebhookReceiver;
  beforeEach(async () => {
    svc = await startTestService(dialect, { WEBHOOK_ALLOW_PRIVATE: 'true' });
    receiver = new WebhookReceiver();
    const url = await receiver.start();
    receiver.now = () => svc.clock.now();
    receiver.secret = (await call(svc.app, 'POST', '/webhooks', { key: svc.orgA.privateKey, body: { name: 'default', url } })).json().secret;
  });
  afterEach(async () => {
    await svc.close();
    await receiver.close();
  });

  const emitMany = async (count: number) => {
    for (let i = 0; i < count; i++) {
      await emitEvent(svc.deps.db, svc.clock, { organizationId: svc.orgA.id, type: 'document.created', data: { code: `C${i}` } });
    }
  };

  describe('a state change and its messages commit in one transaction', () => {
    it('a rolled-back transaction leaves no message behind', async () => {
      await expect(
        svc.deps.db.transaction().execute(async (trx) => {
          await emitEvent(trx, svc.clock, { organizationId: svc.orgA.id, type: 'document.created', data: { code: 'X' } });
          throw new Error('the state change failed');
        }),
      ).rejects.toThrow('the state change failed');
      expect(await svc.deps.worker.deliverDue()).toBe(0);
      expect(receiver.received).toHaveLength(0);
    });
  });

  describe('withTransaction wakes the outbox worker once its transaction has committed, and only then', () => {
    /** The service's store with a signal that counts its wakes. */
    function counted() {
      const store = { db: svc.deps.db, wakes: 0, outbox: { wake: () => void store.wakes++ } };
      return store;
    }
    const messagesOf = (organizationId: string) => svc.deps.db.selectFrom('outbox').select('id').where('organization_id', '=', organizationId).execute();

    it('a rolled-back transaction wakes nothing and leaves no message', async () => {
      const store = counted();
      await expect(
        withTransaction(store, async (trx) => {
          await emitEvent(trx, svc.clock, { organizationId: svc.orgA.id, type: 'document.created', data: { code: 'X' } });
          throw new Error('the state change failed');
        }),
      ).rejects.toThrow('the state change failed');
      expect(store.wakes).toBe(0);
      expect(await messagesOf(svc.orgA.id)).toEqual([]);
    });

    it("a committed transaction wakes once, after its work; its message is its organization's alone", async () => {
      const store = counted();
      const ids = await withTransaction(store, async (trx) => {
        const queued = await emitEvent(trx, svc.clock, { organizationId: svc.orgA.id, type: 'document.created', data: { code: 'Y' } });
        expect(store.wakes).toBe(0);
        return queued;
      });
      expect(store.wakes).toBe(1);
      expect((await messagesOf(svc.orgA.id)).map((row) => row.id)).toEqual(ids);
      expect(await messagesOf(svc.orgB.id)).toEqual([]);
      expect(await svc.deps.worker.deliverDue()).toBe(1);
      expect(receiver.received).toHaveLength(1);
    });
  });

  describe('the worker in the service process delivers after commit', () => {
    it('started, it delivers at once when woken, and stops gracefully', async () => {
      svc.deps.worker.start();
      await emitMany(5);
      svc.deps.worker.wake();
      await expect.poll(() => receiver.received.length, { timeout: 5000 }).toBe(5);
      await svc.deps.worker.stop();
      const pending = await svc.deps.db.selectFrom('outbox').select('id').where('status', '=', 'pending').execute();
      expect(pending).toEqual([]);
    });

    it('stop lets the round in flight finish and record its attempts', async () => {
      receiver.respond = () => ({ status: 200, delayMs: 300 });
      await emitMany(3);
      svc.deps.worker.start();
      await expect.poll(() => receiver.received.length, { timeout: 5000 }).toBe(3);
      await svc.deps.worker.stop();
      const rows = await svc.deps.db.selectFrom('outbox').select(['status', 'locked_by']).execute();
      expect(rows).toEqual(Array(3).fill({ status: 'delivered', locked_by: null }));
      expect(await svc.deps.db.selectFrom('delivery_attempts').select('id').execute()).toHaveLength(3);
    });
  });

  describe('wakes within one turn of the event loop make one claim', () => {
    it('twenty wakes in one turn: no round during the turn, one after it', async () => {
      svc.deps.worker.start();
      // Let the first round find nothing and go to sleep.
      await new Promise((resolve) => setTimeout(resolve, 50));
      let rounds = 0;
      const deliverDue = svc.deps.worker.deliverDue.bind(svc.deps.worker);
      svc.deps.worker.deliverDue = () => {
        rounds++;
        return deliverDue();
      };
      const microtasks = async (count: number) => {
        for (let i = 0; i < count; i++) await new Promise<void>((resolve) => queueMicrotask(resolve));
      };
      for (let i = 0; i < 20; i++) {
        await emitEvent(svc.deps.db, svc.clock, { organizationId: i % 2 === 0 ? svc.orgA.id : svc.orgB.id, type: 'document.created', data: { code: `W${i}` } });
      }
      // Twenty wakes within one turn, as twenty creations committed together make; between them the
      // worker would have had the time to claim and fall asleep again.
      for (let i = 0; i < 20; i++) {
        svc.deps.worker.wake();
        await microtasks(20);
      }
      expect(rounds).toBe(0);
      await expect.poll(() => receiver.received.length, { timeout: 5000 }).toBe(10);
      await svc.deps.worker.stop();
      // The turn's round claims all ten of orgA's messages; the next finds nothing left.
      expect(rounds).toBeLessThanOrEqual(2);
    });
  });

  describe('several workers share the work safely and no message is delivered twice at the same time', () => {
    it('two workers on one store deliver every message exactly once', async () => {
      await emitMany(120);
      const agent = new Agent();
      const second = new OutboxWorker({
        db: svc.deps.db,
        dialect: svc.deps.dialect,
        clock: svc.clock,
        logger: { error: () => undefined },
        batchSize: 7,
        handlers: {
          webhook: webhookDeliveryHandler({
            db: svc.deps.db,
            clock: svc.clock,
            dispatcher: agent,
            allowPrivateUrls: true,
            timeoutMs: 10_000,
            connectionsPerOrigin: 64,
            blobs: svc.deps.blobs,
          }),
        },
      });
      const first = svc.deps.worker;
      onTestFinished(() => agent.close());
      const drain = async (worker: OutboxWorker) => {
        while ((await worker.deliverDue()) > 0);
      };
      await Promise.all([drain(first), drain(second), drain(first), drain(second)]);
      const ids = receiver.received.map((r) => r.id);
      expect(ids).toHaveLength(120);
      expect(new Set(ids).size).toBe(120);
    });
  });

  describe('a crashed worker loses nothing: its claims lapse and another worker takes them', () => {
    it('a message claimed by a worker that died is delivered once the lease runs out', async () => {
      await emitMany(1);
      const dead = new OutboxWorker({
        db: svc.deps.db,
        dialect: svc.deps.dialect,
        clock: svc.clock,
        logger: { error: () => undefined },
        leaseMs: 60_000,
        handlers: { webhook: { deliver: () => new Promise(() => undefined) } },
      });
      void dead.deliverDue();
      await expect.poll(async () => (await svc.deps.db.selectFrom('outbox').select('locked_by').executeTakeFirstOrThrow()).locked_by).toBe(dead.id);
      expect(await svc.deps.worker.deliverDue()).toBe(0);
      svc.clock.advance(60_001);
      expect(await svc.deps.worker.deliverDue()).toBe(1);
      expect(receiver.received).toHaveLength(1);
    });
  });

  describe("a handler's claim holds until the message is claimed again, even by the same worker, or finished", () => {
    /** A job handler that waits until `release`, having handed out each message's claim. */
    function heldJobs() {
      const claims: Claim[] = [];
      let release: () => void = () => undefined;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      const job: OutboxHandler<JobPayload> = {
        async deliver(message) {
          if (message.claim) claims.push(message.claim);
          await released;
          return { ok: true, durationMs: 0 };
        },
      };
      return { claims, release, job };
    }

    it('renewed while held it extends the lease, so no other worker claims the message; once the lease runs out and another claims it, it no longer holds', async () => {
      const held = heldJobs();
      const worker = (handlers: { job: OutboxHandler<JobPayload> }) =>
        new OutboxWorker({ db: svc.deps.db, dialect: svc.deps.dialect, clock: svc.clock, logger: { error: () => undefined }, leaseMs: 60_000, handlers });
      const first = worker({ job: held.job });
      await enqueue(svc.deps.db, svc.clock, [{ kind: 'job', organizationId: svc.orgA.id, payload: { name: 'long' } }]);
      const round = first.deliverDue();
      await expect.poll(() => held.claims.length).toBe(1);
      const [claim] = held.claims;
      svc.clock.advance(50_000);
      expect(await claim?.renew()).toBe(true);
      svc.clock.advance(50_000);
      // 100 s after the claim, but 50 s after the renewal: still held.
      const second = worker({ job: { deliver: async () => ({ ok: true, durationMs: 0 }) } });
      expect(await second.deliverDue()).toBe(0);
      svc.clock.advance(10_001);
      expect(await second.deliverDue()).toBe(1);
      expect(await claim?.renew()).toBe(false);
      held.release();
      expect(await round).toBe(1);
      const row = await svc.deps.db.selectFrom('outbox').selectAll().where('kind', '=', 'job').executeTakeFirstOrThrow();
      expect(row.status).toBe('delivered');
      // Organization B has nothing in the outbox.
      expect(await svc.deps.db.selectFrom('outbox').select('id').where('organization_id', '=', svc.orgB.id).execute()).toEqual([]);
    });

    it('the same worker claiming the message again after its lease ran out makes the earlier claim lapse', async () => {
      const held = heldJobs();
      const worker = new OutboxWorker({
        db: svc.deps.db,
        dialect: svc.deps.dialect,
        clock: svc.clock,
        logger: { error: () => undefined },
        leaseMs: 60_000,
        handlers: { job: held.job },
      });
      await enqueue(svc.deps.db, svc.clock, [{ kind: 'job', organizationId: svc.orgA.id, payload: { name: 'long' } }]);
      const firstRound = worker.deliverDue();
      await expect.poll(() => held.claims.length).toBe(1);
      svc.clock.advance(60_001);
      const secondRound = worker.deliverDue();
      await expect.poll(() => held.claims.length).toBe(2);
      const [earlier, later] = held.claims;
      expect(await earlier?.renew()).toBe(false);
      expect(await later?.renew()).toBe(true);
      held.release();
      await Promise.all([firstRound, secondRound]);
      expect(await later?.renew()).toBe(false);
    });
  });

  describe('scheduled work goes through the same mechanism', () => {
    it('a job runs at its time, and a recurring job keeps one pending row', async () => {
      const runs: string[] = [];
      const job: OutboxHandler<JobPayload> = {
        async deliver(message) {
          runs.push(svc.clock.now().toISOString());
          const every = message.payload.everyMs;
          return { ok: true, durationMs: 0, ...(every ? { repeatAt: new Date(svc.clock.now().getTime() + every) } : {}) };
        },
      };
      const worker = new OutboxWorker({ db: svc.deps.db, dialect: svc.deps.dialect, clock: svc.clock, logger: { error: () => undefined }, handlers: { job } });
      const later = new Date(svc.clock.now().getTime() + 10_000);
      await enqueue(svc.deps.db, svc.clock, [{ kind: 'job', organizationId: null, payload: { name: 'reminder' }, notBefore: later }]);
      for (let i = 0; i < 2; i++) {
        await enqueue(svc.deps.db, svc.clock, [
          { kind: 'job', organizationId: null, payload: { name: 'expiry-sweep', everyMs: 60_000 }, dedupeKey: 'recurring:expiry-sweep' },
        ]);
      }
      expect(await worker.deliverDue()).toBe(1);
      expect(await worker.deliverDue()).toBe(0);
      svc.clock.advance(10_000);
      expect(await worker.deliverDue()).toBe(1);
      svc.clock.advance(50_000);
      expect(await worker.deliverDue()).toBe(1);
      expect(runs).toHaveLength(3);
      const recurring = await svc.deps.db.selectFrom('outbox').selectAll().where('dedupe_key', '=', 'recurring:expiry-sweep').execute();
      expect(recurring).toHaveLength(1);
      expect(recurring[0]!.status).toBe('pending');
    });
  });
});
