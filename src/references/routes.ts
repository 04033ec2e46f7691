import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context.js';
import { describeRoute } from '../http/openapi.js';
import { validate } from '../http/validate.js';
import { createReferenceLink, deleteReferenceLink, listReferenceLinks } from './reference-links.js';
import {
  createReferenceSchema,
  deletedReferenceResponse,
  deleteReferenceQuery,
  listReferencesQuery,
  referenceLinkResponse,
  referenceListResponse,
} from './schemas.js';

export function referenceRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  app.post(
    '/template/reference',
    describeRoute({ tag: 'reference links', summary: 'Create a reference link to a template', body: createReferenceSchema, response: referenceLinkResponse }),
    async (request) => {
      const input = validate(createReferenceSchema, request.body);
      return createReferenceLink(ctx, { organizationId: request.organizationId, templateId: input.template, name: input.name });
    },
  );

  app.get(
    '/template/reference',
    describeRoute({ tag: 'reference links', summary: "List a template's reference links", query: listReferencesQuery, response: referenceListResponse }),
    async (request) => {
      const { template } = validate(listReferencesQuery, request.query);
      return listReferenceLinks(ctx, { organizationId: request.organizationId, templateId: template });
    },
  );

  app.delete(
    '/template/reference',
    describeRoute({ tag: 'reference links', summary: 'Delete one reference link', query: deleteReferenceQuery, response: deletedReferenceResponse }),
    async (request) => {
      const { id } = validate(deleteReferenceQuery, request.query);
      return deleteReferenceLink(ctx, { organizationId: request.organizationId, id });
    },
  );
}
