import type { Db, Dialect } from '../db/database.js';
import type { NewTemplateRow, TemplateRow } from '../db/schema.js';

export async function insertTemplate(db: Db, row: NewTemplateRow): Promise<void> {
  await db.insertInto('templates').values(row).execute();
}

export async function findTemplate(db: Db, organizationId: string, id: string): Promise<TemplateRow | undefined> {
  return db
    .selectFrom('templates')
    .selectAll()
    .where('id', '=', id)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
}

/** Reads the row and, on PostgreSQL, locks it until the transaction ends (SQLite serialises writers already). */
export async function lockTemplate(
  db: Db,
  dialect: Dialect,
  organizationId: string,
  id: string,
): Promise<TemplateRow | undefined> {
  const query = db
    .selectFrom('templates')
    .selectAll()
    .where('id', '=', id)
    .where('organization_id', '=', organizationId);
  return (dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
}

export async function templateExists(db: Db, id: string): Promise<boolean> {
  const row = await db.selectFrom('templates').select('id').where('id', '=', id).executeTakeFirst();
  return row !== undefined;
}

export async function updateTemplate(
  db: Db,
  id: string,
  patch: Pick<TemplateRow, 'name' | 'description' | 'body' | 'build' | 'updated_at'>,
): Promise<void> {
  await db.updateTable('templates').set(patch).where('id', '=', id).execute();
}

export async function deleteTemplate(db: Db, id: string): Promise<void> {
  await db.deleteFrom('templates').where('id', '=', id).execute();
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
    query = query.where((eb) =>
      eb.or([
        eb('created_at', '<', after.created_at),
        eb.and([eb('created_at', '=', after.created_at), eb('id', '<', after.id)]),
      ]),
    );
  }
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(options.limit).execute();
}
