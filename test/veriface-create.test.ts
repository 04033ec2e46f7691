import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listMailbox, mailboxDir } from '../src/messages/local-mailbox.js';
import { addUser, setSdkIntegration } from '../src/organizations/organizations.js';
import { verifaceBody } from './support/fixtures.js';
import { call, dialects, startTestService, type TestService } from './support/service.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

const DAY = 24 * 60 * 60 * 1000;

describe.each(dialects)('POST /veriface (%s)', (dialect) => {
  let svc: TestService;
  const receiver = new WebhookReceiver();
  const crm = new WebhookReceiver();
  const urls: Record<string, string> = {};

  beforeAll(async () => {
    urls.default = await receiver.start();
    urls.crm = await crm.start();
  });
  afterAll(async () => {
    await receiver.close();
    await crm.close();
  });

  beforeEach(async () => {
    svc = await startTestService(dialect, { WEBHOOK_ALLOW_PRIVATE: 'true' });
    for (const [name, hook] of [
      ['default', receiver],
      ['crm', crm],
    ] as const) {
      hook.received.length = 0;
      hook.now = () => svc.clock.now();
      hook.secret = (await call(svc.app, 'POST', '/webhooks', { key: svc.orgA.privateKey, body: { name, url: urls[name] } })).json().secret;
    }
  });
  afterEach(async () => svc.close());

  const valid = (overrides: Record<string, unknown> = {}) => verifaceBody('owner@acme.test', overrides);
  const create = (body: Record<string, unknown>, key = svc.orgA.privateKey) => call(svc.app, 'POST', '/veriface', { key, body });

  describe('the answer is {code}', () => {
    it('creates a process with a 16-character code', async () => {
      const res = await create(valid());
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ code: expect.stringMatching(/^[A-Z0-9]{16}$/) });
    });
  });

  describe('the seven required fields', () => {
    for (const field of ['email', 'platform', 'name', 'phone', 'country', 'type', 'identification']) {
      it(`400 "${field}" is required`, async () => {
        const body: Record<string, unknown> = valid();
        delete body[field];
        const res = await create(body);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ message: `"${field}" is required` });
      });
    }
  });

  describe('formats: platform, phone, country and type, expiredDate', () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['an unknown platform', { platform: 'sms' }, '"platform" must be one of [whatsapp, web]'],
      ['a phone without +', { phone: '573001234567' }, '"phone" must be a valid phone number in the format +[country code][number]'],
      ['a phone with spaces', { phone: '+57 300 123 4567' }, '"phone" must be a valid phone number in the format +[country code][number]'],
      ['a phone that is not a real number', { phone: '+5730012' }, '"phone" must be a valid phone number in the format +[country code][number]'],
      ['an unsupported country', { country: 'XX' }, '"country" must be a supported country code'],
      ['a document type of another country', { type: 'CURP' }, '"type" must be a document type supported for CO'],
      ['a malformed expiredDate', { expiredDate: '31/12/2030' }, '"expiredDate" must be in ISO 8601 date format'],
      ['a malformed userEmail', { userEmail: 'nope' }, '"userEmail" must be a valid email'],
    ];
    for (const [label, overrides, message] of cases) {
      it(`400 for ${label}`, async () => {
        const res = await create(valid(overrides));
        expect(res.statusCode).toBe(400);
        expect(res.json().message).toContain(message);
      });
    }

    it('a passport is accepted for any country', async () => {
      expect((await create(valid({ country: 'JP', type: 'PASSPORT', identification: 'TK1234567' }))).statusCode).toBe(200);
    });
  });

  describe('expiredDate must be later than 3 days after creation, or EXPIRED_DATE_INVALID', () => {
    it('exactly 3 days is refused; 3 days and a second is accepted', async () => {
      const now = svc.clock.now().getTime();
      const refused = await create(valid({ expiredDate: new Date(now + 3 * DAY).toISOString() }));
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({ message: 'EXPIRED_DATE_INVALID' });
      const past = await create(valid({ expiredDate: new Date(now - DAY).toISOString() }));
      expect(past.json()).toEqual({ message: 'EXPIRED_DATE_INVALID' });
      const accepted = await create(valid({ expiredDate: new Date(now + 3 * DAY + 1000).toISOString() }));
      expect(accepted.statusCode).toBe(200);
      const read = await call(svc.app, 'GET', `/veriface?code=${accepted.json().code}`, { key: svc.orgA.privateKey });
      expect(read.json().expiredDate).toBe(new Date(now + 3 * DAY + 1000).toISOString());
    });
  });

  describe('email must be a registered user of the caller organization', () => {
    it('400 USER_NOTFOUND for an unknown e-mail, or a user of another organization', async () => {
      expect((await create(valid({ email: 'nobody@acme.test' }))).json()).toEqual({ message: 'USER_NOTFOUND' });
      expect((await create(valid({ email: 'owner@globex.test' }))).json()).toEqual({ message: 'USER_NOTFOUND' });
      await addUser(svc.deps.db, svc.clock, { organizationId: svc.orgA.id, email: 'Clerk@Acme.test' });
      expect((await create(valid({ email: 'clerk@ACME.test' }))).statusCode).toBe(200);
    });
  });

  describe('401 with invalid or missing authentication', () => {
    it('missing, unknown or public key', async () => {
      expect((await call(svc.app, 'POST', '/veriface', { body: valid() })).statusCode).toBe(401);
      expect((await create(valid(), 'prk_00000000000000000000000000000000')).statusCode).toBe(401);
      expect((await create(valid(), svc.orgA.publicKey)).statusCode).toBe(401);
    });
  });

  describe('the person is notified with a personal link', () => {
    it('whatsapp: a WhatsApp message to the phone, through the outbox', async () => {
      await create(valid());
      await svc.deps.worker.deliverDue();
      const messages = await listMailbox(mailboxDir(svc.config.dataDir), { channel: 'whatsapp' });
      expect(messages).toHaveLength(1);
      expect(messages[0]).toMatchObject({ channel: 'whatsapp', to: '+573001234567' });
    });

    it('whatsapp with an approved template configured: the template, with the name and the link as its parameters', async () => {
      const templated = await startTestService(dialect, { WHATSAPP_VERIFACE_TEMPLATE: 'identity_check', WHATSAPP_TEMPLATE_LANGUAGE: 'es_CO' });
      try {
        await call(templated.app, 'POST', '/veriface', { key: templated.orgA.privateKey, body: valid() });
        const [row] = await templated.deps.db.selectFrom('outbox').select('payload').where('kind', '=', 'whatsapp').execute();
        const payload = JSON.parse(row!.payload);
        expect(payload).toEqual({
          to: '+573001234567',
          about: { purpose: 'invitation', verifaceId: expect.any(String) },
          template: { name: 'identity_check', language: 'es_CO', parameters: ['Juan Pérez', expect.stringMatching(/^http:\/\/service\.test\/v\//)] },
        });
      } finally {
        await templated.close();
      }
    });

    it('web: an e-mail to userEmail only when the organization has the SDK integration', async () => {
      const without = await create(valid({ platform: 'web', userEmail: 'juan@example.test' }));
      expect(without.json()).toEqual({ code: expect.any(String), url: expect.stringMatching(/^http:\/\/service\.test\/v\/[A-Za-z0-9_-]{32}$/) });
      await svc.deps.worker.deliverDue();
      expect(await listMailbox(mailboxDir(svc.config.dataDir), { channel: 'email' })).toHaveLength(0);

      await setSdkIntegration(svc.deps.db, { organizationId: svc.orgA.id, enabled: true });
      const withSdk = await create(valid({ platform: 'web', userEmail: 'juan@example.test' }));
      expect(withSdk.json()).toEqual({ code: expect.any(String) });
      await svc.deps.worker.deliverDue();
      const emails = await listMailbox(mailboxDir(svc.config.dataDir), { channel: 'email' });
      expect(emails).toHaveLength(1);
      expect(emails[0]).toMatchObject({ to: 'juan@example.test' });
    });
  });

  describe('each stage is stored with its time and sent as a webhook with custom and tags', () => {
    it('to default when targetWebhooks is absent', async () => {
      const { code } = (await create(valid({ custom: { reference: 'RF-1' }, tags: ['kyc'] }))).json();
      await svc.deps.worker.deliverDue();
      expect(crm.received).toHaveLength(0);
      // Deliveries go out side by side: receivers order them by their timestamp, not their arrival.
      expect(receiver.received.map((r) => r.body.type).sort()).toEqual(['veriface.created', 'veriface.notified']);
      for (const hook of receiver.received) {
        expect(hook.verified).toBe(true);
        expect(hook.body.data).toMatchObject({ code, type: 'veriface', status: 'INPROGRESS', custom: { reference: 'RF-1' }, tags: ['kyc'] });
      }
      const read = (await call(svc.app, 'GET', `/veriface?code=${code}`, { key: svc.orgA.privateKey })).json();
      expect(read.stages.map((s: { stage: string }) => s.stage)).toEqual(['created', 'notified']);
      expect(read.stages[1]).toMatchObject({ detail: { channel: 'whatsapp' }, at: expect.stringMatching(/Z$/) });
    });

    it('only to the named ones when targetWebhooks is present; unknown names are refused', async () => {
      await create(valid({ targetWebhooks: ['crm'] }));
      await svc.deps.worker.deliverDue();
      expect(receiver.received).toHaveLength(0);
      expect(crm.received.map((r) => r.body.type).sort()).toEqual(['veriface.created', 'veriface.notified']);
      expect(crm.received[0]!.body.data).not.toHaveProperty('custom');
      const unknown = await create(valid({ targetWebhooks: ['crm', 'erp'] }));
      expect(unknown.json()).toEqual({ message: 'WEBHOOK_NOT_FOUND: erp' });
    });
  });

  describe('the supported countries and document types are published through the API', () => {
    it('GET /veriface/documents lists Colombia with CC, CE, TI, PPT and PA, and the passport for any country', async () => {
      const res = await call(svc.app, 'GET', '/veriface/documents?country=CO', { key: svc.orgA.privateKey });
      expect(res.statusCode).toBe(200);
      const [colombia] = res.json().data;
      expect(colombia.documents.map((d: { type: string }) => d.type)).toEqual(expect.arrayContaining(['CC', 'CE', 'TI', 'PPT', 'PA']));
      expect(res.json().passport).toEqual({ type: 'PASSPORT', countries: 'any' });
    });
  });

  describe('GET /veriface?code= reads a process of the organization only', () => {
    it('answers the fields and 400 VERIFACE_NOT_FOUND for another organization', async () => {
      const { code } = (await create(valid({ userEmail: 'Juan@Example.test' }))).json();
      const read = await call(svc.app, 'GET', `/veriface?code=${code}`, { key: svc.orgA.privateKey });
      expect(read.json()).toMatchObject({
        code,
        email: 'owner@acme.test',
        platform: 'whatsapp',
        status: 'INPROGRESS',
        name: 'Juan Pérez',
        userEmail: 'juan@example.test',
        phone: '+573001234567',
        country: 'CO',
        identificationType: 'CC',
        identificationNumber: '1001001010',
      });
      const foreign = await call(svc.app, 'GET', `/veriface?code=${code}`, { key: svc.orgB.privateKey });
      expect(foreign.json()).toEqual({ message: 'VERIFACE_NOT_FOUND' });
      const malformed = await call(svc.app, 'GET', '/veriface?code=abc', { key: svc.orgA.privateKey });
      expect(malformed.json()).toEqual({ message: '"code" length must be 16 characters long' });
    });
  });
});
