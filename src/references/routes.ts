import type { ServiceContext } from '../context.js';
import { type ApiRoute, defineRoute, noInput } from '../http/route.js';
import { createReferenceLink, deleteReferenceLink, listReferenceLinks } from './reference-links.js';
import {
  createReferenceSchema,
  deletedReferenceResponse,
  deleteReferenceQuery,
  listReferencesQuery,
  referenceLinkResponse,
  referenceListResponse,
} from './schemas.js';

const tag = 'reference links';

export function referenceRoutes(ctx: ServiceContext): ApiRoute[] {
  return [
    defineRoute({
      method: 'POST',
      url: '/v1.5/ext/template/reference',
      access: 'private-key',
      tag,
      summary: 'Create a reference link to a template',
      body: createReferenceSchema,
      query: noInput,
      response: { json: referenceLinkResponse },
      errors: ['TEMPLATE_NOT_FOUND'],
      handler: ({ body, organizationId }) => createReferenceLink(ctx, { organizationId, templateId: body.template, name: body.name }),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1.5/ext/template/reference',
      // A listing, and each link opens the template's form to anyone holding it.
      access: 'private-key',
      tag,
      summary: "List a template's reference links",
      body: noInput,
      query: listReferencesQuery,
      response: { json: referenceListResponse },
      errors: ['TEMPLATE_NOT_FOUND'],
      handler: ({ query, organizationId }) => listReferenceLinks(ctx, { organizationId, templateId: query.template }),
    }),
    defineRoute({
      method: 'DELETE',
      url: '/v1.5/ext/template/reference',
      access: 'private-key',
      tag,
      summary: 'Delete one reference link',
      body: noInput,
      query: deleteReferenceQuery,
      response: { json: deletedReferenceResponse },
      errors: ['REFERENCE_NOT_FOUND'],
      handler: ({ query, organizationId }) => deleteReferenceLink(ctx, { organizationId, id: query.id }),
    }),
  ];
}
