import type { RouteShorthandOptions } from 'fastify';
import type Joi from 'joi';
import joiToJson from 'joi-to-json';
import { refusalOf } from '../auth/console-refusals.js';
import { ERROR_CATALOGUE, type ErrorCode } from '../error-catalogue.js';
import { may, type Permission, USER_ROLES } from '../organizations/user-roles.js';
import { type Access, CONSOLE_ACCESS, type Method, type RouteResponse } from './route-kinds.js';
import { exampleOf } from './schema-example.js';

// The package's types declare a named export, but at run time module.exports is the function itself.
const parse = joiToJson as unknown as typeof joiToJson.parse;

const errorBody = {
  type: 'object',
  required: ['message'],
  additionalProperties: false,
  properties: { message: { type: 'string', description: 'A code of the error catalogue, or a validation message naming its field' } },
} as const;

export interface RouteDoc {
  method: Method;
  access: Access;
  /** On `console` routes: what the user's role must hold. */
  permission?: Permission;
  publicKey?: string;
  tag: string;
  summary: string;
  description?: string;
  body: Joi.ObjectSchema;
  query: Joi.ObjectSchema;
  response: RouteResponse;
  rawBody?: readonly string[];
  rateLimit?: unknown;
  errors: ReadonlyMap<ErrorCode, number>;
}

const KEY_ACCESS: ReadonlySet<Access> = new Set(['private-key', 'any-key', 'operator']);
const BODY_METHODS: ReadonlySet<Method> = new Set(['POST', 'PUT']);

/** Who may call a console route, in words, for the OpenAPI document. */
function consoleAccessWords(doc: Pick<RouteDoc, 'access' | 'permission'>): string {
  const origin = "a change must come from the service's own origin";
  if (doc.permission === undefined) return `no session; ${origin}`;
  const { permission } = doc;
  const roles = USER_ROLES.filter((role) => may(role, permission));
  return `a console session of the organization's whose role holds ${permission} (${roles.join(', ')}); ${origin}`;
}

/** Every error the route can answer, with its status: its own codes and those that come with its shape. */
export function answerableErrors(doc: Pick<RouteDoc, 'method' | 'access' | 'permission' | 'rawBody' | 'rateLimit' | 'errors'>): Map<ErrorCode, number> {
  const codes = new Map<ErrorCode, number>(doc.errors);
  if (KEY_ACCESS.has(doc.access)) {
    codes.set('UNAUTHORIZED', 401);
    codes.set('TOO_MANY_REQUESTS', 429);
  }
  if (doc.rateLimit !== undefined) codes.set('TOO_MANY_REQUESTS', 429);
  // The console's (src/auth/console-access.ts): a change from another site, no session, a role the route does not admit.
  if (CONSOLE_ACCESS.has(doc.access) && doc.method !== 'GET') codes.set('CONSOLE_ORIGIN_REFUSED', 403);
  if (doc.access === 'console') codes.set('CONSOLE_SIGN_IN_REQUIRED', 401);
  const refusal = doc.permission === undefined ? undefined : refusalOf(doc.permission);
  if (refusal !== undefined) codes.set(refusal.code, 403);
  // A read kept for the private key tells a public key so (src/auth/authenticate.ts).
  if ((doc.access === 'private-key' || doc.access === 'operator') && doc.method === 'GET') codes.set('PRIVATE_KEY_REQUIRED', 403);
  if (BODY_METHODS.has(doc.method)) {
    codes.set('UNSUPPORTED_MEDIA_TYPE', 415);
    codes.set('BODY_TOO_LARGE', 413);
    if (!doc.rawBody) for (const code of ['BODY_REQUIRED', 'BODY_NOT_JSON', 'BODY_TOO_DEEP', 'BODY_FORBIDDEN_KEY'] as const) codes.set(code, 400);
  }
  codes.set('TEXT_HAS_NUL', 400);
  codes.set('TEXT_NOT_WELL_FORMED', 400);
  return codes;
}

