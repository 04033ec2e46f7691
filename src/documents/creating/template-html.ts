import type { ServiceContext } from '../../context.js';
import type { TemplateRow } from '../../db/schema.js';
import { readBlobBytes } from '../../files/blob-bytes.js';
import { KeptBesideRows } from '../../templates/kept-beside-rows.js';
import { seesTemplateUploads, templateFileKey } from '../../templates/template-files.js';
import { ParsedCompleteHtml } from './fill-template-html.js';

/**
 * Parses kept beside the template cache's rows: every write of the template (its HTML uploads
 * included) makes the cache load a new row, so a parse found here is of the HTML as it was when
 * that row was loaded or later.
 */
const parses = new KeptBesideRows<Promise<ParsedCompleteHtml | undefined>>();

/**
 * The template's Complete HTML, parsed; undefined when it was never uploaded. Reading and parsing
 * it is most of a creation's work for a contract-sized template (4 – 10 ms for 40 KB), so the parse
 * is kept with the cached row. Only where the service sees every upload of the HTML (the local
 * store: uploads to S3 go straight to the bucket and would not make the cache forget the row) and
 * the store keeps a template cache (SQLite).
 */
export async function parsedTemplateHtml(
  ctx: Pick<ServiceContext, 'blobs' | 'templateCache'>,
  template: Readonly<TemplateRow>,
): Promise<ParsedCompleteHtml | undefined> {
  const cache = ctx.templateCache && seesTemplateUploads(ctx.blobs) ? ctx.templateCache : undefined;
  const kept = cache ? parses.find(template) : undefined;
  if (kept) return kept;
  const parsing = readAndParse(ctx, template);
  // Kept while under way, so the requests that arrive meanwhile wait for this parse, not make their own.
  if (cache && parses.keep(cache, template, parsing)) {
    parsing.then(
      (parsed) => (parsed ? cache.charge(template, parsed.memoryBytes) : parses.forget(template)),
      () => parses.forget(template),
    );
  }
  return parsing;
}

async function readAndParse(ctx: Pick<ServiceContext, 'blobs'>, template: Readonly<TemplateRow>): Promise<ParsedCompleteHtml | undefined> {
  const bytes = await readBlobBytes(ctx.blobs, templateFileKey(template.id, 'complete'));
  return bytes ? new ParsedCompleteHtml(bytes.toString('utf8')) : undefined;
}
