import Joi from 'joi';
import { type ApiRoute, defineRoute, noInput } from '../http/route.js';
import type { PdfRenderer } from '../rendering/renderer.js';
import type { Readiness } from './readiness.js';

const checkState = Joi.alternatives(Joi.string().valid('starting', 'ok'), Joi.object({ failed: Joi.string().required() }));

const healthResponse = Joi.object({
  status: Joi.string().valid('ok', 'starting', 'failed').required().description("'ok' when ready; 'failed' once a check failed"),
  ready: Joi.boolean().required(),
  checks: Joi.object()
    .pattern(Joi.string(), checkState)
    .required()
    .description('the start-up work this instance began (migrations, outbox, faceWorkers, renderer): starting, ok or {failed}'),
  renderer: Joi.object().required().description('the PDF renderer: engine, whether it runs, its self-test'),
});

/**
 * GET /health answers whenever the process does: 200 once the instance is ready (every piece of
 * start-up work it began has passed), 503 with the same body while one is still starting or after
 * one failed, so a balancer sends it nothing until then.
 */
export function healthRoute(deps: { readiness: Readiness; renderer: PdfRenderer }): ApiRoute {
  return defineRoute({
    method: 'GET',
    url: '/health',
    access: 'public',
    tag: 'service',
    summary: 'Whether the service is ready: 200 once its start-up work has passed, 503 until then or after a check failed',
    body: noInput,
    query: noInput,
    response: healthResponse,
    errors: [],
    handler: ({ reply }) => {
      const report = deps.readiness.report();
      if (!report.ready) reply.status(503);
      return { ...report, renderer: deps.renderer.describe() };
    },
  });
}
