import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Db } from '../db/database.js';
import { isRecord } from '../is-record.js';
import { countHit, deleteEndedWindows, readHits, type WindowCount } from './rate-limit-queries.js';

/** Counts hits per key in fixed windows. */
export interface HitCounter {
  hit(key: string, windowMs: number): Promise<WindowCount>;
  read(key: string): Promise<WindowCount>;
  /** Forgets the windows that have ended (the recurring job `rate-limit-windows`). */
  deleteEndedWindows(): Promise<void>;
}

/** Hits counted in the database, which every instance on one PostgreSQL schema shares. */
export class PostgresHitCounter implements HitCounter {
  constructor(private readonly db: Db) {}

  hit(key: string, windowMs: number): Promise<WindowCount> {
    return countHit(this.db, key, windowMs);
  }

  read(key: string): Promise<WindowCount> {
    return readHits(this.db, key);
  }

  deleteEndedWindows(): Promise<void> {
    return deleteEndedWindows(this.db);
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
 * (which the service does not use). `read` answers `{ increment: false }`.
 */
class CounterStore implements FastifyRateLimitStore {
  constructor(
    private readonly counter: HitCounter,
    private readonly prefix: string,
  ) {}

  incr(key: string, answer: Answer, timeWindow: number): void {
    this.counter.hit(this.prefix + key, timeWindow).then(
      (count) => answer(null, { current: count.hits, ttl: count.ttlMs }),
      (error: Error) => answer(error),
    );
  }

  read(key: string, answer: Answer): void {
    this.counter.read(this.prefix + key).then(
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
