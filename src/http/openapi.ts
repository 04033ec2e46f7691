import type Joi from 'joi';
import type { RouteShorthandOptions } from 'fastify';
import joiToJson from 'joi-to-json';

// The package's types declare a named export, but at run time module.exports is the function itself.
const parse = joiToJson as unknown as typeof joiToJson.parse;

/**
 * Route documentation generated from the same Joi schemas that validate requests. Fastify's own
 * validator is switched off in app.ts, so these JSON schemas only describe; Joi decides.
 */
export function describeRoute(options: { tag: string; summary: string; body?: Joi.Schema; query?: Joi.Schema }): RouteShorthandOptions {
  return {
    schema: {
      tags: [options.tag],
      summary: options.summary,
      security: [{ apiKey: [] }],
      ...(options.body ? { body: parse(options.body, 'open-api-3.1') } : {}),
      ...(options.query ? { querystring: parse(options.query, 'open-api-3.1') } : {}),
    },
  };
}
