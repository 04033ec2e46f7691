import type { Db } from '../db/database.js';
import type { ApiKeyKind } from '../db/schema.js';
import { fail } from '../domain-error.js';
import { findOrganization } from '../organizations/queries.js';
import { listWebhooks } from '../webhooks/queries.js';
import { MASKED_HEADER_VALUE, maskedHeader } from '../webhooks/static-header.js';
import { DEFAULT_WEBHOOK } from '../webhooks/webhooks.js';
import { PAGE_DEFAULT_COLOURS, uxOptionsOf } from './ux-options.js';

export interface CompanyWebhookView {
  id: string;
  description?: string;
  url?: string;
  header?: { key: string; value: string };
  format?: string;
}

export interface CompanyView {
  id: string;
  name: string;
  webhooks: CompanyWebhookView[];
  uxOptions: { primaryColor: string; alternateColor: string };
  image: string;
  webhook?: string;
  webhookHeader?: { key?: string; value?: string };
}

/**
 * A webhook URL as the public key sees it: its origin, the rest masked. The path or query of a
 * receiver's URL is often the only secret it checks (`/hooks/<token>`, `?key=`), and the public
 * key sits in web pages.
 */
function maskedUrl(url: string): string {
  return `${new URL(url).origin}/${MASKED_HEADER_VALUE}`;
}

/**
 * GET /company (REFERENCE §10.1). A header's value is a secret (often `Authorization: Bearer …`):
 * no key reads it back, it shows masked, and a PUT that sends the mask keeps it. Both keys get the
 * real service's shape (webhooks with `url` and `header`, and the legacy `webhook` and
 * `webhookHeader`); the public key, which sits in web pages, gets each URL as its origin only
 * (maskedUrl), and not the `format` this service adds.
 */
export async function readCompany(db: Db, options: { organizationId: string; keyKind: ApiKeyKind | 'none' }): Promise<CompanyView> {
  const organization = await findOrganization(db, options.organizationId);
  if (!organization) throw fail('ORGANIZATION_NOT_FOUND');
  const webhooks = await listWebhooks(db, options.organizationId);
  const ux = { ...PAGE_DEFAULT_COLOURS, ...uxOptionsOf(organization.ux_options) };
  const isPrivate = options.keyKind === 'private';
  const urlOf = (url: string) => (isPrivate ? url : maskedUrl(url));
  const fallback = webhooks.find((w) => w.name === DEFAULT_WEBHOOK);
  return {
    id: organization.id,
    name: organization.name,
    webhooks: webhooks.map((w) => {
      const header = maskedHeader(w.header_key);
      return {
        id: w.name,
        ...(w.description === null ? {} : { description: w.description }),
        url: urlOf(w.url),
        ...(header === undefined ? {} : { header }),
        ...(isPrivate ? { format: w.format } : {}),
      };
    }),
    uxOptions: { primaryColor: ux.primaryColor, alternateColor: ux.alternateColor },
    image: organization.image ?? '',
    webhook: fallback === undefined ? '' : urlOf(fallback.url),
    webhookHeader: maskedHeader(fallback?.header_key ?? null) ?? {},
  };
}
