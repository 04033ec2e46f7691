import type { ServiceContext } from '../../context.js';
import type { TemplateRow } from '../../db/schema.js';
import { KeptBesideRows } from '../../templates/kept-beside-rows.js';
import type { TemplateBody } from '../../templates/schemas.js';
import { parseBody } from '../../templates/template-document.js';

/**
 * Bodies parsed once per row the template cache keeps. The cache answers the same row object to
 * every creation until the row expires or the template is written, and it freezes the rows it
 * answers: a kept row's body can never change, so its parse stays right for as long as it is kept.
 */
const bodies = new KeptBesideRows<TemplateBody>();

/** What a parse holds in memory: about 1.6 bytes a character of the JSON, measured on the bench's contract. */
const BYTES_PER_CHARACTER = 2;

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * The template's questionnaire document, parsed. Parsing the stored JSON on every creation was a
 * percent of a contract's creation, so the parse of a row the template cache keeps is kept beside
 * it, frozen so no creation can change what the next one reads, and counted in the cache's budget.
 * Any other row is parsed for the caller alone.
 */
export function parsedTemplateBody(ctx: Pick<ServiceContext, 'templateCache'>, template: Readonly<TemplateRow>): TemplateBody {
  const cache = ctx.templateCache;
  if (!cache?.keeps(template)) return parseBody(template);
  const kept = bodies.find(template);
  if (kept) return kept;
  const body = deepFreeze(parseBody(template));
  bodies.keep(cache, template, body, BYTES_PER_CHARACTER * template.body.length);
  return body;
}
