import type { ServiceContext } from '../../context.js';
import type { ReferenceLinkRow, TemplateRow } from '../../db/schema.js';
import { parsedTemplateBody } from '../../documents/creating/template-body.js';
import { fail } from '../../domain-error.js';
import { findTemplate } from '../../templates/read-templates.js';
import type { TemplateBody } from '../../templates/schemas.js';
import { findReferenceLinkByToken } from '../queries.js';

export interface FillLink {
  link: ReferenceLinkRow;
  template: Readonly<TemplateRow>;
  body: TemplateBody;
}

/**
 * The link a reference token opens, with its organization's template. The token is the whole
 * secret (32 random characters): the link's organization and template are read from its row, never
 * from anything the page sends, so it reaches nothing of another organization.
 */
export async function findFillLink(ctx: ServiceContext, token: string): Promise<FillLink> {
  const link = await findReferenceLinkByToken(ctx.db, token);
  const template = link ? await findTemplate(ctx, link.organization_id, link.template_id) : undefined;
  if (!link || !template) throw fail('REFERENCE_LINK_NOT_FOUND');
  return { link, template, body: parsedTemplateBody(ctx, template) };
}

/** A link switched off or past its expiry says so, and creates nothing. */
export function checkUsable(ctx: Pick<ServiceContext, 'clock'>, link: ReferenceLinkRow): void {
  if (link.enabled !== 1) throw fail('REFERENCE_LINK_DISABLED');
  if (link.expires_at !== null && link.expires_at <= ctx.clock.now().toISOString()) throw fail('REFERENCE_LINK_EXPIRED');
}

/** The open link of a token, usable now. */
export async function usableFillLink(ctx: ServiceContext, token: string): Promise<FillLink> {
  const found = await findFillLink(ctx, token);
  checkUsable(ctx, found.link);
  return found;
}
