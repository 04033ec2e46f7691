import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { Config } from './config.js';
import type { Deps } from './deps.js';
import { authenticate } from './auth/authenticate.js';
import { filesRoutes } from './files/routes.js';
import { ApiError } from './http/errors.js';
import { webhookDocs } from './http/openapi-webhooks.js';
import { referenceRoutes } from './references/routes.js';
import { templateRoutes } from './templates/routes.js';
import { templateHtmlUploadPolicy } from './templates/upload-policy.js';
import { documentPdfUploadPolicy } from './documents/pdf-uploads.js';
import { documentRoutes } from './documents/routes.js';
import { catalogueRoutes } from './veriface/catalogue-routes.js';
import { verifaceRoutes } from './veriface/routes.js';
import { webhookRoutes } from './webhooks/routes.js';

export const API_PREFIX = '/v1.5/ext';

function isFastifyError(error: unknown): error is FastifyError {
  return error instanceof Error && 'statusCode' in error && typeof error.statusCode === 'number';
}

/** A ready Fastify instance that never listens by itself (server.ts does); tests inject into it. */
export async function buildApp(config: Config, deps: Deps): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      config.logLevel === 'silent'
        ? false
        : {
            level: config.logLevel,
            // Query strings carry URL signatures and, later, one-time codes: log the path only.
            serializers: { req: (request) => ({ method: request.method, path: request.url.split('?')[0], remoteAddress: request.ip }) },
          },
    bodyLimit: 2 * 1024 * 1024,
  });

  // Joi validates every request (its messages are the contract's); route schemas only document.
  app.setValidatorCompiler(() => () => true);
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof ApiError) return reply.status(error.statusCode).send({ message: error.message });
    if (isFastifyError(error) && error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return reply.status(error.statusCode).send({ message: error.message });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ message: 'INTERNAL_ERROR' });
  });
  app.setNotFoundHandler((request, reply) => reply.status(404).send({ message: `Route ${request.method} ${request.url.split('?')[0]} not found` }));

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Signature and identity-validation service, external API', version: '1.5' },
      servers: [{ url: config.publicUrl }],
      webhooks: webhookDocs(),
      components: {
        securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'The bare private key (prk_...); the public key (puk_...) for reads.' } },
      },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  await app.register(
    async (ext) => {
      authenticate(ext, deps.keys);
      templateRoutes(ext, deps);
      referenceRoutes(ext, deps);
      webhookRoutes(ext, deps);
      verifaceRoutes(ext, deps);
      documentRoutes(ext, deps);
      catalogueRoutes(ext);
    },
    { prefix: API_PREFIX },
  );

  await app.register(filesRoutes, {
    store: deps.blobs,
    signer: deps.signer,
    maxBytes: config.uploadMaxBytes,
    policies: [templateHtmlUploadPolicy(deps), documentPdfUploadPolicy(deps)],
  });

  app.get('/health', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  return app;
}
