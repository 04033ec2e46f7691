import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../http/errors.js';

export interface FailedAttemptsLimit {
  max: number;
  windowMs: number;
}

type Counter = ReturnType<FastifyInstance['createRateLimit']>;

/** Below this many remembered addresses, the ones whose window has ended are not looked for. */
const SWEEP_FROM = 1024;

/**
 * Failed attempts per client address, counted in @fastify/rate-limit's store (shared by every
 * instance on PostgreSQL: src/deps.ts). An address that has failed `max` times in the window is
 * answered 429 on every attempt until the window ends, right or wrong: answering a right guess
 * while refusing wrong ones would not slow a guesser at all.
 *
 * A key seen within the second is admitted without waiting on any store (src/auth/authenticate.ts),
 * so the addresses known to be past the limit are also kept here, in memory, and looked up
 * synchronously on that path. This instance knows of a lock from each count it makes and each
 * count it reads from the store (the store's total, every instance's failures included): its own
 * failures, and any request of the address with a key not seen within the second.
 */
export class FailedAttempts {
  /** Client address → when its window ends (ms since the epoch, the plugin's clock). */
  private readonly locked = new Map<string, number>();
  private sweepAt = SWEEP_FROM;

  private constructor(private readonly counter: Counter) {}

  /** Needs @fastify/rate-limit registered on the app (app.ts does, with `global: false`). */
  static create(app: FastifyInstance, limit: FailedAttemptsLimit): FailedAttempts {
    return new FailedAttempts(
      app.createRateLimit({
        max: limit.max,
        timeWindow: limit.windowMs,
        // Names the counts in a store the route limits share.
        keyGenerator: (request) => `failed-authentication ${addressOf(request)}`,
      }),
    );
  }

  /** Without waiting: a 429 to answer when this instance knows the request's address is past the limit. */
  knownRefusal(request: FastifyRequest): ApiError | undefined {
    if (this.locked.size === 0) return undefined;
    const address = addressOf(request);
    const until = this.locked.get(address);
    if (until === undefined) return undefined;
    const left = until - Date.now();
    if (left > 0) return tooMany(left);
    this.locked.delete(address);
    return undefined;
  }

  /** Resolves with a 429 to answer when the request's address has used up its attempts, else undefined. */
  async refusal(request: FastifyRequest): Promise<ApiError | undefined> {
    const known = this.knownRefusal(request);
    if (known) return known;
    const seen = await this.counter(request, { increment: false });
    if (seen.isAllowed || seen.remaining > 0) return undefined;
    this.remember(request, seen.ttl);
    return tooMany(seen.ttl);
  }

  /** Counts one failure. */
  async fail(request: FastifyRequest): Promise<void> {
    const counted = await this.counter(request);
    if (!counted.isAllowed && counted.remaining === 0) this.remember(request, counted.ttl);
  }

  private remember(request: FastifyRequest, ttlMs: number): void {
    const now = Date.now();
    // Each lock costs `max` failures, so the map grows slowly; the ended ones go once it doubles.
    if (this.locked.size >= this.sweepAt) {
      for (const [address, until] of this.locked) if (until <= now) this.locked.delete(address);
      this.sweepAt = Math.max(SWEEP_FROM, this.locked.size * 2);
    }
    this.locked.set(addressOf(request), now + ttlMs);
  }
}

/** The address as @fastify/rate-limit counts it (an IPv6 client by its /64). */
function addressOf(request: FastifyRequest): string {
  return normalizeIP(request.ip);
}

function tooMany(ms: number): ApiError {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  return new ApiError(429, `TOO_MANY_REQUESTS: try again in ${seconds} s`, { 'retry-after': String(seconds) });
}
