import type { Db } from '../db/database.js';
import { reusableQuery } from '../db/reusable-query.js';
import type { ReferenceLinkRow } from '../db/schema.js';

export async function insertReferenceLink(db: Db, row: ReferenceLinkRow): Promise<void> {
  await db.insertInto('reference_links').values(row).execute();
}

export async function listReferenceLinks(db: Db, organizationId: string, templateId: string): Promise<ReferenceLinkRow[]> {
  return db
    .selectFrom('reference_links')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('template_id', '=', templateId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export async function deleteReferenceLink(db: Db, organizationId: string, id: string): Promise<number> {
  const result = await db.deleteFrom('reference_links').where('id', '=', id).where('organization_id', '=', organizationId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

const linksOfTemplateDelete = reusableQuery((db, p: { templateId: string }) =>
  db.deleteFrom('reference_links').where('template_id', '=', p.templateId).returning('id'),
);

export async function deleteReferenceLinksOfTemplate(db: Db, templateId: string): Promise<number> {
  return (await linksOfTemplateDelete(db, { templateId })).length;
}
