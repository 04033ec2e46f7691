import type { ServiceContext } from '../context.js';
import { type ApiRoute, defineRoute, noInput } from '../http/route.js';
import { createPrebuilt } from './create-prebuilt.js';
import { prebuildSchema, prebuiltResponse } from './schemas.js';

/** Prefilled answers are at most what /document/save takes: `image` answers are data URIs of up to 8 MiB. */
const PREBUILD_BODY_LIMIT = 10 * 1024 * 1024;

export function prebuiltRoutes(ctx: ServiceContext): ApiRoute[] {
  return [
    defineRoute({
      method: 'POST',
      url: '/v1.5/ext/document/prebuild',
      access: 'private-key',
      tag: 'signing processes',
      summary: 'Prepare a process from a template with some answers filled in; the person of emailTo completes the rest in a form',
      description:
        "The template must have preBuild true; `preBuild` answers only questions of its preBuildData, each checked as /document/save checks it, and the last question of preBuildData (an e-mail question) is answered with `emailTo`. Answers {document: code}. Nobody is invited and no webhook is sent yet: with notification (the default) `emailTo` is e-mailed the form's link (/f/<token>), in the organization's language; with false the answer carries it as `url`. The SDK's fill flow completes it too ({document: template id, code, preBuild: true}). Completing the form creates the process under the same code, as /document/save would with every answer (the prefilled ones locked), its participants invited by the service, and the usual CREATE webhook. POST /document/cancel cancels it while it waits; GET /document reads it as status PREBUILT.",
      body: prebuildSchema,
      query: noInput,
      response: { json: prebuiltResponse },
      errors: [
        'EXPIRED_DATE_INVALID',
        'USER_NOTFOUND',
        'WEBHOOK_NOT_FOUND',
        'TEMPLATE_NOT_FOUND',
        'TEMPLATE_HTML_MISSING',
        'PREBUILD_NOT_ENABLED',
        'PATTERNS_TOO_COSTLY',
      ],
      bodyLimit: PREBUILD_BODY_LIMIT,
      handler: ({ body, organizationId }) => createPrebuilt(ctx, { organizationId, input: body }),
    }),
  ];
}
