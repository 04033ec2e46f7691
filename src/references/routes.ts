import type { ServiceContext } from '../context.js';
import { type ApiRoute, defineRoute, noInput } from '../http/route.js';
import { createReferenceLink, deleteReferenceLink, listReferenceLinks, listReferenceLinkUses, updateReferenceLink } from './reference-links.js';
import {
  createReferenceSchema,
  deletedReferenceResponse,
  deleteReferenceQuery,
  listReferencesQuery,
  referenceLinkResponse,
  referenceListResponse,
  referenceUsesQuery,
  referenceUsesResponse,
  updateReferenceSchema,
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
      description:
        "Anyone holding the answered `url` fills the template's questionnaire, and each submission creates a process as POST /document/save would, by `email` (default: the organization's first user), with the link's identity validations (`camera`, `otpCode`, `options`: /document/save's root fields) for every signer. `signNow`: the person who fills it goes straight to their signing page. A link after `expiresAt`, with `enabled: false`, or that made its `maxUses` processes (none unless given), creates nothing; it makes at most `hourlyCap` processes in any hour (20 unless given), within the organization's `formProcessesPerHour`.",
      body: createReferenceSchema,
      query: noInput,
      response: { json: referenceLinkResponse },
      errors: ['TEMPLATE_NOT_FOUND', 'USER_NOTFOUND'],
      handler: ({ body, organizationId }) => createReferenceLink(ctx, { organizationId, input: body }),
    }),
    defineRoute({
      method: 'PUT',
      url: '/v1.5/ext/template/reference',
      access: 'private-key',
      tag,
      summary: "Change a reference link's settings, or switch it off (enabled: false)",
      description: 'Settings not sent are kept; sending any of `camera`, `otpCode`, `options` replaces the three. Processes already made keep theirs.',
      body: updateReferenceSchema,
      query: noInput,
      response: { json: referenceLinkResponse },
      errors: ['REFERENCE_NOT_FOUND', 'USER_NOTFOUND'],
      handler: ({ body, organizationId }) => updateReferenceLink(ctx, { organizationId, input: body }),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1.5/ext/template/reference/uses',
      // Which processes people made through the link: kept for the private key, as the links are.
      access: 'private-key',
      tag,
      summary: 'The processes made through one reference link, newest first (codes and dates; never the answers)',
      body: noInput,
      query: referenceUsesQuery,
      response: { json: referenceUsesResponse },
      errors: ['REFERENCE_NOT_FOUND'],
      handler: ({ query, organizationId }) => listReferenceLinkUses(ctx, { organizationId, query }),
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
