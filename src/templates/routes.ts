import type { FastifyInstance } from 'fastify';
import Joi from 'joi';
import type { ServiceContext } from '../context.js';
import { describeRoute } from '../http/openapi.js';
import { validate } from '../http/validate.js';
import { createTemplate } from './create-template.js';
import { deleteTemplate } from './delete-template.js';
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

export function templateRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  app.post(
    '/template',
    describeRoute({
      tag: 'templates',
      summary: 'Create a template; upload both HTML files to the returned URLs',
      body: createTemplateSchema,
      response: templateUrlsResponse,
    }),
    async (request) =>
      createTemplate(ctx, { organizationId: request.organizationId, input: validate(createTemplateSchema, request.body) }),
  );

  app.get(
    '/template',
    describeRoute({
      tag: 'templates',
      summary: 'List templates newest first, page by page; with ?id= read one',
      description: 'Without id: {data, next}. With id: the whole template and download URLs of its HTML files.',
      query: listTemplatesQuery,
      response: Joi.alternatives().try(templateListResponse, templateDetailResponse),
      errors: { 404: 'TEMPLATE_NOT_FOUND (with ?id=)' },
    }),
    async (request, reply) => {
      const query = validate(listTemplatesQuery, request.query);
      const organizationId = request.organizationId;
      if (query.id !== undefined) {
        return reply.type('application/json; charset=utf-8').send(await getTemplateJson(ctx, { organizationId, id: query.id }));
      }
      return listTemplates(ctx, { organizationId, limit: query.limit, cursor: query.cursor });
    },
  );

  app.put(
    '/template',
    describeRoute({
      tag: 'templates',
      summary: 'Update a template: fields sent replace, fields omitted are kept',
      description: 'A description cannot be removed ("", null or over 500 characters is 400). The HTML files are kept unless uploaded again.',
      body: updateTemplateSchema,
      response: templateUrlsResponse,
      errors: { 400: 'Invalid request, or TEMPLATE_NOT_FOUND' },
    }),
    async (request) =>
      updateTemplate(ctx, { organizationId: request.organizationId, input: validate(updateTemplateSchema, request.body) }),
  );

  app.delete(
    '/template',
    describeRoute({
      tag: 'templates',
      summary: 'Delete a template, both HTML files and its reference links, irreversibly',
      query: templateIdQuery,
      response: deleteTemplateResponse,
      errors: { 400: '"id" is required | "id" length must be 24 characters long | "id" must only contain hexadecimal characters | TEMPLATE_NOT_FOUND | TEMPLATE_IN_USE' },
    }),
    async (request) => {
      const { id } = validate(templateIdQuery, request.query);
      return deleteTemplate(ctx, { organizationId: request.organizationId, id });
    },
  );
}
