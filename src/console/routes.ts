import { Readable } from 'node:stream';
import type { Config } from '../config.js';
import type { ServiceContext } from '../context.js';
import { listProcesses } from '../documents/lifecycle/read-process.js';
import { processListResponse } from '../documents/schemas.js';
import { fail } from '../domain-error.js';
import { type ApiRoute, defineRoute, noInput, type RouteInput } from '../http/route.js';
import { findOrganization } from '../organizations/queries.js';
import type { PageAssets } from '../people/assets.js';
import { pageLanguage } from '../people/page-language.js';
import { pageHeaders } from '../people/pages.js';
import { listTemplates } from '../templates/read-templates.js';
import { templateListResponse } from '../templates/schemas.js';
import { readAudit, recordUserAction } from './audit.js';
import { auditCsv } from './audit-csv.js';
import { userOf } from './console-user.js';
import { clearSessionCookie, consoleCookie } from './cookie.js';
import { consoleShell } from './page.js';
import { readProcessDetail } from './process-detail.js';
import { signedInReply } from './route-helpers.js';
import {
  auditQuery,
  auditResponse,
  codeBody,
  consoleLanguageResponse,
  languageChoiceBody,
  linkBody,
  processDetailResponse,
  processQuery,
  processSearchQuery,
  sentResponse,
  signedInResponse,
  signedOutResponse,
  signInBody,
  templatesQuery,
} from './schemas.js';
import { endSession } from './sessions.js';
import { type NewSession, requestSignIn, signInWithCode, signInWithLink } from './sign-in.js';
import { chooseConsoleLanguage, readConsoleLanguage } from './user-language.js';

const tag = 'console';

/** Sign-in e-mails one client address may ask for in a quarter of an hour, and links or codes it may try. */
const SIGN_IN_REQUESTS = { max: 10, windowMs: 15 * 60_000 };
const SIGN_IN_ATTEMPTS = { max: 20, windowMs: 15 * 60_000 };

/**
 * The operator console (GET /console) and the routes its page calls: sign-in by an e-mailed link
 * or code, then the organization's processes. Every route but the page and the sign-in takes the
 * session's cookie, and the organization is the session's.
 */
