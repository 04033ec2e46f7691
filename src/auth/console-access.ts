import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Clock } from '../clock.js';
import { recordAudit } from '../console/audit.js';
import { type ConsoleCookie, consoleCookie, sessionTokenOf } from '../console/cookie.js';
import { type ConsoleUser, resolveSession } from '../console/sessions.js';
import type { Db } from '../db/schema.js';
import { fail } from '../domain-error.js';
import { CONSOLE_ACCESS } from '../http/route-kinds.js';
import { may, type Permission } from '../organizations/user-roles.js';
import { refusalOf } from './console-refusals.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** On the console's routes: the user of the request's session. */
    consoleUser: ConsoleUser | null;
  }
  interface FastifyContextConfig {
    /** On `console` routes: what the user's role must hold, from the route's declaration (src/http/route.ts). */
    permission?: Permission;
  }
}

const READS: ReadonlySet<string> = new Set(['GET', 'HEAD']);

/**
 * Whether a request that changes something comes from the console's own page. SameSite=Strict
 * already keeps the cookie off requests other sites start; this refuses them even so (an older
 * browser, a sibling subdomain counted as the same site): the browser writes Origin and
 * Sec-Fetch-Site itself, and a page of another origin cannot make it write ours.
 */
function fromConsolePage(request: FastifyRequest, origin: string): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') return false;
  return request.headers.origin === origin;
}

/**
 * The console's routes (access `console`, `console-sign-in`) take their session from the cookie
 * only: an API key or a person's link token is no session, and opens nothing here. Like
 * authenticate.ts, one hook per route, built when the route is declared; it is the one place that
 * holds the user's role to the permission the route declares.
 */
export function consoleAccess(app: FastifyInstance, options: { db: Db; clock: Clock; publicUrl: string }): void {
  app.decorateRequest('consoleUser', null);
  const origin = new URL(options.publicUrl).origin;
  const cookie = consoleCookie(options.publicUrl);
  app.addHook('onRoute', (route) => {
    const access = route.config?.access;
    if (access === undefined || !CONSOLE_ACCESS.has(access)) return;
    const existing = route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
    const permission = route.config?.permission;
    // Closed when unsure: a session's route that says no permission is not served at all.
    if ((access === 'console') !== (permission !== undefined))
      throw new Error(`${route.url}: a console session's route, and only one, says what permission it wants`);
    const check = sessionCheck({ ...options, origin, cookie, ...(permission === undefined ? {} : { permission }) });
    route.onRequest = [check, ...existing];
  });
}

/** `permission` undefined: the sign-in's routes, which want no session. */
function sessionCheck(options: { db: Db; clock: Clock; origin: string; cookie: ConsoleCookie; permission?: Permission }): onRequestHookHandler {
  const { permission } = options;
  const refusal = permission === undefined ? undefined : refusalOf(permission);
  return async (request, reply) => {
    // What the console answers is the organization's: no cache, shared or the browser's, keeps it.
    reply.header('cache-control', 'no-store');
    if (!READS.has(request.method) && !fromConsolePage(request, options.origin)) throw fail('CONSOLE_ORIGIN_REFUSED');
    if (permission === undefined) return;
    const token = sessionTokenOf(options.cookie, request.headers.cookie);
    const user = token === undefined ? undefined : await resolveSession(options.db, options.clock, token);
    if (!user) throw fail('CONSOLE_SIGN_IN_REQUIRED');
    if (refusal !== undefined && !may(user.role, permission)) {
      await recordAudit(options.db, options.clock, {
        organizationId: user.organizationId,
        userId: user.userId,
        email: user.email,
        action: refusal.action,
        detail: { route: `${request.method} ${request.routeOptions.url ?? ''}` },
        address: request.ip,
      });
      throw fail(refusal.code);
    }
    request.consoleUser = user;
    request.organizationId = user.organizationId;
  };
}
