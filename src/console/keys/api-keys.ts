import type { ServiceContext } from '../../context.js';
import type { ApiKeyKind } from '../../db/schema.js';
import { fail } from '../../domain-error.js';
import { type CreatedKey, createApiKey, OrganizationError, revokeApiKey } from '../../organizations/organizations.js';
import { listApiKeys } from '../../organizations/queries.js';

/** A key as the console lists it: its kind and hint, never the key (only its hash is stored). */
export interface KeyView {
  id: string;
  kind: ApiKeyKind;
  hint: string;
  created_at: string;
  revoked_at?: string;
}

export async function listKeys(ctx: Pick<ServiceContext, 'db'>, options: { organizationId: string }): Promise<{ data: KeyView[] }> {
  const rows = await listApiKeys(ctx.db, options.organizationId);
  return {
    data: rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      hint: row.hint,
      created_at: row.created_at,
      ...(row.revoked_at === null ? {} : { revoked_at: row.revoked_at }),
    })),
  };
}

/** A new key of the organization, answered this once, as `admin key create` does. */
export async function createKey(ctx: Pick<ServiceContext, 'db' | 'clock'>, options: { organizationId: string; kind: ApiKeyKind }): Promise<CreatedKey> {
  try {
    return await createApiKey(ctx.db, ctx.clock, options);
  } catch (error) {
    if (error instanceof OrganizationError) throw fail('ORGANIZATION_NOT_FOUND');
    throw error;
  }
}

/** Revokes one of the organization's keys: in force everywhere within a second (src/auth/authenticate.ts). */
export async function revokeKey(
  ctx: Pick<ServiceContext, 'db' | 'clock'>,
  options: { organizationId: string; id: string },
): Promise<{ id: string; revoked: true }> {
  try {
    await revokeApiKey(ctx.db, ctx.clock, options);
  } catch (error) {
    if (error instanceof OrganizationError) throw fail('API_KEY_NOT_FOUND');
    throw error;
  }
  return { id: options.id, revoked: true };
}
