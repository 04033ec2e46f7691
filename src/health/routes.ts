import Joi from 'joi';
import { type ApiRoute, defineRoute, noInput } from '../http/route.js';
import type { PdfRenderer } from '../rendering/renderer.js';
import type { Readiness } from './readiness.js';

const checkState = Joi.alternatives(Joi.string().valid('starting', 'ok'), Joi.object({ failed: Joi.string().required() })).example('ok');

const healthResponse = Joi.object({
  status: Joi.string().valid('ok', 'starting', 'failed').required().description("'ok' when ready; 'failed' once a check failed").example('ok'),
  ready: Joi.boolean().required().example(true),
  checks: Joi.object()
    .pattern(Joi.string(), checkState)
    .required()
    .description('the start-up work this instance began (migrations, outbox, faceWorkers, renderer): starting, ok or {failed}')
    .example({ migrations: 'ok', outbox: 'ok', faceWorkers: 'ok', renderer: 'ok' }),
  renderer: Joi.object({
    engine: Joi.string().required().example('chromium'),
    running: Joi.boolean().required().description('the browser starts on the first render').example(true),
    selfTest: Joi.alternatives()
      .try(Joi.string().valid('not run'), Joi.object({ passedMs: Joi.number().min(0).required() }), Joi.object({ failed: Joi.string().required() }))
      .required()
      .example({ passedMs: 412 }),
  })
    .required()
    .description('the PDF renderer: engine, whether it runs, its self-test'),
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
    response: { json: healthResponse },
    errors: [],
    handler: ({ reply }) => {
      const report = deps.readiness.report();
      if (!report.ready) reply.status(503);
      return { ...report, renderer: deps.renderer.describe() };
    },
  });
}
