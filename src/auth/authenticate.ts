import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { unauthorized } from '../http/errors.js';
import type { ApiKeyResolver, ResolvedKey } from './key-resolver.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The organization that owns the API key of the request; every query is scoped to it. */
    organizationId: string;
  }
}

const KEY_PATTERN = /^(prk|puk)_[0-9a-f]{32}$/;
const READ_METHODS = new Set(['GET', 'HEAD']);

/**
 * The bare key in `Authorization`, no scheme. The private key (prk_) opens every endpoint, as the
 * contract says; the public key (puk_) only reads, as the real service allows.
 */
export function authenticate(app: FastifyInstance, keys: ApiKeyResolver): void {
  app.decorateRequest('organizationId', '');
  const admit = (request: FastifyRequest, found: ResolvedKey | undefined): Error | undefined => {
    if (!found || (found.kind === 'public' && !READ_METHODS.has(request.method))) return unauthorized();
    request.organizationId = found.organizationId;
    return undefined;
  };
  // A callback hook rather than an async one: a key seen within the second is admitted without a
  // promise, which every request of a busy integrator would otherwise pay for.
  app.addHook('onRequest', (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
    const key = request.headers.authorization?.trim() ?? '';
    if (!KEY_PATTERN.test(key)) return done(unauthorized());
    const cached = keys.cached(key);
    if (cached) return done(admit(request, cached));
    keys.resolve(key).then(
      (found) => done(admit(request, found)),
      (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
    );
  });
}
