import type { Insertable } from 'kysely';
import type { Db, Dialect } from '../db/database.js';
import { reusableQuery } from '../db/reusable-query.js';
import type { ApiKeyKind, ApiKeyRow, OrganizationRow, OrganizationsTable, UserRole, UserRow } from '../db/schema.js';

export async function insertOrganization(db: Db, row: Insertable<OrganizationsTable>): Promise<void> {
  await db.insertInto('organizations').values(row).execute();
}

// Read by every face validation's creation: compiled once (src/db/reusable-query.ts).
const organizationById = reusableQuery((db, p: { id: string }) => db.selectFrom('organizations').selectAll().where('id', '=', p.id));

export async function findOrganization(db: Db, id: string): Promise<OrganizationRow | undefined> {
  return (await organizationById(db, { id }))[0];
}

export async function setSdkIntegration(db: Db, id: string, enabled: boolean): Promise<number> {
  const result = await db
    .updateTable('organizations')
    .set({ sdk_integration: enabled ? 1 : 0 })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export type SettingsPatch = Partial<
  Pick<
    OrganizationRow,
    'sdk_origins' | 'sdk_require_token' | 'language' | 'time_zone' | 'photo_retention_days' | 'form_processes_per_hour' | 'signer_delegation' | 'pades_level'
  >
>;

export async function updateOrganizationSettings(db: Db, id: string, patch: SettingsPatch): Promise<OrganizationRow | undefined> {
  if (Object.keys(patch).length === 0) return findOrganization(db, id);
  return db.updateTable('organizations').set(patch).where('id', '=', id).returningAll().executeTakeFirst();
}

export async function listOrganizations(db: Db): Promise<OrganizationRow[]> {
  return db.selectFrom('organizations').selectAll().orderBy('created_at').orderBy('id').execute();
}

export async function insertUser(db: Db, row: UserRow): Promise<void> {
  await db.insertInto('users').values(row).execute();
}

// Every creation checks its creator: compiled once (src/db/reusable-query.ts).
const userByEmail = reusableQuery((db, p: { organizationId: string; email: string }) =>
  db.selectFrom('users').selectAll().where('organization_id', '=', p.organizationId).where('email', '=', p.email),
);

export async function findUserByEmail(db: Db, organizationId: string, email: string): Promise<UserRow | undefined> {
  return (await userByEmail(db, { organizationId, email }))[0];
}

export async function setUserName(db: Db, options: { organizationId: string; email: string; name: string | null }): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ name: options.name })
    .where('organization_id', '=', options.organizationId)
    .where('email', '=', options.email)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The organization's first user: the one it was created with. */
export async function firstUser(db: Db, organizationId: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('organization_id', '=', organizationId).orderBy('created_at').orderBy('id').limit(1).executeTakeFirst();
}

export async function setUserRole(db: Db, id: string, role: UserRole): Promise<void> {
  await db.updateTable('users').set({ role }).where('id', '=', id).execute();
}

export async function listUsers(db: Db, organizationId: string): Promise<UserRow[]> {
  return db.selectFrom('users').selectAll().where('organization_id', '=', organizationId).orderBy('email').execute();
}

export async function insertApiKey(db: Db, row: ApiKeyRow): Promise<void> {
  await db.insertInto('api_keys').values(row).execute();
}

export async function findActiveKeyByHash(db: Db, keyHash: string): Promise<{ organization_id: string; kind: ApiKeyKind } | undefined> {
  return db.selectFrom('api_keys').select(['organization_id', 'kind']).where('key_hash', '=', keyHash).where('revoked_at', 'is', null).executeTakeFirst();
}

export async function listApiKeys(db: Db, organizationId: string): Promise<ApiKeyRow[]> {
  return db.selectFrom('api_keys').selectAll().where('organization_id', '=', organizationId).orderBy('created_at').execute();
}

export async function revokeApiKey(db: Db, where: { id?: string; keyHash?: string; organizationId?: string }, revokedAt: string): Promise<number> {
  let query = db.updateTable('api_keys').set({ revoked_at: revokedAt }).where('revoked_at', 'is', null);
  if (where.organizationId) query = query.where('organization_id', '=', where.organizationId);
  if (where.id) query = query.where('id', '=', where.id);
  if (where.keyHash) query = query.where('key_hash', '=', where.keyHash);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The stored SDK origin lists of the organizations that allow any. */
export async function listEmbeddingOrigins(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('organizations').select('sdk_origins').where('sdk_origins', '!=', '[]').execute();
  return rows.map((r) => r.sdk_origins);
}

/**
 * The organization's form cap, its row locked to the commit on PostgreSQL so that the forms'
 * processes are counted one transaction after the other. NO KEY UPDATE, because the transaction
 * already holds the KEY SHARE lock that inserting its process (a foreign key to this row) took:
 * two such transactions asking for FOR UPDATE would each wait for the other's.
 */
export async function lockFormProcessesPerHour(db: Db, dialect: Dialect, id: string): Promise<number | undefined> {
  const query = db.selectFrom('organizations').select('form_processes_per_hour').where('id', '=', id);
  return (await (dialect === 'postgres' ? query.forNoKeyUpdate() : query).executeTakeFirst())?.form_processes_per_hour;
}
