import type { Db, PdfTemplateRow } from '../../db/schema.js';

export async function insertPdfTemplate(db: Db, row: PdfTemplateRow): Promise<void> {
  await db.insertInto('pdf_templates').values(row).execute();
}

export async function findPdfTemplate(db: Db, organizationId: string, id: string): Promise<PdfTemplateRow | undefined> {
  return db.selectFrom('pdf_templates').selectAll().where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
}

export async function listPdfTemplates(db: Db, organizationId: string): Promise<PdfTemplateRow[]> {
  return db
    .selectFrom('pdf_templates')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(500)
    .execute();
}

export async function deletePdfTemplate(db: Db, organizationId: string, id: string): Promise<number> {
  const result = await db.deleteFrom('pdf_templates').where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows);
}
