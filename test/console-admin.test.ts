import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_CACHE_TTL_MS } from '../src/auth/key-resolver.js';
import { MAX_ATTEMPTS, RETRY_DELAYS_MS } from '../src/outbox/retry-schedule.js';
import { emitEvent } from '../src/webhooks/emit-event.js';
import { consoleCall, signedInUser } from './support/console.js';
import { sampleTemplate } from './support/fixtures.js';
import { call, dialects, localPath, startTestService, type TestOrganization, type TestService } from './support/service.js';
import { templateWithHtml } from './support/signing.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

const MASK =
  '<html><head><style>p { color: #333 }</style></head><body><p style="font-weight: bold">Sold to <span name="buyer_name">the buyer</span></p></body></html>';

describe.each(dialects)('the console: templates, reference links, webhooks, keys and settings (%s)', (dialect) => {
  let svc: TestService;
  let address = 0;
  /** Each sign-in from an address of its own, so that the per-address sign-in limits never count here. */
  const nextAddress = () => `198.51.100.${++address}`;
  const session = (org: TestOrganization, email: string, role: 'admin' | 'sender') => signedInUser(svc, org, email, role, nextAddress());
  /** The console's audit entries of the organization, as "ACTION email". */
  const audit = async (org: TestOrganization) =>
    (await svc.deps.db.selectFrom('console_audit').select(['action', 'email']).where('organization_id', '=', org.id).execute()).map(
      (row) => `${row.action} ${row.email}`,
    );

  let adminA: string;
  let senderA: string;
  let adminB: string;
  let senderB: string;
  /** Sessions of both organizations' admins and senders; again after the clock moved past their idle end. */
  const signInAll = async () => {
    adminA = await session(svc.orgA, svc.orgA.email, 'admin');
    senderA = await session(svc.orgA, 'sender@acme.test', 'sender');
    adminB = await session(svc.orgB, svc.orgB.email, 'admin');
    senderB = await session(svc.orgB, 'sender@globex.test', 'sender');
  };

  beforeAll(async () => {
    svc = await startTestService(dialect, { WEBHOOK_ALLOW_PRIVATE: 'true' });
    await signInAll();
  });
  afterAll(async () => svc.close());

  describe('templates: senders create and update them through the same domain functions and upload URLs as the API', () => {
    it('a sender creates a template, uploads its Mask and Complete to the answered URLs and previews the questionnaire; B sees nothing of it', async () => {
      const created = await consoleCall(svc, 'POST', '/console/api/template', { cookie: senderA, body: sampleTemplate({ name: 'Console lease' }) });
      expect(created.statusCode, created.body).toBe(200);
      const { id, urls } = created.json();
      for (const url of [urls.mask, urls.complete]) {
        const up = await svc.app.inject({ method: 'PUT', url: localPath(url), headers: { 'content-type': 'text/html' }, payload: MASK });
        expect(up.statusCode).toBe(200);
      }
      const listed = (await consoleCall(svc, 'GET', '/console/api/templates', { cookie: senderA })).json().data.map((t: { id: string }) => t.id);
      expect(listed).toContain(id);
      const detail = (await consoleCall(svc, 'GET', '/console/api/template', { cookie: senderA, query: { id } })).json();
      expect(detail.config.map((q: { name: string }) => q.name)).toContain('buyer_name');
      // The preview carries no style in its markup: the page's policy forbids them; the page applies them through the CSSOM.
      const preview = (await consoleCall(svc, 'GET', '/console/api/template/preview', { cookie: senderA, query: { id } })).json();
      expect(preview).toEqual({ html: expect.stringContaining('data-preview-style="0"'), sheets: ['p { color: #333 }'], inline: ['font-weight: bold'] });
      expect(preview.html).not.toMatch(/\sstyle=/);

      const renamed = await consoleCall(svc, 'POST', '/console/api/template/update', { cookie: senderA, body: { id, name: 'Console lease 2' } });
      expect(renamed.json()).toMatchObject({ id, urls: { mask: expect.any(String), complete: expect.any(String) } });
      expect((await call(svc.app, 'GET', '/template', { key: svc.orgA.privateKey, query: { id } })).json().name).toBe('Console lease 2');

      for (const path of ['/console/api/template', '/console/api/template/preview']) {
        const theirs = await consoleCall(svc, 'GET', path, { cookie: adminB, query: { id } });
        const unknown = await consoleCall(svc, 'GET', path, { cookie: adminB, query: { id: '0123456789abcdef01234567' } });
        expect([theirs.statusCode, theirs.json()]).toEqual([404, { message: 'TEMPLATE_NOT_FOUND' }]);
        expect(theirs.body).toBe(unknown.body);
      }
      expect(JSON.stringify((await consoleCall(svc, 'GET', '/console/api/templates', { cookie: adminB })).json())).not.toContain(id);
      const foreign = await consoleCall(svc, 'POST', '/console/api/template/update', { cookie: adminB, body: { id, name: 'Taken' } });
      expect([foreign.statusCode, foreign.json()]).toEqual([400, { message: 'TEMPLATE_NOT_FOUND' }]);
      expect(await audit(svc.orgA)).toEqual(expect.arrayContaining(['TEMPLATE_CREATED sender@acme.test', 'TEMPLATE_UPDATED sender@acme.test']));
    });

    it('a template definition the API refuses is refused here with the same message', async () => {
      const res = await consoleCall(svc, 'POST', '/console/api/template', { cookie: senderA, body: { name: 'No questions' } });
      expect([res.statusCode, res.json()]).toEqual([400, { message: '"config" is required' }]);
    });
  });

  describe('reference links: published with a copyable address and a QR code, switched off and on', () => {
    it('a sender publishes a link (created by them), reads its QR code and switches it off; B can neither list, read nor switch it', async () => {
      const template = await templateWithHtml(svc, svc.orgA);
      const res = await consoleCall(svc, 'POST', '/console/api/reference', { cookie: senderA, body: { template, name: 'Website' } });
      expect(res.statusCode, res.body).toBe(200);
      const link = res.json();
      expect(link).toMatchObject({
        template,
        name: 'Website',
        enabled: true,
        email: 'sender@acme.test',
        url: expect.stringMatching(/\/r\/[A-Za-z0-9_-]{32}$/),
      });
      const qr = (await consoleCall(svc, 'GET', '/console/api/reference/qr', { cookie: senderA, query: { id: link.id } })).json();
      expect(qr.svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
      expect(qr.svg).not.toContain('style');

      const off = await consoleCall(svc, 'POST', '/console/api/reference/update', { cookie: senderA, body: { id: link.id, enabled: false } });
      expect(off.json()).toMatchObject({ id: link.id, enabled: false });
      const listed = (await consoleCall(svc, 'GET', '/console/api/references', { cookie: senderA, query: { template } })).json().data;
      expect(listed.map((l: { id: string; enabled: boolean }) => [l.id, l.enabled])).toEqual([[link.id, false]]);

      expect((await consoleCall(svc, 'GET', '/console/api/references', { cookie: adminB, query: { template } })).json()).toEqual({
        message: 'TEMPLATE_NOT_FOUND',
      });
      expect((await consoleCall(svc, 'GET', '/console/api/reference/qr', { cookie: adminB, query: { id: link.id } })).json()).toEqual({
        message: 'REFERENCE_NOT_FOUND',
      });
      const theirs = await consoleCall(svc, 'POST', '/console/api/reference/update', { cookie: senderB, body: { id: link.id, enabled: true } });
      expect(theirs.json()).toEqual({ message: 'REFERENCE_NOT_FOUND' });
      const stillOff = (await call(svc.app, 'GET', '/template/reference', { key: svc.orgA.privateKey, query: { template } })).json().data[0];
      expect(stillOff.enabled).toBe(false);
      expect(await audit(svc.orgA)).toEqual(expect.arrayContaining(['REFERENCE_CREATED sender@acme.test', 'REFERENCE_UPDATED sender@acme.test']));
    });
  });

  describe('webhooks: the deliveries with their attempts, and a resend of a failed one, for admins only', () => {
    it('an admin sees a failed delivery with every attempt and resends it: the receiver gets it with the same webhook-id', async () => {
      const receiver = new WebhookReceiver();
      const url = await receiver.start();
      try {
        receiver.now = () => svc.clock.now();
        receiver.secret = (await call(svc.app, 'POST', '/webhooks', { key: svc.orgA.privateKey, body: { name: 'crm', url } })).json().secret;
        receiver.respond = () => ({ status: 500 });
        await emitEvent(svc.deps.db, svc.clock, {
          organizationId: svc.orgA.id,
          type: 'document.created',
          data: { code: 'TR99AQMY31', status: 'CREATE' },
          targetWebhooks: ['crm'],
        });
        for (let i = 0; i < MAX_ATTEMPTS; i++) {
          await svc.deps.worker.deliverDue();
          svc.clock.advance((RETRY_DELAYS_MS[i] ?? 0) * 1.2 + 1);
        }
        // Hours went by while the retries ran out: the sessions ended idle.
        await signInAll();
        const webhooks = (await consoleCall(svc, 'GET', '/console/api/webhooks', { cookie: adminA })).json().data;
        expect(webhooks.map((w: { name: string }) => w.name)).toContain('crm');
        expect(JSON.stringify(webhooks)).not.toContain(receiver.secret);
        const failed = (
          await consoleCall(svc, 'GET', '/console/api/webhook-deliveries', { cookie: adminA, query: { webhook: 'crm', status: 'failed' } })
        ).json().data[0];
        expect(failed.attempts).toHaveLength(MAX_ATTEMPTS);

        // B's admin can neither read nor resend it: its id answers as an unknown one.
        for (const res of [
          await consoleCall(svc, 'GET', '/console/api/webhook-deliveries', { cookie: adminB, query: { id: failed.id } }),
          await consoleCall(svc, 'POST', '/console/api/webhook-deliveries/resend', { cookie: adminB, body: { id: failed.id } }),
        ]) {
          expect([res.statusCode, res.json()]).toEqual([400, { message: 'DELIVERY_NOT_FOUND' }]);
        }
        const listedByB = (await consoleCall(svc, 'GET', '/console/api/webhook-deliveries', { cookie: adminB })).json();
        expect(JSON.stringify(listedByB)).not.toContain(failed.id);

        receiver.respond = () => ({ status: 200 });
        const resent = await consoleCall(svc, 'POST', '/console/api/webhook-deliveries/resend', { cookie: adminA, body: { id: failed.id } });
        expect(resent.json()).toEqual({ id: failed.id, status: 'pending' });
        expect(await svc.deps.worker.deliverDue()).toBe(1);
        const after = (await consoleCall(svc, 'GET', '/console/api/webhook-deliveries', { cookie: adminA, query: { id: failed.id } })).json().data[0];
        expect(after.status).toBe('delivered');
        expect(new Set(receiver.received.map((hook) => hook.id))).toEqual(new Set([failed.message_id]));
        expect(receiver.received.at(-1)?.verified).toBe(true);
        expect(await audit(svc.orgA)).toContain(`DELIVERY_RESENT ${svc.orgA.email}`);
      } finally {
        await receiver.close();
      }
    });
  });

  describe('senders cannot see or call keys, webhooks or settings: 403 CONSOLE_ADMIN_REQUIRED, recorded', () => {
    it('every admin route refuses a sender, and the refusals are in the audit log', async () => {
      const calls: ['GET' | 'POST', string, Record<string, unknown>?][] = [
        ['GET', '/console/api/keys'],
        ['POST', '/console/api/keys', { kind: 'private' }],
        ['GET', '/console/api/webhooks'],
        ['GET', '/console/api/webhook-deliveries'],
        ['GET', '/console/api/settings'],
        ['POST', '/console/api/settings', { language: 'en' }],
      ];
      const keysBefore = await svc.deps.db.selectFrom('api_keys').select('id').where('organization_id', '=', svc.orgA.id).execute();
      for (const [method, url, body] of calls) {
        const res = await consoleCall(svc, method, url, { cookie: senderA, ...(body ? { body } : {}) });
        expect([res.statusCode, res.json()], url).toEqual([403, { message: 'CONSOLE_ADMIN_REQUIRED' }]);
      }
      expect(await svc.deps.db.selectFrom('api_keys').select('id').where('organization_id', '=', svc.orgA.id).execute()).toHaveLength(keysBefore.length);
      expect((await call(svc.app, 'GET', '/organization', { key: svc.orgA.privateKey })).json().language).toBe('es');
      expect((await audit(svc.orgA)).filter((entry) => entry === 'ADMIN_REQUIRED sender@acme.test').length).toBeGreaterThanOrEqual(calls.length);
    });
  });

  describe('API keys: created and shown once, listed by hint only, revoked; the organization’s own only', () => {
    it('a new key works at once, is listed without the key, and stops working once revoked; B cannot revoke it', async () => {
      const created = await consoleCall(svc, 'POST', '/console/api/keys', { cookie: adminA, body: { kind: 'private' } });
      const { id, key } = created.json();
      expect(key).toMatch(/^prk_[0-9a-f]{32}$/);
      expect((await call(svc.app, 'GET', '/template', { key })).statusCode).toBe(200);
      const listed = await consoleCall(svc, 'GET', '/console/api/keys', { cookie: adminA });
      expect(listed.body).not.toContain(key);
      expect(listed.json().data).toContainEqual({ id, kind: 'private', hint: `prk_…${key.slice(-4)}`, created_at: expect.any(String) });
      expect(JSON.stringify((await consoleCall(svc, 'GET', '/console/api/keys', { cookie: adminB })).json())).not.toContain(id);

      const theirs = await consoleCall(svc, 'POST', '/console/api/keys/revoke', { cookie: adminB, body: { id } });
      expect([theirs.statusCode, theirs.json()]).toEqual([400, { message: 'API_KEY_NOT_FOUND' }]);
      expect((await call(svc.app, 'GET', '/template', { key })).statusCode).toBe(200);

      expect((await consoleCall(svc, 'POST', '/console/api/keys/revoke', { cookie: adminA, body: { id } })).json()).toEqual({ id, revoked: true });
      const again = await consoleCall(svc, 'POST', '/console/api/keys/revoke', { cookie: adminA, body: { id } });
      expect(again.json()).toEqual({ message: 'API_KEY_NOT_FOUND' });
      const revoked = (await consoleCall(svc, 'GET', '/console/api/keys', { cookie: adminA })).json().data.find((k: { id: string }) => k.id === id);
      expect(revoked.revoked_at).toEqual(expect.any(String));
      // A revocation is in force everywhere within a second (the authenticated keys' memory, src/auth/authenticate.ts).
      svc.clock.advance(KEY_CACHE_TTL_MS);
      expect((await call(svc.app, 'GET', '/template', { key })).statusCode).toBe(401);
      expect(await audit(svc.orgA)).toEqual(expect.arrayContaining([`KEY_CREATED ${svc.orgA.email}`, `KEY_REVOKED ${svc.orgA.email}`]));
    });
  });

  describe("settings: SDK origins, language, time zone and photo retention, through PUT /organization's own function", () => {
    it("an admin changes A's settings; B's stay as they were", async () => {
      const before = (await call(svc.app, 'GET', '/organization', { key: svc.orgB.privateKey })).json();
      const changes = { sdkOrigins: ['https://app.acme.test'], language: 'pt', timeZone: 'America/Sao_Paulo', photoRetentionDays: 30 };
      const res = await consoleCall(svc, 'POST', '/console/api/settings', { cookie: adminA, body: changes });
      expect(res.json()).toMatchObject(changes);
      expect((await consoleCall(svc, 'GET', '/console/api/settings', { cookie: adminA })).json()).toMatchObject(changes);
      expect((await call(svc.app, 'GET', '/organization', { key: svc.orgA.privateKey })).json()).toMatchObject(changes);
      expect((await call(svc.app, 'GET', '/organization', { key: svc.orgB.privateKey })).json()).toEqual(before);
      const bad = await consoleCall(svc, 'POST', '/console/api/settings', { cookie: adminA, body: { timeZone: 'Mars/Olympus' } });
      expect([bad.statusCode, bad.json()]).toEqual([400, { message: '"timeZone" must be an IANA time zone such as America/Bogota' }]);
      expect(await audit(svc.orgA)).toContain(`SETTINGS_CHANGED ${svc.orgA.email}`);
      await consoleCall(svc, 'POST', '/console/api/settings', { cookie: adminA, body: { language: 'es', sdkOrigins: [] } });
    });
  });

  describe('a forged cross-site request changes nothing', () => {
    it('creating a key, changing settings, resending, publishing or switching a link from another site is refused before anything is read', async () => {
      const template = await templateWithHtml(svc, svc.orgA);
      const link = (await consoleCall(svc, 'POST', '/console/api/reference', { cookie: adminA, body: { template } })).json();
      const keys = async () => (await svc.deps.db.selectFrom('api_keys').select('id').where('organization_id', '=', svc.orgA.id).execute()).length;
      const keysBefore = await keys();
      const forged: [string, Record<string, unknown>][] = [
        ['/console/api/keys', { kind: 'private' }],
        ['/console/api/settings', { language: 'fr' }],
        ['/console/api/reference/update', { id: link.id, enabled: false }],
        ['/console/api/reference', { template }],
        ['/console/api/template', sampleTemplate()],
      ];
      for (const [url, payload] of forged) {
        for (const headers of [{ origin: 'https://attacker.example' }, { origin: 'null' }, { 'sec-fetch-site': 'cross-site' }]) {
          const res = await svc.app.inject({ method: 'POST', url, headers: { cookie: adminA, ...headers }, payload });
          expect([res.statusCode, res.json()], url).toEqual([403, { message: 'CONSOLE_ORIGIN_REFUSED' }]);
        }
      }
      expect(await keys()).toBe(keysBefore);
      expect((await call(svc.app, 'GET', '/organization', { key: svc.orgA.privateKey })).json().language).toBe('es');
      const links = (await call(svc.app, 'GET', '/template/reference', { key: svc.orgA.privateKey, query: { template } })).json().data;
      expect(links.map((l: { enabled: boolean }) => l.enabled)).toEqual([true]);
    });
  });
});
