import type { Clock } from '../clock.js';
import type { Db } from '../db/database.js';
import type { ApiKeyKind } from '../db/schema.js';
import { hashApiKey } from '../organizations/api-keys.js';
import { findActiveKeyByHash } from '../organizations/queries.js';

export interface ResolvedKey {
  organizationId: string;
  kind: ApiKeyKind;
}

/** How long a known key is trusted without asking the database: a revocation takes effect within it. */
export const KEY_CACHE_TTL_MS = 1000;
const KEY_CACHE_LIMIT = 10_000;

/**
 * Finds the organization of an API key. Every request needs it, so keys that were found are kept for
 * one second: a revocation (from any instance or the admin command) is in force at most one second
 * later. Unknown keys are never kept, so guessing cannot fill the memory.
 */
export class ApiKeyResolver {
  private readonly cache = new Map<string, ResolvedKey & { until: number }>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** The key's organization when it was found less than a second ago; no database, no promise. */
  cached(key: string): ResolvedKey | undefined {
    const cached = this.cache.get(key);
    return cached && cached.until > this.clock.now().getTime() ? cached : undefined;
  }

  async resolve(key: string): Promise<ResolvedKey | undefined> {
    const now = this.clock.now().getTime();
    const cached = this.cached(key);
    if (cached) return cached;
    this.cache.delete(key);
    const found = await findActiveKeyByHash(this.db, hashApiKey(key));
    if (!found) return undefined;
    if (this.cache.size >= KEY_CACHE_LIMIT) this.cache.clear();
    const resolved = { organizationId: found.organization_id, kind: found.kind, until: now + KEY_CACHE_TTL_MS };
    this.cache.set(key, resolved);
    return resolved;
  }
}
