import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../http/errors.js';

export interface FailedAttemptsLimit {
  max: number;
  windowMs: number;
}

type Counter = ReturnType<FastifyInstance['createRateLimit']>;

/**
 * Failed attempts per client address, counted in a store of @fastify/rate-limit's own. An address
 * that has failed `max` times in the window is answered 429 on every attempt until the window ends,
 * right or wrong: answering a right guess while refusing wrong ones would not slow a guesser at all.
 */
export class FailedAttempts {
  private constructor(private readonly counter: Counter) {}

  /** Needs @fastify/rate-limit registered on the app (app.ts does, with `global: false`). */
  static create(app: FastifyInstance, limit: FailedAttemptsLimit): FailedAttempts {
    return new FailedAttempts(app.createRateLimit({ max: limit.max, timeWindow: limit.windowMs }));
  }

  /** Resolves with a 429 to answer when the request's address has used up its attempts, else undefined. */
  async refusal(request: FastifyRequest): Promise<ApiError | undefined> {
    const seen = await this.counter(request, { increment: false });
    return !seen.isAllowed && seen.remaining === 0 ? tooMany(seen.ttl) : undefined;
  }

  /** Counts one failure. */
  async fail(request: FastifyRequest): Promise<void> {
    await this.counter(request);
  }
}

function tooMany(ms: number): ApiError {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  return new ApiError(429, `TOO_MANY_REQUESTS: try again in ${seconds} s`, { 'retry-after': String(seconds) });
}