export function consoleRoutes(ctx: ServiceContext, options: { config: Config; assets: PageAssets }): ApiRoute[] {
  const cookie = consoleCookie(options.config.publicUrl);
  const signedIn = ({ reply }: { reply: RouteInput<unknown, unknown>['reply'] }, session: NewSession) => signedInReply(cookie, reply, session);
  return [
    defineRoute({
      method: 'GET',
      url: '/console',
      access: 'public',
      tag,
      summary: "The operator console (HTML): the organization's users sign in by e-mail and follow its processes",
      description: 'The page holds nothing: its script reads the routes below, with the session the sign-in sets.',
      body: noInput,
      query: noInput,
      response: { raw: { mediaTypes: ['text/html'], description: "the page's HTML shell" } },
      errors: [],
      handler: ({ request, reply }) =>
        reply.headers(pageHeaders(options.config, [])).send(consoleShell(options.assets, pageLanguage(request.headers['accept-language']))),
    }),
    defineRoute({
      method: 'POST',
      url: '/console/api/sign-in',
      access: 'console-sign-in',
      tag,
      summary: 'Ask for a sign-in e-mail: a link and a code, once each, for 15 minutes',
      description:
        "Each user going by the e-mail (one per organization) is sent one, in the language the user chose (PUT /console/api/me/language), else the organization's. The answer is the same for an e-mail no user has, and past 3 e-mails to one address in 15 minutes nothing more is sent, with the same answer.",
      body: signInBody,
      query: noInput,
      response: { json: sentResponse },
      errors: [],
      rateLimit: SIGN_IN_REQUESTS,
      handler: ({ body, request }) => requestSignIn(ctx, { email: body.email, address: request.ip }),
    }),
    defineRoute({
      method: 'POST',
      url: '/console/api/sign-in/link',
      access: 'console-sign-in',
      tag,
      summary: "Sign in with the e-mailed link's token: sets the session cookie",
      body: linkBody,
      query: noInput,
      response: { json: signedInResponse },
      errors: ['CONSOLE_SIGN_IN_INVALID'],
      rateLimit: SIGN_IN_ATTEMPTS,
      handler: async (input) => signedIn(input, await signInWithLink(ctx, { token: input.body.token, address: input.request.ip })),
    }),
    defineRoute({
      method: 'POST',
      url: '/console/api/sign-in/code',
      access: 'console-sign-in',
      tag,
      summary: 'Sign in with the e-mail and the e-mailed code, typed on another device: sets the session cookie',
      description: "Five wrong codes wear out the e-mail's open sign-ins.",
      body: codeBody,
      query: noInput,
      response: { json: signedInResponse },
      errors: ['CONSOLE_SIGN_IN_INVALID'],
      rateLimit: SIGN_IN_ATTEMPTS,
      handler: async (input) => signedIn(input, await signInWithCode(ctx, { ...input.body, address: input.request.ip })),
    }),
    defineRoute({
      method: 'POST',
      url: '/console/api/sign-out',
      access: 'console',
      permission: 'account.self',
      tag,
      summary: 'Sign out: the session ends and its cookie is removed',
      body: noInput,
      query: noInput,
      response: { json: signedOutResponse },
      errors: [],
      handler: async (input) => {
        const user = userOf(input);
        await endSession(ctx.db, ctx.clock, user.sessionId);
        await recordUserAction(ctx.db, ctx.clock, { user, action: 'SIGN_OUT', address: input.request.ip });
        input.reply.header('set-cookie', clearSessionCookie(cookie));
        return { signedOut: true };
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/console/api/me',
      access: 'console',
      permission: 'account.self',
      tag,
      summary: "Who the session is: the user's e-mail and role, and the organization",
      body: noInput,
      query: noInput,
      response: { json: signedInResponse },
      errors: ['ORGANIZATION_NOT_FOUND'],
      handler: async (input) => {
        const user = userOf(input);
        const organization = await findOrganization(ctx.db, user.organizationId);
        if (!organization) throw fail('ORGANIZATION_NOT_FOUND');
        return { email: user.email, role: user.role, organization: { id: organization.id, name: organization.name } };
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/console/api/me/language',
      access: 'console',
      permission: 'account.self',
      tag,
      summary: "The console's language for the session's user (their choice, else the organization's) and the organization's time zone",
      body: noInput,
      query: noInput,
      response: { json: consoleLanguageResponse },
      errors: ['ORGANIZATION_NOT_FOUND'],
      handler: (input) => readConsoleLanguage(ctx.db, userOf(input)),
    }),
    defineRoute({
      method: 'PUT',
      url: '/console/api/me/language',
      access: 'console',
      permission: 'account.self',
      tag,
      summary: "Choose the console's language for the session's user, or null to follow the organization's; their sign-in e-mails follow it too",
      body: languageChoiceBody,
      query: noInput,
      response: { json: consoleLanguageResponse },
      errors: ['ORGANIZATION_NOT_FOUND'],
      handler: (input) => chooseConsoleLanguage(ctx.db, { user: userOf(input), language: input.body.language }),
    }),
    defineRoute({
      method: 'GET',
      url: '/console/api/processes',
      access: 'console',
      permission: 'processes.read',
      tag,
      summary: "The organization's processes, newest first: searched by name, participant or code, filtered by status, template and date",
      body: noInput,
      query: processSearchQuery,
      response: { json: processListResponse },
      errors: [],
      handler: ({ query, organizationId }) =>
        listProcesses(ctx, {
          organizationId,
          limit: query.limit,
          ...(query.q ? { search: query.q } : {}),
          ...(query.status ? { status: query.status } : {}),
          ...(query.template ? { templateId: query.template } : {}),
          ...(query.from ? { createdFrom: query.from.toISOString() } : {}),
          ...(query.to ? { createdBefore: query.to.toISOString() } : {}),
          ...(query.cursor ? { cursor: query.cursor } : {}),
        }),
    }),
    defineRoute({
      method: 'GET',
      url: '/console/api/process',
      access: 'console',
      permission: 'processes.read',
      tag,
      summary: 'One process: its documents, its participants and their states, and its roadmap as a timeline',
      description:
        "Participants' phones are identity data: a reviewer or an admin reads them, each an IDENTITY_VIEWED row of the console's audit log; a member reads them masked to their last two digits.",
      body: noInput,
      query: processQuery,
      response: { json: processDetailResponse },
      errors: ['DOCUMENT_NOT_FOUND'],
      handler: (input) => readProcessDetail(ctx, { user: userOf(input), code: input.query.code, address: input.request.ip }),
    }),
    defineRoute({
      method: 'GET',
      url: '/console/api/templates',
      access: 'console',
      permission: 'processes.read',
      tag,
      summary: "The organization's templates, newest first, to filter processes by",
      body: noInput,
      query: templatesQuery,
      response: { json: templateListResponse },
      errors: [],
      handler: ({ query, organizationId }) => listTemplates(ctx, { organizationId, limit: query.limit, ...(query.cursor ? { cursor: query.cursor } : {}) }),
    }),
    defineRoute({
      method: 'GET',
      url: '/console/api/audit',
      access: 'console',
      permission: 'settings.admin',
      tag,
      summary: "The organization's console audit log, newest first: sign-ins asked for, made and refused, sign-outs, refusals",
      body: noInput,
      query: auditQuery,
      response: { json: auditResponse },
      errors: [],
      handler: ({ query, organizationId }) => readAudit(ctx.db, { organizationId, limit: query.limit, ...(query.cursor ? { cursor: query.cursor } : {}) }),
    }),
    defineRoute({
      method: 'GET',
      url: '/console/api/audit/csv',
      access: 'console',
      permission: 'settings.admin',
      tag,
      summary: "The organization's whole console audit log as a CSV file to download, newest first",
      description:
        "One line per entry: at, action, email, address, and the process, participant, person's name, photo and field a view of identity data names, then the rest of its detail as JSON. A cell that starts with = + - @, a tab or a carriage return is prefixed with an apostrophe, so a spreadsheet shows it as text.",
      body: noInput,
      query: noInput,
      response: { raw: { mediaTypes: ['text/csv'], description: 'the audit log, UTF-8, as an attachment' } },
      errors: [],
      handler: async (input) => {
        const day = ctx.clock.now().toISOString().slice(0, 10);
        return input.reply
          .headers({
            'content-type': 'text/csv; charset=utf-8',
            'content-disposition': `attachment; filename="console-audit-${day}.csv"`,
            'x-content-type-options': 'nosniff',
          })
          .send(Readable.from(auditCsv(ctx.db, input.organizationId)));
      },
    }),
  ];
}
