import Joi from 'joi';
import { requirePrivateKey } from '../auth/key-kind.js';
import type { ServiceContext } from '../context.js';
import { type ApiRoute, defineRoute, noInput } from '../http/route.js';
import { createTemplate } from './create-template.js';
import { deleteTemplate } from './deleting/delete-template.js';
import { getTemplateJson, listTemplates } from './read-templates.js';
import {
  createTemplateSchema,
  deleteTemplateResponse,
  listTemplatesQuery,
  templateDetailResponse,
  templateIdQuery,
  templateListResponse,
  templateUrlsResponse,
  updateTemplateSchema,
} from './schemas.js';
import { updateTemplate } from './update-template.js';

const tag = 'templates';

export function templateRoutes(ctx: ServiceContext): ApiRoute[] {
  return [
    defineRoute({
      method: 'POST',
      url: '/v1.5/ext/template',
      access: 'private-key',
      tag,
      summary: 'Create a template; upload both HTML files to the returned URLs',
      body: createTemplateSchema,
      query: noInput,
      response: { json: templateUrlsResponse },
      errors: [],
      handler: ({ body, organizationId }) => createTemplate(ctx, { organizationId, input: body }),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1.5/ext/template',
      access: 'any-key',
      publicKey: "with id only: the same answer (a form's questions, which the SDK's fill flow reads); the listing (no id) is 403 PRIVATE_KEY_REQUIRED.",
      tag,
      summary: 'List templates newest first, page by page; with ?id= read one',
      description: 'Without id: {data, next}. With id: the whole template and download URLs of its HTML files.',
      body: noInput,
      query: listTemplatesQuery,
      response: { json: Joi.alternatives().try(templateListResponse, templateDetailResponse) },
      errors: [['TEMPLATE_NOT_FOUND', 404], 'PRIVATE_KEY_REQUIRED'],
      handler: async ({ query, organizationId, keyKind, reply }) => {
        if (query.id !== undefined) {
          return reply.type('application/json; charset=utf-8').send(await getTemplateJson(ctx, { organizationId, id: query.id }));
        }
        requirePrivateKey(keyKind, "listing the organization's templates");
        return listTemplates(ctx, { organizationId, limit: query.limit, cursor: query.cursor });
      },
    }),
    defineRoute({
      method: 'PUT',
      url: '/v1.5/ext/template',
      access: 'private-key',
      tag,
      summary: 'Update a template: fields sent replace, fields omitted are kept',
      description: 'A description cannot be removed ("", null or over 500 characters is 400). The HTML files are kept unless uploaded again.',
      body: updateTemplateSchema,
      query: noInput,
      response: { json: templateUrlsResponse },
      errors: ['TEMPLATE_NOT_FOUND'],
      handler: ({ body, organizationId }) => updateTemplate(ctx, { organizationId, input: body }),
    }),
    defineRoute({
      method: 'DELETE',
      url: '/v1.5/ext/template',
      access: 'private-key',
      tag,
      summary: 'Delete a template, both HTML files and its reference links, irreversibly',
      body: noInput,
      query: templateIdQuery,
      response: { json: deleteTemplateResponse },
      errors: ['TEMPLATE_NOT_FOUND', 'TEMPLATE_IN_USE'],
      handler: ({ query, organizationId }) => deleteTemplate(ctx, { organizationId, id: query.id }),
    }),
  ];
}
