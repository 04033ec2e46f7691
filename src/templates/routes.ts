import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context.js';
import { describeRoute } from '../http/openapi.js';
import { validate } from '../http/validate.js';
import { createTemplate } from './create-template.js';
import { deleteTemplate } from './delete-template.js';
import { getTemplate, listTemplates } from './read-templates.js';
import { createTemplateSchema, listTemplatesQuery, templateIdQuery, updateTemplateSchema } from './schemas.js';
import { updateTemplate } from './update-template.js';

export function templateRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  app.post('/template', describeRoute({ tag: 'templates', summary: 'Create a template', body: createTemplateSchema }), async (request) =>
    createTemplate(ctx, { organizationId: request.organizationId, input: validate(createTemplateSchema, request.body) }),
  );

  app.get(
    '/template',
    describeRoute({ tag: 'templates', summary: 'List templates (newest first), or read one with ?id=', query: listTemplatesQuery }),
    async (request) => {
      const query = validate(listTemplatesQuery, request.query);
      const organizationId = request.organizationId;
      if (query.id !== undefined) return getTemplate(ctx, { organizationId, id: query.id });
      return listTemplates(ctx, { organizationId, limit: query.limit, cursor: query.cursor });
    },
  );

  app.put('/template', describeRoute({ tag: 'templates', summary: 'Update a template', body: updateTemplateSchema }), async (request) =>
    updateTemplate(ctx, { organizationId: request.organizationId, input: validate(updateTemplateSchema, request.body) }),
  );

  app.delete(
    '/template',
    describeRoute({ tag: 'templates', summary: 'Delete a template, its HTML files and reference links', query: templateIdQuery }),
    async (request) => {
      const { id } = validate(templateIdQuery, request.query);
      return deleteTemplate(ctx, { organizationId: request.organizationId, id });
    },
  );
}
