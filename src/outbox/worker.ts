import crypto from 'node:crypto';
import os from 'node:os';
import type { Clock } from '../clock.js';
import type { Db, Dialect } from '../db/database.js';
import type { OutboxRow } from '../db/schema.js';
import { newObjectId } from '../ids.js';
import { AttemptRecorder } from './attempt-recorder.js';
import { OutboxClaim } from './claim.js';
import { claimDueMessages, finishMessages, type MessageResult } from './queries.js';
import { MAX_ATTEMPTS, nextRetryAt } from './retry-schedule.js';
import type { DeliveryOutcome, OutboxHandler, OutboxKind, OutboxMessage } from './types.js';

export interface WorkerLogger {
  error(details: object, message: string): void;
  /** Something the operator should fix that the service works around (pino's level); error when absent. */
  warn?(details: object, message: string): void;
}

export interface OutboxWorkerOptions {
  db: Db;
  dialect: Dialect;
  clock: Clock;
  handlers: Partial<Record<OutboxKind, OutboxHandler>>;
  logger: WorkerLogger;
  /** Messages claimed and delivered side by side in one round. */
  batchSize?: number;
  /** How long a claim holds; longer than any delivery's own timeout, so only a dead worker's claims lapse. */
  leaseMs?: number;
  /** How long to sleep when nothing is due, unless woken. */
  idleMs?: number;
  /** Rounds in flight at once (see run()). */
  rounds?: number;
  random?: () => number;
}

const EXCERPT = 500;

/** What a message gets if its handler answered for fewer messages than it was given. */
const NO_OUTCOME: DeliveryOutcome = { ok: false, durationMs: 0, error: 'no outcome' };

/**
 * Delivers the outbox after commit, in the service's own process. At least once: a message stays
 * pending until an attempt is recorded, and a worker that dies mid-delivery only leaves a lease that
 * runs out. Several instances share the work through claims (SKIP LOCKED on PostgreSQL).
 */
export class OutboxWorker {
  readonly id = `${os.hostname()}:${process.pid}:${crypto.randomBytes(3).toString('hex')}`;
  private running = false;
  private loop: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  private wakeScheduled = false;
  private readonly batchSize: number;
  private readonly leaseMs: number;
  private readonly idleMs: number;
  private readonly rounds: number;
  private readonly attempts: AttemptRecorder;

