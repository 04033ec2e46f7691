import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type DomainError, tooManyRequests } from '../domain-error.js';
import { ExpiringKeys } from '../http/expiring-keys.js';

export interface FailedAttemptsLimit {
  max: number;
  windowMs: number;
}

type Counter = ReturnType<FastifyInstance['createRateLimit']>;

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
  /** Client addresses past the limit, until their window ends. */
  private readonly locked = new ExpiringKeys();

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
  knownRefusal(request: FastifyRequest): DomainError | undefined {
    if (this.locked.size === 0) return undefined;
    const left = this.locked.left(addressOf(request));
    return left > 0 ? tooManyRequests(left) : undefined;
  }

  /** Resolves with a 429 to answer when the request's address has used up its attempts, else undefined. */
  async refusal(request: FastifyRequest): Promise<DomainError | undefined> {
    const known = this.knownRefusal(request);
    if (known) return known;
    const seen = await this.counter(request, { increment: false });
    if (seen.isAllowed || seen.remaining > 0) return undefined;
    this.locked.keep(addressOf(request), seen.ttl);
    return tooManyRequests(seen.ttl);
  }

  /** Counts one failure. */
  async fail(request: FastifyRequest): Promise<void> {
    const counted = await this.counter(request);
    if (!counted.isAllowed && counted.remaining === 0) this.locked.keep(addressOf(request), counted.ttl);
  }
}

/** The address as @fastify/rate-limit counts it (an IPv6 client by its /64). */
function addressOf(request: FastifyRequest): string {
  return normalizeIP(request.ip);
}
