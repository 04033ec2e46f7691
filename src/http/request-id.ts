import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The header a request's id arrives in (from a proxy) and every answer carries it back in. */
export const REQUEST_ID_HEADER = 'x-request-id';

/** What a proxy's id may look like: short, and nothing that could split or forge a log line. */
const WELL_FORMED = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The id of a request: the proxy's when it sent a well-formed one, so one id follows the request
 * through the proxy's logs and these; a new one otherwise. Fastify logs it as `reqId` on every
 * line of the request's logger.
 */
export function requestIdOf(request: IncomingMessage): string {
  const sent = request.headers[REQUEST_ID_HEADER];
  return typeof sent === 'string' && WELL_FORMED.test(sent) ? sent : randomUUID();
}