  constructor(private readonly options: OutboxWorkerOptions) {
    this.batchSize = options.batchSize ?? 200;
    this.leaseMs = options.leaseMs ?? 60_000;
    this.idleMs = options.idleMs ?? 250;
    this.rounds = options.rounds ?? 2;
    this.attempts = new AttemptRecorder(options.db);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /**
   * Wakes the worker once the event loop has finished its turn: every commit of the turn calls this,
   * and they get one claim between them. Woken at once, the worker claimed after the turn's first
   * commit, and on SQLite the claim (a write outside the group) committed the group that was
   * still gathering the turn's other creations.
   */
  wake(): void {
    if (this.wakeScheduled) return;
    this.wakeScheduled = true;
    setImmediate(() => {
      this.wakeScheduled = false;
      this.wakeUp?.();
    });
  }

  /** Stops claiming, lets the round in flight finish and record its attempts, then returns. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
  }

  /** One round: claim what is due, deliver it, record every attempt. Answers how many were claimed. */
  async deliverDue(): Promise<number> {
    const round = await this.claim();
    if (round.rows.length > 0) await this.deliver(round);
    return round.rows.length;
  }

  private async claim(): Promise<{ rows: OutboxRow[]; leaseUntil: string }> {
    const { db, dialect, clock } = this.options;
    const now = clock.now();
    const leaseUntil = new Date(now.getTime() + this.leaseMs).toISOString();
    const rows = await claimDueMessages(db, dialect, { workerId: this.id, now: now.toISOString(), leaseUntil, limit: this.batchSize });
    return { rows, leaseUntil };
  }

  private async deliver(round: { rows: OutboxRow[]; leaseUntil: string }): Promise<void> {
    const results = await this.attemptAll(round.rows, round.leaseUntil);
    const finishedAt = this.options.clock.now().toISOString();
    await this.options.db.transaction().execute((trx) => finishMessages(trx, { workerId: this.id, now: finishedAt, results }));
  }

  /**
   * Rounds overlap: a round that claimed a full batch lets the next claim at once, up to `rounds`
   * in flight, so deliveries go on while a round waits for its writes (a claim, its attempts, its
   * finish) to reach the disk; one round alone spent most of its time waiting for them. A round
   * that found fewer than a full batch waits for those in flight to end before claiming again, and
   * one that found nothing (with none in flight) sleeps until woken.
   */
  private async run(): Promise<void> {
    const inFlight = new Set<Promise<void>>();
    while (this.running) {
      let claimed = 0;
      try {
        const round = await this.claim();
        claimed = round.rows.length;
        if (claimed > 0) {
          const delivering: Promise<void> = this.deliver(round)
            .catch((error: unknown) => this.options.logger.error({ err: error }, 'outbox round failed'))
            .finally(() => inFlight.delete(delivering));
          inFlight.add(delivering);
        }
      } catch (error) {
        this.options.logger.error({ err: error }, 'outbox round failed');
      }
      if (!this.running) break;
      if (inFlight.size >= this.rounds || (claimed < this.batchSize && inFlight.size > 0)) await Promise.race(inFlight);
      else if (claimed === 0) await this.sleep();
    }
    await Promise.all(inFlight);
  }

  private sleep(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.wake(), this.idleMs);
      this.wakeUp = () => {
        clearTimeout(timer);
        this.wakeUp = undefined;
        resolve();
      };
    });
  }

  /**
   * Every claimed message gets exactly one attempt record, whatever its handler does, written as soon
   * as that delivery ends and naming this worker: a worker that dies mid-round leaves the record of
   * every delivery it finished, though the messages stay claimed until their lease runs out.
   */
  private async attemptAll(rows: OutboxRow[], leaseUntil: string): Promise<MessageResult[]> {
    const startedAt = this.options.clock.now();
    const kinds = [...new Set(rows.map((r) => r.kind))];
    const outcomes = new Map<string, Promise<DeliveryOutcome>>();
    for (const kind of kinds) {
      const group = rows.filter((r) => r.kind === kind);
      const pending = this.deliverGroup(
        kind,
        group.map((row) => this.toMessage(row, leaseUntil)),
      );
      for (const [i, row] of group.entries()) outcomes.set(row.id, pending[i] ?? Promise.resolve(NO_OUTCOME));
    }
    return Promise.all(
      rows.map(async (row) => {
        const outcome = (await outcomes.get(row.id)) ?? NO_OUTCOME;
        await this.attempts.record({
          id: newObjectId(startedAt),
          outbox_id: row.id,
          started_at: startedAt.toISOString(),
          duration_ms: Math.round(outcome.durationMs),
          ok: outcome.ok ? 1 : 0,
          status_code: outcome.statusCode ?? null,
          response: outcome.response?.slice(0, EXCERPT) ?? null,
          error: outcome.error?.slice(0, EXCERPT) ?? null,
          instance: this.id,
        });
        if (outcome.deferred) {
          return { id: row.id, status: 'pending', attempts: row.attempts, lastError: outcome.error ?? null, nextAttemptAt: row.next_attempt_at };
        }
        return this.resultOf(row.id, row.attempts + 1, outcome);
      }),
    );
  }

  private resultOf(id: string, attempts: number, outcome: DeliveryOutcome): MessageResult {
    if (outcome.ok && outcome.repeatAt) {
      return { id, status: 'pending', attempts: 0, lastError: null, nextAttemptAt: outcome.repeatAt.toISOString() };
    }
    if (outcome.ok) return { id, status: 'delivered', attempts, lastError: null };
    const lastError = (outcome.error ?? `HTTP ${outcome.statusCode ?? '?'}`).slice(0, EXCERPT);
    const retryAt = outcome.retryable === false || attempts >= MAX_ATTEMPTS ? undefined : nextRetryAt(attempts, this.options.clock.now(), this.options.random);
    if (!retryAt) return { id, status: 'failed', attempts, lastError };
    return { id, status: 'pending', attempts, lastError, nextAttemptAt: retryAt.toISOString() };
  }

  /** One outcome per message, each settling when its delivery ends; a handler's failure is that message's outcome. */
  private deliverGroup(kind: OutboxKind, messages: OutboxMessage[]): Promise<DeliveryOutcome>[] {
    const handler = this.options.handlers[kind];
    if (!handler) return messages.map(async () => ({ ok: false, retryable: false, durationMs: 0, error: `No handler for ${kind} messages` }));
    const started = performance.now();
    const failure = (error: unknown): DeliveryOutcome => ({
      ok: false,
      durationMs: performance.now() - started,
      error: error instanceof Error ? error.message : String(error),
    });
    let pending: Promise<DeliveryOutcome>[];
    try {
      pending = handler.deliverAll ? handler.deliverAll(messages) : messages.map((message) => handler.deliver(message));
    } catch (error) {
      return messages.map(async () => failure(error));
    }
    return pending.map((outcome) => outcome.catch(failure));
  }

  /** The message as its handler gets it, with the claim this round holds it by until `leaseUntil`. */
  private toMessage(row: OutboxRow, leaseUntil: string): OutboxMessage {
    const { db, clock } = this.options;
    return {
      id: row.id,
      organizationId: row.organization_id,
      kind: row.kind,
      payload: JSON.parse(row.payload),
      attempts: row.attempts,
      createdAt: row.created_at,
      claim: new OutboxClaim({ db, clock, id: row.id, workerId: this.id, lockedUntil: leaseUntil, leaseMs: this.leaseMs }),
    };
  }
}
