import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context.js';
import { describeRoute } from '../http/openapi.js';
import { validate } from '../http/validate.js';
import { createVeriface } from './create-veriface.js';
import { readVeriface } from './read-veriface.js';
import { createVerifaceSchema, verifaceCodeQuery } from './schemas.js';

export function verifaceRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  app.post(
    '/veriface',
    describeRoute({
      tag: 'face validation',
      summary: 'Create a face-validation process',
      description:
        'Answers {code}. The person is notified by WhatsApp (platform whatsapp), or by e-mail to userEmail on web when the organization has the SDK integration; otherwise the answer also carries url, the link to deliver.',
      body: createVerifaceSchema,
      errors: { 400: 'Joi message | EXPIRED_DATE_INVALID | USER_NOTFOUND | WEBHOOK_NOT_FOUND: <name>' },
    }),
    async (request) =>
      createVeriface(ctx, { organizationId: request.organizationId, input: validate(createVerifaceSchema, request.body) }),
  );

  app.get(
    '/veriface',
    describeRoute({ tag: 'face validation', summary: 'Read a face-validation process with its stages', query: verifaceCodeQuery }),
    async (request) => {
      const { code } = validate(verifaceCodeQuery, request.query);
      return readVeriface(ctx, { organizationId: request.organizationId, code });
    },
  );
}