function errorsByStatus(doc: RouteDoc): Map<number, ErrorCode[]> {
  const codes = answerableErrors(doc);
  const byStatus = new Map<number, ErrorCode[]>();
  for (const [code, status] of codes) byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  return byStatus;
}

/** One example per code, named by it (@fastify/swagger turns x-examples into the media's named examples). */
function errorExamples(codes: ErrorCode[]): Record<string, { value: { message: string } }> {
  return Object.fromEntries(codes.map((code) => [code, { value: { message: code } }]));
}

function describeStatus(status: number, codes: ErrorCode[]): string {
  const lines = codes.map((code) => `- \`${code}\`: ${ERROR_CATALOGUE[code].meaning}`);
  if (status === 400) lines.unshift('- a validation message naming its field, in Joi\'s words (`"id" is required`)');
  return lines.join('\n');
}

/** A JSON schema with the Joi schema's example beside it, as the documentation UI shows it. */
function withExample(schema: Joi.Schema): Record<string, unknown> {
  const example = exampleOf(schema);
  return { ...parse(schema, 'open-api-3.1'), ...(example === undefined ? {} : { examples: [example] }) };
}

/** The 200 answer: the JSON schema with its example, and each other media type the route answers. */
function successResponse(response: RouteResponse): Record<string, unknown> {
  const content: Record<string, unknown> = {};
  if ('json' in response) content['application/json'] = { schema: parse(response.json, 'open-api-3.1'), example: exampleOf(response.json) };
  const { raw } = response;
  if (raw === undefined) return { description: 'Success', content };
  for (const type of raw.mediaTypes) content[type] = { schema: { type: 'string', description: raw.description } };
  return { description: `Success: ${'json' in response ? 'JSON, or ' : ''}${raw.description}`, content };
}

function hasKeys(schema: Joi.ObjectSchema): boolean {
  const { keys } = schema.describe();
  return keys !== undefined && Object.keys(keys).length > 0;
}

/**
 * A route's OpenAPI operation, from the same Joi schemas that validate it and the codes it declares.
 * Fastify's own validator and serializer are switched off in app.ts, so these JSON schemas only
 * describe; Joi decides.
 */
export function documentRoute(doc: RouteDoc): RouteShorthandOptions {
  const errors = errorsByStatus(doc);
  const description = [
    doc.description,
    doc.rawBody ? `The body is the file's raw bytes, sent as ${doc.rawBody.join(' or ')}.` : undefined,
    doc.publicKey === undefined ? undefined : `With the public key: ${doc.publicKey}`,
  ]
    .filter((text) => text !== undefined)
    .join('\n\n');
  return {
    schema: {
      tags: [doc.tag],
      summary: doc.summary,
      ...(description ? { description } : {}),
      ...(KEY_ACCESS.has(doc.access) ? { security: [{ apiKey: [] }] } : {}),
      ...(doc.access === 'any-key' ? { 'x-access': 'private or public key', 'x-public-key': doc.publicKey } : {}),
      ...(doc.access === 'operator' ? { 'x-access': "no key from the service's own machine (loopback), else the private key" } : {}),
      ...(doc.access === 'console' ? { security: [{ consoleSession: [] }] } : {}),
      ...(CONSOLE_ACCESS.has(doc.access) ? { 'x-access': consoleAccessWords(doc) } : {}),
      ...(doc.permission === undefined ? {} : { 'x-permission': doc.permission }),
      ...(BODY_METHODS.has(doc.method) && !doc.rawBody && hasKeys(doc.body) ? { body: withExample(doc.body) } : {}),
      ...(hasKeys(doc.query) ? { querystring: parse(doc.query, 'open-api-3.1') } : {}),
      response: {
        200: successResponse(doc.response),
        ...Object.fromEntries(
          [...errors]
            .sort(([a], [b]) => a - b)
            .map(([status, codes]) => [status, { description: describeStatus(status, codes), ...errorBody, 'x-examples': errorExamples(codes) }]),
        ),
      },
    },
  };
}
