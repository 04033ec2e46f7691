import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Clock } from '../clock.js';
import { recordAudit } from '../console/audit.js';
import { type ConsoleCookie, consoleCookie, sessionTokenOf } from '../console/cookie.js';
import { type ConsoleUser, resolveSession } from '../console/sessions.js';
import type { Db } from '../db/schema.js';
import { fail } from '../domain-error.js';
import { type Access, CONSOLE_ACCESS } from '../http/route-kinds.js';
import { mayViewIdentity } from '../organizations/user-roles.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** On the console's routes: the user of the request's session. */
    consoleUser: ConsoleUser | null;
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
 * The console's routes (access `console`, `console-admin`, `console-identity`, `console-sign-in`) take their session
 * from the cookie only: an API key or a person's link token is no session, and opens nothing here.
 * Like authenticate.ts, one hook per route, built when the route is declared.
 */
export function consoleAccess(app: FastifyInstance, options: { db: Db; clock: Clock; publicUrl: string }): void {
  app.decorateRequest('consoleUser', null);
  const origin = new URL(options.publicUrl).origin;
  const cookie = consoleCookie(options.publicUrl);
  app.addHook('onRoute', (route) => {
    const access = route.config?.access;
    if (access === undefined || !CONSOLE_ACCESS.has(access)) return;
    const existing = route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
    const check = sessionCheck({ ...options, origin, cookie, access });
    route.onRequest = [check, ...existing];
  });
}

/** What a role the route does not admit is answered, and recorded as, for the console's session kinds that want one. */
const ROLE_REFUSALS = {
  'console-admin': { admits: (user: ConsoleUser) => user.role === 'admin', action: 'ADMIN_REQUIRED', code: 'CONSOLE_ADMIN_REQUIRED' },
  'console-identity': { admits: (user: ConsoleUser) => mayViewIdentity(user.role), action: 'REVIEWER_REQUIRED', code: 'CONSOLE_REVIEWER_REQUIRED' },
} as const;

function sessionCheck(options: { db: Db; clock: Clock; origin: string; cookie: ConsoleCookie; access: Access }): onRequestHookHandler {
  const { access } = options;
  const refusal = access === 'console-admin' || access === 'console-identity' ? ROLE_REFUSALS[access] : undefined;
  return async (request, reply) => {
    // What the console answers is the organization's: no cache, shared or the browser's, keeps it.
    reply.header('cache-control', 'no-store');
    if (!READS.has(request.method) && !fromConsolePage(request, options.origin)) throw fail('CONSOLE_ORIGIN_REFUSED');
    if (access === 'console-sign-in') return;
    const token = sessionTokenOf(options.cookie, request.headers.cookie);
    const user = token === undefined ? undefined : await resolveSession(options.db, options.clock, token);
    if (!user) throw fail('CONSOLE_SIGN_IN_REQUIRED');
    if (refusal !== undefined && !refusal.admits(user)) {
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
