import type { ServiceContext } from '../../context.js';
import { countProcessesInSignature } from '../../documents/queries.js';
import { fail } from '../../domain-error.js';
import { deleteReferenceLinksOfTemplate } from '../../references/queries.js';
import * as q from '../queries.js';
import { templateFileKeys } from '../template-files.js';
import { type TemplateWrites, writeTemplate } from '../template-writes.js';

export interface DeletedTemplate {
  id: string;
  deleted: boolean;
  references: number;
}

/**
 * Erases the template, its reference links and both HTML files, for good. Refused while any process
 * created from it is in signature. The rows go in one transaction; the files follow once it commits,
 * so a failure can leave an orphan file behind but never a template without its files. A template
 * none of whose files was ever stored (files_stored) has none to look for.
 */
export async function deleteTemplate(ctx: ServiceContext, options: { organizationId: string; id: string }): Promise<DeletedTemplate> {
  const { filesStored, references } = await writeTemplate(ctx, options.id, async (writes) => {
    // Most templates have no reference link and no process in signature: on SQLite, whose writes go
    // one at a time, one statement deletes them. Not on PostgreSQL: a statement reads the processes
    // as they were when it began, and a creation holding the template's lock may commit meanwhile
    // (waiting for a lock rechecks only the locked row), which would leave its process on a deleted
    // template. There the transaction locks the template first, then counts.
    const unhindered = ctx.dialect === 'sqlite' ? await writes.deleteUnhinderedTemplate(ctx.db, options.organizationId, options.id) : undefined;
    return unhindered ? { ...unhindered, references: 0 } : deleteWithLinks(ctx, writes, options);
  });
  if (filesStored) await ctx.blobs.delete(templateFileKeys(options.id));
  return { id: options.id, deleted: true, references };
}

/** The template and its reference links, counted; or why it cannot go (not found, in use). */
async function deleteWithLinks(
  ctx: ServiceContext,
  writes: TemplateWrites,
  options: { organizationId: string; id: string },
): Promise<{ filesStored: boolean; references: number }> {
  return ctx.db.transaction().execute(async (trx) => {
    const template = await q.lockTemplate(trx, ctx.dialect, options.organizationId, options.id);
    if (!template) throw fail('TEMPLATE_NOT_FOUND', { when: 'elsewhere' });
    if ((await countProcessesInSignature(trx, template.id)) > 0) throw fail('TEMPLATE_IN_USE');
    const references = await deleteReferenceLinksOfTemplate(trx, template.id);
    await writes.deleteTemplate(trx, template.id);
    return { filesStored: template.files_stored === 1, references };
  });
}
