import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { authenticate } from './auth/authenticate.js';
import { consoleAccess } from './auth/console-access.js';
import { FailedAttempts } from './auth/failed-attempts.js';
import type { Config } from './config.js';
import type { Deps } from './deps.js';
import { DomainError, tooManyRequests } from './domain-error.js';
import { answerClientError, answerFrameworkError } from './http/client-errors.js';
import { errorAnswer } from './http/errors.js';
import { parseJsonBody } from './http/json-body.js';
import { webhookDocs } from './http/openapi-webhooks.js';
import { counterStore } from './http/rate-limit-store.js';
import { REQUEST_ID_HEADER, requestIdOf } from './http/request-id.js';
import type { ApiRoute } from './http/route.js';
import { logTransport } from './log-output.js';
import { routeTable } from './routes.js';

/** The path without its query, and a person's link (/s/…, /v/…, /r/…, /f/…, /read/…) without its token. */
export function loggablePath(url: string): string {
  const path = url.split('?')[0] ?? '';
  return path.replace(/^\/(s|v|r|f|read)\/[^/]+/, '/$1/…');
}

function isFastifyError(error: unknown): error is FastifyError {
  return error instanceof Error && 'statusCode' in error && typeof error.statusCode === 'number';
}

/** Fastify's own 4xx errors, in the catalogue's words. */
function frameworkMessage(error: FastifyError): string {
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return 'UNSUPPORTED_MEDIA_TYPE: send the body as application/json';
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return 'BODY_TOO_LARGE: the body is larger than this route takes';
  return `BAD_REQUEST: ${error.message}`;
}

function register(app: FastifyInstance, routes: ApiRoute[]): void {
  for (const route of routes) app.route({ method: route.method, url: route.url, ...route.options, handler: route.handle });
}

/** A ready Fastify instance that never listens by itself (server.ts does); tests inject into it. */
export async function buildApp(config: Config, deps: Deps): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      config.logLevel === 'silent'
        ? false
        : {
            level: config.logLevel,
            ...logTransport(),
            // Query strings carry URL signatures, and the paths of people's links their tokens: neither is logged.
            serializers: { req: (request) => ({ method: request.method, path: loggablePath(request.url), remoteAddress: request.ip }) },
          },
    genReqId: requestIdOf,
    bodyLimit: 2 * 1024 * 1024,
    // A number of proxies is the nth hop, as proxy-addr counts them (Fastify's types take it as a function).
    trustProxy: typeof config.trustProxy === 'number' ? trustedHops(config.trustProxy) : config.trustProxy,
    requestTimeout: config.timeouts.requestMs,
    keepAliveTimeout: config.timeouts.keepAliveMs,
    clientErrorHandler: answerClientError,
    frameworkErrors: answerFrameworkError,
  });
  app.server.headersTimeout = config.timeouts.headersMs;

  // Joi validates every request (its messages are the contract's); route schemas only document.
  app.setValidatorCompiler(() => () => true);
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  // First of the hooks, so every answer carries its id, refusals of the later hooks included.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });

  app.setErrorHandler((error, request, reply) => {
    const answer = error instanceof DomainError ? errorAnswer(error) : undefined;
    if (answer) return reply.status(answer.status).headers(answer.headers).send({ message: answer.message });
    if (isFastifyError(error) && error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return reply.status(error.statusCode).send({ message: frameworkMessage(error) });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ message: 'INTERNAL_ERROR' });
  });
  app.setNotFoundHandler((request, reply) => reply.status(404).send({ message: `ROUTE_NOT_FOUND: no route ${request.method} ${request.url.split('?')[0]}` }));

  // JSON only, read as text and checked (depth, U+0000, prototype keys) before anything walks it.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(String(body)));
    } catch (error) {
      done(error instanceof Error ? error : new Error(String(error)));
    }
  });

  await app.register(rateLimit, {
    global: false,
    // Counted where deps.ts says (shared by every instance on PostgreSQL), else in this process's memory.
    ...(deps.rateLimitHits ? { store: counterStore(deps.rateLimitHits) } : {}),
    // Routes that declare a rate limit (src/http/route.ts) answer in the catalogue's words.
    errorResponseBuilder: (_request, context) => tooManyRequests(context.ttl),
  });
  authenticate(app, deps.keys, FailedAttempts.create(app, config.authFailures));
  consoleAccess(app, { db: deps.db, clock: deps.clock, publicUrl: config.publicUrl });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Signature and identity-validation service, external API', version: '1.5' },
      servers: [{ url: config.publicUrl }],
      webhooks: webhookDocs(),
      components: {
        securitySchemes: {
          consoleSession: {
            type: 'apiKey',
            in: 'cookie',
            name: '__Host-console-session',
            description:
              'The operator console\'s session (tag "console"), set by its sign-in routes: HttpOnly, SameSite=Strict, Secure. Only on plain-http loopback development (PUBLIC_URL http://localhost) is it named console-session, without Secure. Never an API key.',
          },
          apiKey: {
            type: 'apiKey',
            in: 'header',
            name: 'Authorization',
            description:
              'The bare private key (prk_...). The public key (puk_...), which sits in web pages, reads only what each operation says it may (x-public-key): never photos, personal data, logs or listings.',
          },
        },
      },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  const routes = routeTable(config, deps);
  register(
    app,
    routes.filter((route) => !route.rawBody),
  );
  // Routes that take a file's raw bytes read the request stream themselves.
  await app.register(async (raw) => {
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', (_request, _payload, done) => done(null));
    register(
      raw,
      routes.filter((route) => route.rawBody),
    );
  });
  return app;
}

/** Believes the X-Forwarded-For entries that `hops` proxies wrote, counted from the socket's peer. */
function trustedHops(hops: number): (address: string, hop: number) => boolean {
  return (_address, hop) => hop < hops;
}
