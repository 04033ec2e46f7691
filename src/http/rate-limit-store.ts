import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Db } from '../db/database.js';
import { isRecord } from '../is-record.js';
import { ExpiringKeys } from './expiring-keys.js';
import { countHits, deleteEndedWindows, readHits, type WindowCount } from './rate-limit-queries.js';

/** Counts hits per key in fixed windows. */
export interface HitCounter {
  hit(key: string, windowMs: number): Promise<WindowCount>;
  read(key: string): Promise<WindowCount>;
  /** Forgets the windows that have ended (the recurring job `rate-limit-windows`). */
  deleteEndedWindows(): Promise<void>;
}

/** Postgres takes 65,535 parameters a statement; a key takes three. */
const KEYS_PER_STATEMENT = 1000;

interface Waiting {
  windowMs: number;
  callers: { resolve(count: WindowCount): void; reject(error: unknown): void }[];
}

/**
 * Hits counted in the database, which every instance on one PostgreSQL schema shares. Hits arriving
 * in the same turn of the event loop, or while a statement is under way, go in the next statement
 * together, one row per key (`hits + n`), and the callers of a key are answered the counts n
 * serial hits would have been: a client's burst on one route costs one statement, not n that
 * queue on its row's lock. One statement at a time per instance.
 */
export class PostgresHitCounter implements HitCounter {
  private waiting = new Map<string, Waiting>();
  private counting = false;

  constructor(private readonly db: Db) {}

  hit(key: string, windowMs: number): Promise<WindowCount> {
    return new Promise((resolve, reject) => {
      const waiting = this.waiting.get(key);
      if (waiting) waiting.callers.push({ resolve, reject });
      else this.waiting.set(key, { windowMs, callers: [{ resolve, reject }] });
      if (!this.counting) {
        this.counting = true;
        setImmediate(() => void this.countWaiting());
      }
    });
  }

  read(key: string): Promise<WindowCount> {
    return readHits(this.db, key);
  }

  deleteEndedWindows(): Promise<void> {
    return deleteEndedWindows(this.db);
  }

  /** Counts what waits, a statement at a time, until nothing does. Never rejects: failures go to the callers. */
  private async countWaiting(): Promise<void> {
    while (this.waiting.size > 0) {
      const batch = [...this.waiting].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).slice(0, KEYS_PER_STATEMENT);
      for (const [key] of batch) this.waiting.delete(key);
      try {
        const counts = await countHits(
          this.db,
          batch.map(([key, waiting]) => ({ key, hits: waiting.callers.length, windowMs: waiting.windowMs })),
        );
        for (const [key, { callers }] of batch) {
          const total = counts.get(key);
          if (total === undefined) throw new Error(`the rate-limit count of ${key} was not returned`);
          // The key's callers, in the order they came, are the last n hits of its count.
          const first = total.hits - callers.length + 1;
          for (const [n, caller] of callers.entries()) caller.resolve({ hits: first + n, ttlMs: total.ttlMs });
        }
      } catch (error) {
        for (const [, { callers }] of batch) for (const caller of callers) caller.reject(error);
      }
    }
    this.counting = false;
  }
}

type Answer = (error: Error | null, result?: { current: number; ttl: number }) => void;

/**
 * The route a limit was declared on, which names its counts: the plugin passes a route's limit
 * its `routeInfo`; limiters made with `app.createRateLimit` get an empty one, and name their
 * counts through their `keyGenerator` (src/auth/failed-attempts.ts).
 */
function routeName(options: unknown): string {
  const route = isRecord(options) ? options.routeInfo : undefined;
  if (!isRecord(route) || typeof route.url !== 'string') return '';
  return `${String(route.method)} ${route.url} `;
}

/**
 * @fastify/rate-limit's store interface over a HitCounter: a fixed window from a key's first hit,
 * as the plugin's own in-memory store counts without `continueExceeding` or `exponentialBackoff`
 * (which the service does not use). `read` answers `{ increment: false }`. A key that has reached
 * its limit can only stay past it until its window ends, so from then on it is answered from
 * memory: a client hammering a route past its limit costs the database nothing.
 */
class CounterStore implements FastifyRateLimitStore {
  private readonly spent = new ExpiringKeys();

  constructor(
    private readonly counter: HitCounter,
    private readonly prefix: string,
  ) {}

  incr(key: string, answer: Answer, timeWindow: number, max: number): void {
    const named = this.prefix + key;
    const left = this.spent.left(named);
    if (left > 0) {
      answer(null, { current: max + 1, ttl: left });
      return;
    }
    this.counter.hit(named, timeWindow).then(
      (count) => {
        if (count.hits >= max) this.spent.keep(named, count.ttlMs);
        answer(null, { current: count.hits, ttl: count.ttlMs });
      },
      (error: Error) => answer(error),
    );
  }

  read(key: string, answer: Answer, _timeWindow: number, max: number): void {
    const named = this.prefix + key;
    const left = this.spent.left(named);
    if (left > 0) {
      answer(null, { current: max, ttl: left });
      return;
    }
    this.counter.read(named).then(
      (count) => answer(null, { current: count.hits, ttl: count.ttlMs }),
      (error: Error) => answer(error),
    );
  }

  child(options: object): FastifyRateLimitStore {
    return new CounterStore(this.counter, routeName(options));
  }
}

/** The `store` option of @fastify/rate-limit: every limit counted by `counter`. */
export function counterStore(counter: HitCounter): FastifyRateLimitStoreCtor {
  return class extends CounterStore {
    constructor() {
      super(counter, '');
    }
  };
}
