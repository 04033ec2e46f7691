import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import type { ApiKeyKind } from '../db/schema.js';
import { fail } from '../domain-error.js';
import type { Access } from '../http/route.js';
import type { FailedAttempts } from './failed-attempts.js';
import type { ApiKeyResolver, ResolvedKey } from './key-resolver.js';
import { isOperatorMachine } from './operator-machine.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The organization that owns the API key of the request; every query is scoped to it. */
    organizationId: string;
    /** Which of the organization's keys called; `none` on routes that take no key. */
    keyKind: ApiKeyKind | 'none';
  }
  interface FastifyContextConfig {
    /** Who may call the route, from its declaration (src/http/route.ts). */
    access?: Access;
  }
}

const KEY_PATTERN = /^(prk|puk)_[0-9a-f]{32}$/;

function admits(access: Access, found: ResolvedKey | undefined): found is ResolvedKey {
  return found !== undefined && (found.kind === 'private' || access === 'any-key');
}

/**
 * The bare key in `Authorization`, no scheme, on the routes whose declaration asks for one. The
 * private key (prk_) opens every such route, as the contract says; the public key (puk_) only the
 * routes declared `any-key` (reads), where the handler answers it less than the private key. Failed
 * attempts are counted per client address, and an address past the limit is refused before its key
 * is looked at.
 */
export function authenticate(app: FastifyInstance, keys: ApiKeyResolver, attempts: FailedAttempts): void {
  app.decorateRequest('organizationId', '');
  app.decorateRequest('keyKind', 'none');
  // Each route that takes a key gets its own hook, built for its access once, when it is declared:
  // routes that take none run no hook at all, and no request reads its route's options to find out
  // (Fastify builds a fresh object on every read of request.routeOptions). First among the route's
  // own hooks, so its rate limit counts only requests already authenticated, as before.
  app.addHook('onRoute', (route) => {
    const access = route.config?.access;
    if (access !== 'private-key' && access !== 'any-key' && access !== 'operator') return;
    const existing = route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
    route.onRequest = [keyCheck(access, keys, attempts), ...existing];
  });
}

/**
 * A callback hook rather than an async one: a key seen within the second is admitted without a
 * promise, which every request of a busy integrator would otherwise pay for.
 */
function keyCheck(access: 'private-key' | 'any-key' | 'operator', keys: ApiKeyResolver, attempts: FailedAttempts): onRequestHookHandler {
  return (request, _reply, done) => {
    // The operator at the service's machine needs no key; a key sent there is checked, and narrows to its organization.
    if (access === 'operator' && request.headers.authorization === undefined && isOperatorMachine(request)) return done();
    const key = request.headers.authorization?.trim() ?? '';
    const wellFormed = KEY_PATTERN.test(key);
    const cached = wellFormed ? keys.cached(key) : undefined;
    if (admits(access, cached)) {
      // Still refused past the failed-attempts limit, right or wrong, without waiting on its store.
      const refused = attempts.knownRefusal(request);
      if (refused) return done(refused);
      request.organizationId = cached.organizationId;
      request.keyKind = cached.kind;
      return done();
    }
    const check = async () => {
      const refusal = await attempts.refusal(request);
      if (refusal) return refusal;
      const found = cached ?? (wellFormed ? await keys.resolve(key) : undefined);
      if (admits(access, found)) {
        request.organizationId = found.organizationId;
        request.keyKind = found.kind;
        return undefined;
      }
      // A real key of the wrong kind is a mistake, not a guess. On a read kept for the private key
      // (listings, logs; asked with GET or HEAD alike) the caller is told which key it takes; on a
      // write it is the contract's 401.
      if (found === undefined) await attempts.fail(request);
      else if (request.method === 'GET' || request.method === 'HEAD') return fail('PRIVATE_KEY_REQUIRED');
      return fail('UNAUTHORIZED');
    };
    check().then(done, done);
  };
}
