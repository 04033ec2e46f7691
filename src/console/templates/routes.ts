import Joi from 'joi';
import type { ServiceContext } from '../../context.js';
import { type ApiRoute, defineRoute, noInput } from '../../http/route.js';
import { fillPreviewResponse } from '../../people/fill-schemas.js';
import { qrResponse } from '../../people/schemas.js';
import { createReferenceLink, listReferenceLinks, updateReferenceLink } from '../../references/reference-links.js';
import { createReferenceSchema, listReferencesQuery, referenceLinkResponse, referenceListResponse, updateReferenceSchema } from '../../references/schemas.js';
import { createTemplate } from '../../templates/create-template.js';
import { getTemplateJson } from '../../templates/read-templates.js';
import { createTemplateSchema, templateDetailResponse, templateIdQuery, templateUrlsResponse, updateTemplateSchema } from '../../templates/schemas.js';
import { updateTemplate } from '../../templates/update-template.js';
import { recordChange, userOf } from '../console-user.js';
import { readTemplatePreview, referenceLinkQr } from './template-links.js';

const tag = 'console';

const referenceIdQuery = Joi.object<{ id: string }, true>({ id: Joi.string().hex().length(24).required().example('65f1c0e2a4b5c6d7e8f90456') });

/**
 * The console's templates and reference links: members manage them as admins do (they make the
 * organization's documents, not its keys). The same domain functions as the private key's routes,
 * and the same upload mechanics: the answer's PUT URLs, to which the page sends the HTML files.
 */
export function consoleTemplateRoutes(ctx: ServiceContext): ApiRoute[] {
  return [
    defineRoute({
      method: 'GET',
      url: '/console/api/template',
      access: 'console',
      permission: 'processes.read',
      tag,
      summary: 'One template: its questionnaire, signers and settings, and download URLs of its HTML files',
      description: 'As GET /v1.5/ext/template?id= answers the private key.',
      body: noInput,
      query: templateIdQuery,
      response: { json: templateDetailResponse },
      errors: [['TEMPLATE_NOT_FOUND', 404]],
      handler: async ({ query, organizationId, reply }) =>
        reply.type('application/json; charset=utf-8').send(await getTemplateJson(ctx, { organizationId, id: query.id })),
    }),
    defineRoute({
      method: 'GET',
      url: '/console/api/template/preview',
      access: 'console',
      permission: 'processes.read',
      tag,
      summary: "The template's Mask HTML without the styles in its markup, and those styles, for the questionnaire's live preview",
      description: '`html` is null until a Mask HTML is uploaded.',
      body: noInput,
      query: templateIdQuery,
      response: { json: fillPreviewResponse },
      errors: [['TEMPLATE_NOT_FOUND', 404]],
      handler: ({ query, organizationId }) => readTemplatePreview(ctx, { organizationId, id: query.id }),
    }),
    defineRoute({
      method: 'POST',
      url: '/console/api/template',
      access: 'console',
      permission: 'templates.write',
      tag,
      summary: 'Create a template, as POST /v1.5/ext/template: the answer holds the PUT URLs of its Mask and Complete HTML',
      body: createTemplateSchema,
      query: noInput,
      response: { json: templateUrlsResponse },
      errors: [],
      handler: async (input) => {
        const created = await createTemplate(ctx, { organizationId: input.organizationId, input: input.body });
        await recordChange(ctx, input, 'TEMPLATE_CREATED', { template: created.id, name: input.body.name });
        return created;
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/console/api/template/update',
      access: 'console',
      permission: 'templates.write',
      tag,
      summary: 'Update a template, as PUT /v1.5/ext/template; with its id alone, new PUT URLs to upload its HTML files again',
      body: updateTemplateSchema,
      query: noInput,
      response: { json: templateUrlsResponse },
      errors: ['TEMPLATE_NOT_FOUND'],
      handler: async (input) => {
        const updated = await updateTemplate(ctx, { organizationId: input.organizationId, input: input.body });
        await recordChange(ctx, input, 'TEMPLATE_UPDATED', { template: updated.id });
        return updated;
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/console/api/references',
      access: 'console',
      permission: 'processes.read',
      tag,
      summary: "A template's reference links, with their addresses",
      body: noInput,
      query: listReferencesQuery,
      response: { json: referenceListResponse },
      errors: ['TEMPLATE_NOT_FOUND'],
      handler: ({ query, organizationId }) => listReferenceLinks(ctx, { organizationId, templateId: query.template }),
    }),
    defineRoute({
      method: 'POST',
      url: '/console/api/reference',
      access: 'console',
      permission: 'templates.write',
      tag,
      summary: 'Publish a reference link to a template, as POST /v1.5/ext/template/reference',
      description: "Its processes are created by `email`, or else by the signed-in user (the private key's route takes the organization's first user).",
      body: createReferenceSchema,
      query: noInput,
      response: { json: referenceLinkResponse },
      errors: ['TEMPLATE_NOT_FOUND', 'USER_NOTFOUND'],
      handler: async (input) => {
        const link = await createReferenceLink(ctx, {
          organizationId: input.organizationId,
          input: { ...input.body, email: input.body.email ?? userOf(input).email },
        });
        await recordChange(ctx, input, 'REFERENCE_CREATED', { reference: link.id, template: link.template });
        return link;
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/console/api/reference/update',
      access: 'console',
      permission: 'templates.write',
      tag,
      summary: 'Change a reference link, or switch it off and on (`enabled`), as PUT /v1.5/ext/template/reference',
      body: updateReferenceSchema,
      query: noInput,
      response: { json: referenceLinkResponse },
      errors: ['REFERENCE_NOT_FOUND', 'USER_NOTFOUND'],
      handler: async (input) => {
        const link = await updateReferenceLink(ctx, { organizationId: input.organizationId, input: input.body });
        await recordChange(ctx, input, 'REFERENCE_UPDATED', { reference: link.id, enabled: link.enabled ? 'true' : 'false' });
        return link;
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/console/api/reference/qr',
      access: 'console',
      permission: 'processes.read',
      tag,
      summary: "A reference link's address as a QR code (SVG)",
      body: noInput,
      query: referenceIdQuery,
      response: { json: qrResponse },
      errors: ['REFERENCE_NOT_FOUND'],
      handler: ({ query, organizationId }) => referenceLinkQr(ctx, { organizationId, id: query.id }),
    }),
  ];
}
