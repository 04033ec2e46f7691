import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { UserRole } from '../../src/db/schema.js';
import { addUser } from '../../src/organizations/organizations.js';
import { PUBLIC_URL, type TestOrganization, type TestService } from './service.js';
import { outbox } from './signing.js';
import { runOutbox } from './whatsapp-service.js';

/** The console's own origin, which the test service's PUBLIC_URL names: its page's requests carry it. */
export const CONSOLE_ORIGIN = new URL(PUBLIC_URL).origin;

/** A request as the console's page makes it: same origin, with the session's cookie when there is one. */
export async function consoleCall(
  svc: TestService,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  options: { cookie?: string; body?: Record<string, unknown>; query?: Record<string, string>; headers?: Record<string, string>; remoteAddress?: string } = {},
): Promise<LightMyRequestResponse> {
  return svc.app.inject({
    method,
    url,
    headers: {
      ...(method === 'GET' ? {} : { origin: CONSOLE_ORIGIN, 'sec-fetch-site': 'same-origin' }),
      ...(options.cookie ? { cookie: options.cookie } : {}),
      ...options.headers,
    },
    ...(options.query ? { query: options.query } : {}),
    ...(options.body ? { payload: options.body } : {}),
    ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
  });
}

/** The newest sign-in e-mail sent to `email` for the organization, once the outbox ran the sign-in jobs asked for. */
export async function signInEmail(
  svc: TestService,
  org: TestOrganization,
  email: string,
): Promise<{ subject: string; text: string; token: string; code: string }> {
  await runOutbox(svc);
  const sent = (await outbox(svc, 'email')).filter((row) => row.body.to === email && row.organization_id === org.id && row.body.template === 'console-sign-in');
  const last = sent.at(-1);
  if (!last) throw new Error(`no sign-in e-mail to ${email}`);
  const text = String(last.body.text);
  const token = /#sign-in=([A-Za-z0-9_-]{43})/.exec(text)?.[1];
  const code = /\b(\d{6})\b/.exec(text)?.[1];
  if (!token || !code) throw new Error(`the sign-in e-mail holds no link or code: ${text}`);
  return { subject: String(last.body.subject), text, token, code };
}

/** The cookie pair (name=value) a sign-in answer sets. */
export function sessionCookieOf(res: LightMyRequestResponse): string {
  const header = res.headers['set-cookie'];
  const value = Array.isArray(header) ? header[0] : header;
  if (typeof value !== 'string') throw new Error(`no session cookie set: ${res.statusCode} ${res.body}`);
  return value.split(';')[0] ?? '';
}

/** A user of the organization (made if new) signed in with the e-mailed link: the session's cookie. */
export async function signedInUser(svc: TestService, org: TestOrganization, email: string, role: UserRole = 'admin', remoteAddress?: string): Promise<string> {
  await addUser(svc.deps.db, svc.clock, { organizationId: org.id, email, role }).catch((error: unknown) => {
    if (!(error instanceof Error && error.message === 'USER_ALREADY_EXISTS')) throw error;
  });
  const asked = await consoleCall(svc, 'POST', '/console/api/sign-in', { body: { email }, ...(remoteAddress ? { remoteAddress } : {}) });
  expect(asked.statusCode, asked.body).toBe(200);
  const { token } = await signInEmail(svc, org, email);
  const res = await consoleCall(svc, 'POST', '/console/api/sign-in/link', { body: { token }, ...(remoteAddress ? { remoteAddress } : {}) });
  expect(res.statusCode, res.body).toBe(200);
  return sessionCookieOf(res);
}
