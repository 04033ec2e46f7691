import type { Db } from '../db/database.js';
import type { ApiKeyKind } from '../db/schema.js';
import { fail } from '../domain-error.js';
import { findOrganization } from '../organizations/queries.js';
import { listWebhooks } from '../webhooks/queries.js';
import { maskedHeader } from '../webhooks/static-header.js';
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
 * GET /company (REFERENCE §10.1). A header's value is a secret (often `Authorization: Bearer …`):
 * no key reads it back, it shows masked, and a PUT that sends the mask keeps it. The public key sits
 * in web pages, so it gets what a page may show (name, logo, colours) and each webhook's id and
 * description only: a webhook URL can itself be the secret that lets anyone post to the receiver.
 */
export async function readCompany(db: Db, options: { organizationId: string; keyKind: ApiKeyKind | 'none' }): Promise<CompanyView> {
  const organization = await findOrganization(db, options.organizationId);
  if (!organization) throw fail('ORGANIZATION_NOT_FOUND');
  const webhooks = await listWebhooks(db, options.organizationId);
  const ux = { ...PAGE_DEFAULT_COLOURS, ...uxOptionsOf(organization.ux_options) };
  const shared = {
    id: organization.id,
    name: organization.name,
    uxOptions: { primaryColor: ux.primaryColor, alternateColor: ux.alternateColor },
    image: organization.image ?? '',
  };
  if (options.keyKind !== 'private') {
    return { ...shared, webhooks: webhooks.map((w) => ({ id: w.name, ...(w.description === null ? {} : { description: w.description }) })) };
  }
  const fallback = webhooks.find((w) => w.name === DEFAULT_WEBHOOK);
  return {
    ...shared,
    webhooks: webhooks.map((w) => {
      const header = maskedHeader(w.header_key);
      return {
        id: w.name,
        ...(w.description === null ? {} : { description: w.description }),
        url: w.url,
        ...(header === undefined ? {} : { header }),
        format: w.format,
      };
    }),
    webhook: fallback?.url ?? '',
    webhookHeader: maskedHeader(fallback?.header_key ?? null) ?? {},
  };
}
