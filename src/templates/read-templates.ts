import type { ServiceContext } from '../context.js';
import { decodeCursor, page } from '../db/cursor.js';
import type { TemplateRow } from '../db/schema.js';
import { fail } from '../domain-error.js';
import type { TemplateCache } from './cache/template-cache.js';
import { KeptBesideRows } from './kept-beside-rows.js';
import * as q from './queries.js';
import { templateFileUrls } from './template-files.js';

export interface TemplateSummary {
  id: string;
  name: string;
  description?: string;
  status: 'active' | 'inactive';
  created_at: string;
  updated_at: string;
}

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

/** The template of the organization, from the template cache when the store has one. */
export async function findTemplate(
  ctx: Pick<ServiceContext, 'db' | 'templateCache'>,
  organizationId: string,
  id: string,
): Promise<Readonly<TemplateRow> | undefined> {
  if (!ctx.templateCache) return q.findTemplate(ctx.db, organizationId, id);
  return ctx.templateCache.find(organizationId, id, () => q.findTemplate(ctx.db, organizationId, id));
}

/**
 * The answer's text up to its URLs, kept beside the rows the template cache keeps: they are
 * answered again and again, and so is this. The stored body is the JSON of a template this service
 * validated, so it is spliced in as it stands rather than parsed and written out again.
 */
const answerHeads = new KeptBesideRows<string>();

/** What a kept answer's text holds in memory: two bytes a character. */
const BYTES_PER_CHARACTER = 2;

function answerHead(cache: TemplateCache | undefined, row: Readonly<TemplateRow>): string {
  const known = answerHeads.find(row);
  if (known !== undefined) return known;
  const head = JSON.stringify({ ...summary(row), build: row.build });
  const body = row.body.slice(1, -1);
  const text = `${head.slice(0, -1)},${body === '' ? '' : `${body},`}"urls":`;
  if (cache) answerHeads.keep(cache, row, text, BYTES_PER_CHARACTER * text.length);
  return text;
}

/**
 * How long the download URLs of one answer are answered again to the template's next reads. Signing
 * them is most of a read's own work (an HMAC, or S3's presigning), and a template is read again and
 * again: within this time its reads answer the URLs already signed, which then have at least
 * TEMPLATE_URL_LIFETIME_SECONDS less this left.
 */
export const DOWNLOAD_URLS_REUSED_MS = 1000;

/** The text of a template's download URLs as last answered, and when they were signed. */
interface SignedUrls {
  text: string;
  signedAt: number;
}

/** Kept beside the row, so the organization whose row it is, and only it, is answered them again. */
const downloadUrls = new KeptBesideRows<SignedUrls>();

async function downloadUrlsText(ctx: ServiceContext, row: Readonly<TemplateRow>): Promise<string> {
  const now = ctx.clock.now().getTime();
  const kept = downloadUrls.find(row);
  if (kept !== undefined && now >= kept.signedAt && now - kept.signedAt < DOWNLOAD_URLS_REUSED_MS) return kept.text;
  const text = JSON.stringify(await templateFileUrls(ctx.blobs, row.id, 'GET'));
  // Charged once: a replacement is of the same size.
  if (ctx.templateCache) downloadUrls.keep(ctx.templateCache, row, { text, signedAt: now }, kept === undefined ? BYTES_PER_CHARACTER * text.length : 0);
  return text;
}

/** The configuration and short-lived download URLs of both HTML files, as JSON text. */
export async function getTemplateJson(ctx: ServiceContext, options: { organizationId: string; id: string }): Promise<string> {
  const row = await findTemplate(ctx, options.organizationId, options.id);
  if (!row) throw fail('TEMPLATE_NOT_FOUND', { when: 'readingOne' });
  return `${answerHead(ctx.templateCache, row)}${await downloadUrlsText(ctx, row)}}`;
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
