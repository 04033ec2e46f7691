import type { FastifyInstance, FastifyRequest } from 'fastify';
import { unauthorized } from '../http/errors.js';
import type { ApiKeyResolver } from './key-resolver.js';

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
  app.addHook('onRequest', async (request: FastifyRequest) => {
    const key = request.headers.authorization?.trim() ?? '';
    if (!KEY_PATTERN.test(key)) throw unauthorized();
    const found = await keys.resolve(key);
    if (!found) throw unauthorized();
    if (found.kind === 'public' && !READ_METHODS.has(request.method)) throw unauthorized();
    request.organizationId = found.organizationId;
  });
}
