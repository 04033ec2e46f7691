import type { ApiKeyKind } from '../db/schema.js';
import { fail } from '../domain-error.js';

/**
 * On a route both keys may call, refuses the public key the parts kept for the private one
 * (listings, photos): the public key sits in integrators' web pages, so anyone may hold it.
 */
export function requirePrivateKey(keyKind: ApiKeyKind | 'none', what: string): void {
  if (keyKind !== 'private') throw fail('PRIVATE_KEY_REQUIRED', what);
}
