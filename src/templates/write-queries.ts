import type { Db } from '../db/database.js';
import { reusableQuery } from '../db/reusable-query.js';
import type { NewTemplateRow, TemplateRow } from '../db/schema.js';
import { documentsInSignature } from '../documents/queries.js';

/*
 * Every statement that changes the `templates` table. Only template-writes.ts imports this module:
 * it hands these to the operation writing a template and tells the template cache once it is done,
 * so no write can leave the cache answering the template as it was.
 */

type TemplateInsert = Required<Omit<NewTemplateRow, 'description'>> & { description: string | null };

const templateInsert = reusableQuery((db, row: TemplateInsert) => db.insertInto('templates').values(row));

/**
 * Omitted columns are written as the defaults they stand for (no description; files that may be
 * stored), so the compiled SQL never changes shape.
 */
export async function insertTemplate(db: Db, row: NewTemplateRow): Promise<void> {
  const { id, organization_id, name, description = null, body, build, status, created_at, updated_at, files_stored = 1 } = row;
  await templateInsert(db, { id, organization_id, name, description, body, build, status, created_at, updated_at, files_stored });
}

const filesStoredUpdate = reusableQuery((db, p: { id: string }) => db.updateTable('templates').set({ files_stored: 1 }).where('id', '=', p.id).returning('id'));

/** Records that an HTML file of the template was stored; false when the template is gone (deleted meanwhile). */
export async function markTemplateFilesStored(db: Db, id: string): Promise<boolean> {
  return (await filesStoredUpdate(db, { id })).length === 1;
}

const templateUpdate = reusableQuery((db, p: Pick<TemplateRow, 'id' | 'name' | 'description' | 'body' | 'build' | 'updated_at'>) =>
  db.updateTable('templates').set({ name: p.name, description: p.description, body: p.body, build: p.build, updated_at: p.updated_at }).where('id', '=', p.id),
);

export async function updateTemplate(db: Db, id: string, patch: Pick<TemplateRow, 'name' | 'description' | 'body' | 'build' | 'updated_at'>): Promise<void> {
  await templateUpdate(db, { ...patch, id });
}

const templateDelete = reusableQuery((db, p: { id: string }) => db.deleteFrom('templates').where('id', '=', p.id));

export async function deleteTemplate(db: Db, id: string): Promise<void> {
  await templateDelete(db, { id });
}

/**
 * The template, deleted in one statement when nothing stands in its way: no reference link to count
 * and erase, no document in signature made from it (documentsInSignature). Answers whether files
 * of it may be stored, when it was deleted; when not, the caller finds out why in a transaction.
 */
const unhinderedTemplateDelete = reusableQuery((db, p: { id: string; organizationId: string }) =>
  db
    .deleteFrom('templates')
    .where('id', '=', p.id)
    .where('organization_id', '=', p.organizationId)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('reference_links').select('reference_links.id').whereRef('reference_links.template_id', '=', 'templates.id'))),
    )
    .where(({ not, exists, ref }) => not(exists(documentsInSignature(db, ref('templates.id')).select('process_documents.id'))))
    .returning('files_stored'),
);

export async function deleteUnhinderedTemplate(db: Db, organizationId: string, id: string): Promise<{ filesStored: boolean } | undefined> {
  const [deleted] = await unhinderedTemplateDelete(db, { id, organizationId });
  if (!deleted) return undefined;
  return { filesStored: deleted.files_stored === 1 };
}
