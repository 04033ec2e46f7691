import type { FastifyInstance, FastifyRequest } from 'fastify';
import { tooManyRequests } from '../domain-error.js';
import type { EmbedFailures } from './embed.js';

type Counter = ReturnType<FastifyInstance['createRateLimit']>;

/**
 * Refused embed lookups an organization takes before its lookups without a token are answered 429
 * until the window ends. Legitimate pages are refused rarely (a wrong origin setting, a deleted
 * document); a guesser is refused almost every time. Generous for the first, and it makes guessing
 * a two-character participant id of a process created before (1,296 values) take hours.
 */
export const EMBED_FAILURES_PER_ORGANIZATION = { max: 100, windowMs: 10 * 60_000 };

/**
 * Counts refused lookups per organization in a store of @fastify/rate-limit's own (the one the app
 * registers, so where it is shared between instances, these counts are too). The counter is keyed
 * by the organization the request's key belongs to, which the lookup sets on the request.
 */
export class OrganizationEmbedFailures {
  private readonly counters = new WeakMap<FastifyInstance, Counter>();

  constructor(private readonly limit: { max: number; windowMs: number }) {}

  /** The failures of the organizations whose keys `request` carries; needs @fastify/rate-limit registered. */
  of(request: FastifyRequest): EmbedFailures {
    const counter = this.counterOf(request.server);
    const count = async (organizationId: string, increment: boolean) => {
      request.organizationId = organizationId;
      return counter(request, { increment });
    };
    return {
      refusal: async (organizationId) => {
        const seen = await count(organizationId, false);
        return seen.isAllowed || seen.remaining > 0 ? undefined : tooManyRequests(seen.ttl);
      },
      fail: async (organizationId) => {
        await count(organizationId, true);
      },
    };
  }

  private counterOf(app: FastifyInstance): Counter {
    const known = this.counters.get(app);
    if (known) return known;
    const counter = app.createRateLimit({
      max: this.limit.max,
      timeWindow: this.limit.windowMs,
      keyGenerator: (request) => `embed-organization:${request.organizationId}`,
    });
    this.counters.set(app, counter);
    return counter;
  }
}
