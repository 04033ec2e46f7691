import type { ServiceContext } from '../context.js';
import { decodeCursor, page } from '../http/cursor.js';
import { notFound } from '../http/errors.js';
import * as q from './queries.js';
import type { TemplateBody } from './schemas.js';
import { parseBody } from './template-document.js';
import { templateFileUrls, type TemplateUrls } from './template-files.js';

export interface TemplateSummary {
  id: string;
  name: string;
  description?: string;
  status: 'active' | 'inactive';
  created_at: string;
  updated_at: string;
}

export type TemplateDetail = TemplateSummary & TemplateBody & { build: number; urls: TemplateUrls };

function summary(row: q.TemplateSummaryRow): TemplateSummary {
  return {
    id: row.id,
    name: row.name,
    ...(row.description === null ? {} : { description: row.description }),
    status: row.status,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The configuration and short-lived download URLs of both HTML files. */
export async function getTemplate(
  ctx: ServiceContext,
  options: { organizationId: string; id: string },
): Promise<TemplateDetail> {
  const row = await q.findTemplate(ctx.db, options.organizationId, options.id);
  if (!row) throw notFound('TEMPLATE_NOT_FOUND');
  return { ...summary(row), build: row.build, ...parseBody(row), urls: await templateFileUrls(ctx.blobs, row.id, 'GET') };
}

/** A page of templates, newest first; `next` is the cursor of the following page, null on the last. */
export async function listTemplates(
  ctx: ServiceContext,
  options: { organizationId: string; limit: number; cursor?: string },
): Promise<{ data: TemplateSummary[]; next: string | null }> {
  const after = options.cursor ? decodeCursor(options.cursor) : undefined;
  const rows = await q.listTemplates(ctx.db, options.organizationId, { limit: options.limit + 1, after });
  const { rows: kept, next } = page(rows, options.limit);
  return { data: kept.map(summary), next };
}
