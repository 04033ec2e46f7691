import type { Db, Dialect } from '../db/database.js';
import type { OrganizationRow } from '../db/schema.js';

/**
 * The organization read for a change of its company settings. On PostgreSQL the row stays locked
 * until the transaction ends, so two PUT /company of one organization replace its webhooks one
 * after the other; SQLite runs one writing transaction at a time anyway.
 */
export async function lockOrganization(db: Db, dialect: Dialect, id: string): Promise<OrganizationRow | undefined> {
  const query = db.selectFrom('organizations').selectAll().where('id', '=', id);
  return (dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
}

export type CompanyPatch = Partial<Pick<OrganizationRow, 'name' | 'image' | 'ux_options'>>;

export async function updateCompany(db: Db, id: string, patch: CompanyPatch): Promise<void> {
  if (Object.keys(patch).length === 0) return;
  await db.updateTable('organizations').set(patch).where('id', '=', id).execute();
}
