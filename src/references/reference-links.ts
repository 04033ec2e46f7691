import type { ServiceContext } from '../context.js';
import type { ReferenceLinkRow } from '../db/schema.js';
import { fail } from '../domain-error.js';
import { newObjectId, newToken } from '../ids.js';
import { lockTemplate } from '../templates/queries.js';
import { findTemplate } from '../templates/read-templates.js';
import * as q from './queries.js';

/** Public path of a reference link: anyone holding it fills the template's questionnaire. */
export const REFERENCE_PATH_PREFIX = '/r/';

export interface ReferenceLink {
  id: string;
  template: string;
  name?: string;
  url: string;
  created_at: string;
}

function present(ctx: ServiceContext, row: ReferenceLinkRow): ReferenceLink {
  return {
    id: row.id,
    template: row.template_id,
    ...(row.name === null ? {} : { name: row.name }),
    url: `${ctx.publicUrl}${REFERENCE_PATH_PREFIX}${row.token}`,
    created_at: row.created_at,
  };
}

export async function createReferenceLink(ctx: ServiceContext, options: { organizationId: string; templateId: string; name?: string }): Promise<ReferenceLink> {
  return ctx.db.transaction().execute(async (trx) => {
    const template = await lockTemplate(trx, ctx.dialect, options.organizationId, options.templateId);
    if (!template) throw fail('TEMPLATE_NOT_FOUND', { when: 'elsewhere' });
    const now = ctx.clock.now();
    const row: ReferenceLinkRow = {
      id: newObjectId(now),
      organization_id: options.organizationId,
      template_id: template.id,
      token: newToken(),
      name: options.name ?? null,
      created_at: now.toISOString(),
    };
    await q.insertReferenceLink(trx, row);
    return present(ctx, row);
  });
}

export async function listReferenceLinks(ctx: ServiceContext, options: { organizationId: string; templateId: string }): Promise<{ data: ReferenceLink[] }> {
  if (!(await findTemplate(ctx, options.organizationId, options.templateId))) throw fail('TEMPLATE_NOT_FOUND', { when: 'elsewhere' });
  const rows = await q.listReferenceLinks(ctx.db, options.organizationId, options.templateId);
  return { data: rows.map((row) => present(ctx, row)) };
}

export async function deleteReferenceLink(ctx: ServiceContext, options: { organizationId: string; id: string }): Promise<{ id: string; deleted: boolean }> {
  if ((await q.deleteReferenceLink(ctx.db, options.organizationId, options.id)) === 0) {
    throw fail('REFERENCE_NOT_FOUND');
  }
  return { id: options.id, deleted: true };
}
