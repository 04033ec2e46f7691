import { expect } from 'vitest';
import { updateSettings } from '../../src/organizations/settings.js';
import { startTestService, type TestDialect, type TestOrganization, type TestService } from './service.js';
import { outbox, templateWithHtml } from './signing.js';

/** Each request from an address of its own: the per-address limits are not what the forms' tests are about. */
export function addressesIn(prefix: string): () => string {
  let address = 0;
  return () => `${prefix}.${Math.floor(++address / 250)}.${address % 250}`;
}

/** A service whose two organizations let the SDK embed their forms from `origin`. */
export async function startFormsService(dialect: TestDialect, origin: string): Promise<TestService> {
  const svc = await startTestService(dialect);
  for (const org of [svc.orgA, svc.orgB]) await updateSettings(svc.deps.db, { organizationId: org.id, changes: { sdkOrigins: [origin] } });
  return svc;
}

/** The token of the form the SDK's fill flow opens on a new template of the organization. */
export async function sdkFormToken(svc: TestService, org: TestOrganization, options: { origin: string; remoteAddress: string }): Promise<string> {
  const document = await templateWithHtml(svc, org);
  const res = await svc.app.inject({
    method: 'POST',
    url: '/people/embed',
    payload: { keyPublic: org.publicKey, parentOrigin: options.origin, document },
    remoteAddress: options.remoteAddress,
  });
  expect(res.json()).toMatchObject({ flow: 'fill' });
  return res.json().token;
}

/** The last code e-mailed to `to`: what the person who filled a form types back. */
export async function lastCode(svc: TestService, to: string): Promise<string> {
  const sent = (await outbox(svc, 'email')).filter((row) => row.body.to === to && row.body.template === 'otp-code').at(-1);
  return /\b(\d{6})\b/.exec(String(sent?.body.text))?.[1] ?? '';
}
