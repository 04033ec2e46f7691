import type { ServiceContext } from '../../context.js';
import { fail } from '../../domain-error.js';
import type { FillPreview, LinkQr } from '../../people/contract.js';
import { qrOf } from '../../people/link-qr.js';
import { templateMaskPreview } from '../../references/fill/fill-form.js';
import { findReferenceLink } from '../../references/queries.js';
import { referenceUrl } from '../../references/reference-links.js';
import { findTemplate } from '../../templates/read-templates.js';

/** The organization's template's Mask HTML, as the questionnaire's live preview shows it. */
export async function readTemplatePreview(ctx: ServiceContext, options: { organizationId: string; id: string }): Promise<FillPreview> {
  if (!(await findTemplate(ctx, options.organizationId, options.id))) throw fail('TEMPLATE_NOT_FOUND', { when: 'readingOne' });
  return templateMaskPreview(ctx, options.id);
}

/** The organization's reference link's address as a QR code, to print or show on a screen. */
export async function referenceLinkQr(ctx: ServiceContext, options: { organizationId: string; id: string }): Promise<LinkQr> {
  const link = await findReferenceLink(ctx.db, options.organizationId, options.id);
  if (!link) throw fail('REFERENCE_NOT_FOUND');
  return qrOf(referenceUrl(ctx, link.token));
}
