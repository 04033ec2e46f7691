import type { Insertable } from 'kysely';
import type { Clock } from '../clock.js';
import type { Db } from '../db/database.js';
import type { ApiKeyKind, OrganizationsTable, UserRole } from '../db/schema.js';
import { newObjectId } from '../ids.js';
import { generateApiKey, hashApiKey, keyHint } from './api-keys.js';
import * as q from './queries.js';
import { FORM_PROCESSES_PER_HOUR_DEFAULT } from './settings.js';

export class OrganizationError extends Error {}

export interface CreatedKey {
  id: string;
  kind: ApiKeyKind;
  key: string;
}

export interface CreatedOrganization {
  organization: string;
  name: string;
  user: AddedUser;
  privateKey: string;
  publicKey: string;
  keys: CreatedKey[];
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function createOrganization(
  db: Db,
  clock: Clock,
  options: { name: string; email: string; sdkIntegration?: boolean },
): Promise<CreatedOrganization> {
  const now = clock.now();
  const organization: Insertable<OrganizationsTable> = {
    id: newObjectId(now),
    name: options.name,
    sdk_integration: options.sdkIntegration ? 1 : 0,
    form_processes_per_hour: FORM_PROCESSES_PER_HOUR_DEFAULT,
    created_at: now.toISOString(),
  };
  return db.transaction().execute(async (trx) => {
    await q.insertOrganization(trx, organization);
    // The organization's first user manages it in the console: its keys, webhooks and other users.
    const user = await addUser(trx, clock, { organizationId: organization.id, email: options.email, role: 'admin' });
    const privateKey = await createApiKey(trx, clock, { organizationId: organization.id, kind: 'private' });
    const publicKey = await createApiKey(trx, clock, { organizationId: organization.id, kind: 'public' });
    return {
      organization: organization.id,
      name: organization.name,
      user,
      privateKey: privateKey.key,
      publicKey: publicKey.key,
      keys: [privateKey, publicKey],
    };
  });
}

export interface AddedUser {
  id: string;
  email: string;
  name?: string;
  role: UserRole;
}

/**
 * A user of the organization; a member unless said otherwise, so that managing keys, webhooks and
 * users is given, never assumed. `name` is shown as the author of the processes the user creates
 * (the roadmap's `author.name`).
 */
export async function addUser(db: Db, clock: Clock, options: { organizationId: string; email: string; name?: string; role?: UserRole }): Promise<AddedUser> {
  if (!(await q.findOrganization(db, options.organizationId))) throw new OrganizationError('ORGANIZATION_NOT_FOUND');
  const email = normalizeEmail(options.email);
  if (await q.findUserByEmail(db, options.organizationId, email)) throw new OrganizationError('USER_ALREADY_EXISTS');
  const now = clock.now();
  const id = newObjectId(now);
  const name = userName(options.name);
  const role = options.role ?? 'sender';
  await q.insertUser(db, { id, organization_id: options.organizationId, email, name: name ?? null, role, language: null, created_at: now.toISOString() });
  return { id, email, ...(name === undefined ? {} : { name }), role };
}

/** Another role for a user; the console reads the role on every request, so it holds at once. */
export async function setUserRole(db: Db, options: { organizationId: string; email: string; role: UserRole }): Promise<AddedUser> {
  const user = await q.findUserByEmail(db, options.organizationId, normalizeEmail(options.email));
  if (!user) throw new OrganizationError('USER_NOT_FOUND');
  await q.setUserRole(db, user.id, options.role);
  return { id: user.id, email: user.email, ...(user.name === null ? {} : { name: user.name }), role: options.role };
}

function userName(name: string | undefined): string | undefined {
  const trimmed = name?.trim();
  if (trimmed !== undefined && trimmed.length > 200) throw new OrganizationError('USER_NAME_TOO_LONG');
  return trimmed === '' ? undefined : trimmed;
}

/** Gives a user a name, or takes it away with an empty one. */
export async function renameUser(db: Db, options: { organizationId: string; email: string; name: string }): Promise<{ email: string; name?: string }> {
  const email = normalizeEmail(options.email);
  const name = userName(options.name);
  if (!(await q.setUserName(db, { organizationId: options.organizationId, email, name: name ?? null }))) throw new OrganizationError('USER_NOT_FOUND');
  return { email, ...(name === undefined ? {} : { name }) };
}

/** The key is returned once; only its hash is stored. */
export async function createApiKey(db: Db, clock: Clock, options: { organizationId: string; kind: ApiKeyKind }): Promise<CreatedKey> {
  if (!(await q.findOrganization(db, options.organizationId))) throw new OrganizationError('ORGANIZATION_NOT_FOUND');
  const now = clock.now();
  const key = generateApiKey(options.kind);
  const id = newObjectId(now);
  await q.insertApiKey(db, {
    id,
    organization_id: options.organizationId,
    kind: options.kind,
    key_hash: hashApiKey(key),
    hint: keyHint(key),
    created_at: now.toISOString(),
    revoked_at: null,
  });
  return { id, kind: options.kind, key };
}

/** Revokes a key by its id or the key itself; with `organizationId`, only a key of that organization (the console's). */
export async function revokeApiKey(db: Db, clock: Clock, options: { id?: string; key?: string; organizationId?: string }): Promise<{ revoked: number }> {
  if (!options.id && !options.key) throw new OrganizationError('KEY_REQUIRED');
  const where = { id: options.id, keyHash: options.key ? hashApiKey(options.key) : undefined, organizationId: options.organizationId };
  const revoked = await q.revokeApiKey(db, where, clock.now().toISOString());
  if (revoked === 0) throw new OrganizationError('KEY_NOT_FOUND');
  return { revoked };
}

/** The SDK integration module: with it, web face validations notify the person by e-mail. */
export async function setSdkIntegration(
  db: Db,
  options: { organizationId: string; enabled: boolean },
): Promise<{ organization: string; sdkIntegration: boolean }> {
  if ((await q.setSdkIntegration(db, options.organizationId, options.enabled)) === 0) throw new OrganizationError('ORGANIZATION_NOT_FOUND');
  return { organization: options.organizationId, sdkIntegration: options.enabled };
}
