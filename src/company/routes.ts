import type { ServiceContext } from '../context.js';
import { type ApiRoute, defineRoute, noInput } from '../http/route.js';
import { readCompany } from './read-company.js';
import { companyResponse, updateCompanySchema, updatedCompanyResponse } from './schemas.js';
import { updateCompany } from './update-company.js';

const tag = 'company';

/** The real service's company endpoints (REFERENCE §10): name, logo, colours and webhooks. */
export function companyRoutes(ctx: ServiceContext): ApiRoute[] {
  return [
    defineRoute({
      method: 'GET',
      url: '/v1.5/ext/company',
      access: 'any-key',
      publicKey:
        "The real service's shape: id, name, uxOptions, image, webhooks [{id, description, url, header}], webhook and webhookHeader, each header's value masked, and each webhook URL as its origin only (https://hooks.example.com/********: a URL's path or query can be the only secret its receiver checks). No format.",
      tag,
      summary: "The organization as the real service's GET /company shows it: name, webhooks, colours, logo",
      description: "A webhook header's value never shows: it is answered as ******** (send that back in PUT to keep it).",
      body: noInput,
      query: noInput,
      response: { json: companyResponse },
      errors: ['ORGANIZATION_NOT_FOUND'],
      handler: ({ organizationId, keyKind }) => readCompany(ctx.db, { organizationId, keyKind }),
    }),
    defineRoute({
      method: 'PUT',
      url: '/v1.5/ext/company',
      access: 'private-key',
      tag,
      summary: 'Change the name, logo, colours (merged key by key) or the whole list of webhooks',
      description:
        'Only the fields sent change. webhooks replaces the whole list and must hold id "default"; it is the list /webhooks manages (id is its name). A new webhook receives the flat bodies unless format says typed; one that stays keeps its secret, state and format. A header may not name content-type, host, the webhook-* signature headers or another the service sets.',
      body: updateCompanySchema,
      query: noInput,
      response: { json: updatedCompanyResponse },
      errors: ['ORGANIZATION_NOT_FOUND', 'WEBHOOK_URL_NOT_ALLOWED', 'Falta el webhook default'],
      handler: ({ organizationId, body }) => updateCompany(ctx, { organizationId, input: body }),
    }),
  ];
}
