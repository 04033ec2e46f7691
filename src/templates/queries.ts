import type { Db, Dialect } from '../db/database.js';
import { olderThan } from '../db/keyset.js';
import { reusableQuery } from '../db/reusable-query.js';
import type { TemplateRow } from '../db/schema.js';

const templateOfOrganization = reusableQuery((db, p: { id: string; organizationId: string }) =>
  db.selectFrom('templates').selectAll().where('id', '=', p.id).where('organization_id', '=', p.organizationId),
);

export async function findTemplate(db: Db, organizationId: string, id: string): Promise<TemplateRow | undefined> {
  return (await templateOfOrganization(db, { id, organizationId }))[0];
}

/** Reads the row and, on PostgreSQL, locks it until the transaction ends (SQLite serialises writers already). */
export async function lockTemplate(db: Db, dialect: Dialect, organizationId: string, id: string): Promise<TemplateRow | undefined> {
  const rows = dialect === 'postgres' ? await templateForUpdate(db, { id, organizationId }) : await templateOfOrganization(db, { id, organizationId });
  return rows[0];
}

const templateForUpdate = reusableQuery((db, p: { id: string; organizationId: string }) =>
  db.selectFrom('templates').selectAll().where('id', '=', p.id).where('organization_id', '=', p.organizationId).forUpdate(),
);

const templateIdForUpdate = reusableQuery((db, p: { id: string; organizationId: string }) =>
  db.selectFrom('templates').select('id').where('id', '=', p.id).where('organization_id', '=', p.organizationId).forUpdate(),
);

const templateIdOfOrganization = reusableQuery((db, p: { id: string; organizationId: string }) =>
  db.selectFrom('templates').select('id').where('id', '=', p.id).where('organization_id', '=', p.organizationId),
);

/**
 * Whether the template is there, locked as `lockTemplate` locks it, for callers that need only that:
 * the row holds the whole template body (kilobytes of questions), read into a string for nothing.
 */
export async function lockTemplateExists(db: Db, dialect: Dialect, organizationId: string, id: string): Promise<boolean> {
  const rows = dialect === 'postgres' ? await templateIdForUpdate(db, { id, organizationId }) : await templateIdOfOrganization(db, { id, organizationId });
  return rows.length > 0;
}

const templateIds = reusableQuery((db, p: { id: string }) => db.selectFrom('templates').select('id').where('id', '=', p.id));

export async function templateExists(db: Db, id: string): Promise<boolean> {
  return (await templateIds(db, { id })).length > 0;
}

export type TemplateSummaryRow = Pick<TemplateRow, 'id' | 'name' | 'description' | 'status' | 'created_at' | 'updated_at'>;

/** Newest first; `after` is the last row of the previous page (keyset paging stays fast however deep). */
export async function listTemplates(
  db: Db,
  organizationId: string,
  options: { limit: number; after?: { created_at: string; id: string } },
): Promise<TemplateSummaryRow[]> {
  let query = db
    .selectFrom('templates')
    .select(['id', 'name', 'description', 'status', 'created_at', 'updated_at'])
    .where('organization_id', '=', organizationId);
  const after = options.after;
  if (after) {
    query = query.where(olderThan(after));
  }
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(options.limit).execute();
}
