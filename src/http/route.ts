import type { FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import Joi from 'joi';
import type { ConsoleUser } from '../console/sessions.js';
import type { ApiKeyKind } from '../db/schema.js';
import { fail } from '../domain-error.js';
import { ERROR_CATALOGUE, type ErrorCode } from '../error-catalogue.js';
import type { Permission } from '../organizations/user-roles.js';
import { checkInput } from './json-body.js';
import { answerableErrors, documentRoute } from './openapi.js';
import type { Access, Method, RouteResponse } from './route-kinds.js';
import { validate } from './validate.js';

export type { Access, Method, RawResponse, RouteResponse } from './route-kinds.js';

/** The header the people's pages send their link's token in. */
export const LINK_TOKEN_HEADER = 'x-link-token';
/** Tokens are 24 random bytes in base64url (src/ids.ts); anything else is no link. */
const LINK_TOKEN_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

/** A code the route can answer, at the catalogue's first status or, as a pair, at the one given. */
export type RouteError = ErrorCode | readonly [ErrorCode, number];

/** What a handler is given: the validated body and query, and whose request it is. */
export interface RouteInput<B, Q> {
  body: B;
  query: Q;
  /** The organization of the key; empty on routes that take no key. */
  organizationId: string;
  /** Which key called: `private` or `public` on key routes, `none` on the others. */
  keyKind: ApiKeyKind | 'none';
  /** The link's token on `link-token` routes (checked for its form only); empty elsewhere. */
  linkToken: string;
  /** The signed-in user on `console` routes (src/auth/console-access.ts); null elsewhere. */
  consoleUser: ConsoleUser | null;
  request: FastifyRequest;
  reply: FastifyReply;
}

export interface RouteDefinition<B, Q> {
  method: Method;
  /** The full path, prefix included. */
  url: string;
  access: Access;
  /** On `console` routes (required there): what the user's role must hold (src/organizations/user-roles.ts). */
  permission?: Permission;
  /** On `any-key` routes (required there): what the public key gets, for the OpenAPI description. */
  publicKey?: string;
  tag: string;
  summary: string;
  description?: string;
  /** `noInput` for a route that takes no body (or a raw one, read from the request by the handler). */
  body: Joi.ObjectSchema<B>;
  /** `noInput` for a route that takes no query. */
  query: Joi.ObjectSchema<Q>;
  /** The success answer; JSON answers are serialized as the handler gives them, and checked by the tests. */
  response: RouteResponse;
  /** The codes of the catalogue the route itself can answer, besides validation, access and body errors. */
  errors: readonly RouteError[];
  bodyLimit?: number;
  /** Calls one client address may make in a window (guessing tokens and codes), answered 429 past it. */
  rateLimit?: { max: number; windowMs: number };
  /** The media types of a raw body (the files routes); JSON routes take application/json only. */
  rawBody?: readonly string[];
  handler(input: RouteInput<B, Q>): unknown;
}

/** A declared route as the app registers it and the route security suite walks it. */
export interface ApiRoute {
  readonly method: Method;
  readonly url: string;
  readonly access: Access;
  /** On `console` routes: what the user's role must hold. */
  readonly permission: Permission | undefined;
  readonly tag: string;
  readonly errors: ReadonlyMap<ErrorCode, number>;
  /** Its own errors and those every route of its shape may answer (access, body, rate limit), with their status. */
  readonly answerableErrors: ReadonlyMap<ErrorCode, number>;
  readonly body: Joi.ObjectSchema;
  readonly query: Joi.ObjectSchema;
  readonly rawBody: readonly string[] | undefined;
  readonly response: RouteResponse;
  readonly options: RouteShorthandOptions;
  handle(request: FastifyRequest, reply: FastifyReply): Promise<unknown>;
}

function linkTokenOf(request: FastifyRequest): string {
  const token = request.headers[LINK_TOKEN_HEADER];
  if (typeof token !== 'string' || !LINK_TOKEN_PATTERN.test(token)) throw fail('LINK_NOT_FOUND');
  return token;
}

/** Neither body nor query: anything sent is refused by name (`"x" is not allowed`). */
export const noInput = Joi.object<Record<string, never>, true>({}).default({});

function errorStatuses(errors: readonly RouteError[]): Map<ErrorCode, number> {
  return new Map(
    errors.map((error): [ErrorCode, number] => {
      if (typeof error !== 'string') return [error[0], error[1]];
      const [status] = ERROR_CATALOGUE[error].status;
      return [error, status];
    }),
  );
}

/**
 * Declares a route once: its method and path, who may call it, its schemas, the errors it answers
 * and its handler. Validation, the OpenAPI operation and the handler's input types all come from
 * here; the route security suite reads the same declaration.
 */
export function defineRoute<B, Q>(definition: RouteDefinition<B, Q>): ApiRoute {
  if ((definition.access === 'any-key') !== (definition.publicKey !== undefined)) {
    throw new Error(`${definition.method} ${definition.url}: say what the public key gets on an any-key route, and only there`);
  }
  if ((definition.access === 'console') !== (definition.permission !== undefined)) {
    throw new Error(`${definition.method} ${definition.url}: say what permission a console route wants of the user's role, and only there`);
  }
  const errors = errorStatuses(definition.errors);
  // Joi lets an absent object through; a route whose body has fields must be sent one.
  const takesBody = definition.rawBody === undefined && Object.keys(definition.body.describe().keys ?? {}).length > 0;
  return {
    method: definition.method,
    url: definition.url,
    access: definition.access,
    permission: definition.permission,
    tag: definition.tag,
    errors,
    answerableErrors: answerableErrors({ ...definition, errors }),
    body: definition.body,
    query: definition.query,
    rawBody: definition.rawBody,
    response: definition.response,
    options: {
      ...documentRoute({ ...definition, errors }),
      ...(definition.bodyLimit !== undefined ? { bodyLimit: definition.bodyLimit } : {}),
      config: {
        access: definition.access,
        ...(definition.permission ? { permission: definition.permission } : {}),
        ...(definition.rateLimit ? { rateLimit: { max: definition.rateLimit.max, timeWindow: definition.rateLimit.windowMs } } : {}),
      },
    },
    // Not async: a refused input throws here, which Fastify answers as it answers a rejection, and
    // a handler's own promise is handed on as it is rather than wrapped in one more.
    handle(request, reply) {
      checkInput(request.query);
      if (takesBody && request.body === undefined) throw fail('BODY_REQUIRED', 'send the request as a JSON body');
      const query = validate(definition.query, request.query);
      const body = validate(definition.body, definition.rawBody ? undefined : request.body);
      const linkToken = definition.access === 'link-token' ? linkTokenOf(request) : '';
      const answer = definition.handler({
        body,
        query,
        organizationId: request.organizationId,
        keyKind: request.keyKind,
        linkToken,
        consoleUser: request.consoleUser,
        request,
        reply,
      });
      return answer instanceof Promise ? answer : Promise.resolve(answer);
    },
  };
}
