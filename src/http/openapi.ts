import type Joi from 'joi';
import type { RouteShorthandOptions } from 'fastify';
import joiToJson from 'joi-to-json';

// The package's types declare a named export, but at run time module.exports is the function itself.
const parse = joiToJson as unknown as typeof joiToJson.parse;

const errorBody = {
  type: 'object',
  required: ['message'],
  properties: { message: { type: 'string', description: 'An UPPER_SNAKE code or a Joi validation message' } },
} as const;

export interface RouteDoc {
  tag: string;
  summary: string;
  description?: string;
  body?: Joi.Schema;
  query?: Joi.Schema;
  /** The success body, for readers of the spec; responses are serialized as they are, never filtered by it. */
  response?: Joi.Schema;
  /** Whether the route is under /v1.5/ext and takes the API key. */
  authenticated?: boolean;
  errors?: Record<number, string>;
}

/**
 * Route documentation generated from the same Joi schemas that validate requests. Fastify's own
 * validator and serializer are switched off in app.ts, so these JSON schemas only describe; Joi decides.
 */
export function describeRoute(doc: RouteDoc): RouteShorthandOptions {
  const authenticated = doc.authenticated ?? true;
  const errors: Record<number, string> = { 400: 'Invalid request' };
  if (authenticated) errors[401] = 'Missing, unknown or revoked key (UNAUTHORIZED)';
  Object.assign(errors, doc.errors);
  return {
    schema: {
      tags: [doc.tag],
      summary: doc.summary,
      ...(doc.description ? { description: doc.description } : {}),
      ...(authenticated ? { security: [{ apiKey: [] }] } : {}),
      ...(doc.body ? { body: parse(doc.body, 'open-api-3.1') } : {}),
      ...(doc.query ? { querystring: parse(doc.query, 'open-api-3.1') } : {}),
      response: {
        200: doc.response ? { description: 'Success', ...parse(doc.response, 'open-api-3.1') } : { description: 'Success' },
        ...Object.fromEntries(Object.entries(errors).map(([status, description]) => [status, { description, ...errorBody }])),
      },
    },
  };
}
