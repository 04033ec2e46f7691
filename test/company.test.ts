import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifaceBody } from './support/fixtures.js';
import { call, dialects, startTestService, type TestOrganization, type TestService } from './support/service.js';
import { createProcess, pdfProcess, stored } from './support/signing.js';

/** REFERENCE §10: GET /company (public key) and PUT /company (private key), written from its examples. */
describe.each(dialects)('GET and PUT /company (%s)', (dialect) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService(dialect);
  });
  afterAll(async () => svc.close());

  const get = (org: TestOrganization, key = org.privateKey) => call(svc.app, 'GET', '/company', { key });
  const put = (org: TestOrganization, body: Record<string, unknown>) => call(svc.app, 'PUT', '/company', { key: org.privateKey, body });
  const hook = (id: string, extra: Record<string, unknown> = {}) => ({ id, url: `https://hooks.example.test/${id}`, ...extra });
  const secretOf = async (org: TestOrganization, name: string) =>
    (
      await svc.deps.db
        .selectFrom('webhooks')
        .select(['secret', 'header_value'])
        .where('organization_id', '=', org.id)
        .where('name', '=', name)
        .executeTakeFirstOrThrow()
    ).secret;

  describe('GET /company answers id, name, webhooks, uxOptions, image and the legacy webhook and webhookHeader', () => {
    it("a new organization: its id and name, no webhooks, the pages' own colours, no logo", async () => {
      const res = await get(svc.orgB);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        id: svc.orgB.id,
        name: 'Globex',
        webhooks: [],
        uxOptions: { primaryColor: '#0b4f8a', alternateColor: '#ffffff' },
        image: '',
        webhook: '',
        webhookHeader: {},
      });
    });

    it('after a PUT with the REFERENCE example: every field as sent, the header value masked', async () => {
      const body = {
        name: 'Auco',
        webhooks: [
          {
            id: 'default',
            description: 'Webhook principal',
            url: 'https://hooks.example.test/auco',
            header: { key: 'Authorization', value: 'Bearer s3cr3t-header' },
          },
        ],
        uxOptions: { primaryColor: '#021C30', alternateColor: '#A557F2' },
        image: 'https://static.example.test/companies/logo.png',
      };
      expect((await put(svc.orgA, body)).json()).toEqual({ response: 'OK' });
      const res = await get(svc.orgA);
      expect(res.json()).toEqual({
        id: svc.orgA.id,
        name: 'Auco',
        webhooks: [
          {
            id: 'default',
            description: 'Webhook principal',
            url: 'https://hooks.example.test/auco',
            header: { key: 'Authorization', value: '********' },
            format: 'flat',
          },
        ],
        uxOptions: { primaryColor: '#021C30', alternateColor: '#A557F2' },
        image: 'https://static.example.test/companies/logo.png',
        webhook: 'https://hooks.example.test/auco',
        webhookHeader: { key: 'Authorization', value: '********' },
      });
      expect(res.body).not.toContain('s3cr3t-header');
      expect((await call(svc.app, 'GET', '/webhooks', { key: svc.orgA.privateKey })).body).not.toContain('s3cr3t-header');
    });
  });

  describe('PUT /company: every field is optional, only those sent change, and it answers {response: "OK"}', () => {
    it('a name alone changes the name; an empty body changes nothing; image "" removes the logo', async () => {
      await put(svc.orgA, { name: 'Acme', image: 'https://static.example.test/a.png' });
      const before = (await get(svc.orgA)).json();
      expect((await put(svc.orgA, { name: 'Acme SAS' })).json()).toEqual({ response: 'OK' });
      expect((await get(svc.orgA)).json()).toEqual({ ...before, name: 'Acme SAS' });
      expect((await put(svc.orgA, {})).json()).toEqual({ response: 'OK' });
      expect((await get(svc.orgA)).json()).toEqual({ ...before, name: 'Acme SAS' });
      await put(svc.orgA, { image: '' });
      expect((await get(svc.orgA)).json().image).toBe('');
    });

    it('uxOptions are merged key by key: sending only primaryColor keeps alternateColor', async () => {
      await put(svc.orgA, { uxOptions: { primaryColor: '#021C30', alternateColor: '#A557F2' } });
      await put(svc.orgA, { uxOptions: { primaryColor: '#123' } });
      expect((await get(svc.orgA)).json().uxOptions).toEqual({ primaryColor: '#123', alternateColor: '#A557F2' });
      await put(svc.orgA, { uxOptions: { alternateColor: '#fff' } });
      expect((await get(svc.orgA)).json().uxOptions).toEqual({ primaryColor: '#123', alternateColor: '#fff' });
    });
  });

  describe('webhooks replace the whole list, which must include id "default"', () => {
    it('a list of two, then of one: the one left out is gone, from /webhooks too', async () => {
      await put(svc.orgA, { webhooks: [hook('default'), hook('crm', { description: 'CRM' })] });
      expect((await get(svc.orgA)).json().webhooks.map((w: { id: string }) => w.id)).toEqual(['crm', 'default']);
      await put(svc.orgA, { webhooks: [hook('default')] });
      expect((await get(svc.orgA)).json().webhooks.map((w: { id: string }) => w.id)).toEqual(['default']);
      expect((await call(svc.app, 'GET', '/webhooks', { key: svc.orgA.privateKey })).json().data.map((w: { name: string }) => w.name)).toEqual(['default']);
    });

    it('without default, or empty, it is 400 "Falta el webhook default" and nothing changes', async () => {
      await put(svc.orgA, { webhooks: [hook('default')] });
      for (const webhooks of [[hook('crm')], []]) {
        const res = await put(svc.orgA, { name: 'Changed', webhooks });
        expect([res.statusCode, res.json()]).toEqual([400, { message: 'Falta el webhook default' }]);
      }
      const company = (await get(svc.orgA)).json();
      expect(company.webhooks.map((w: { id: string }) => w.id)).toEqual(['default']);
      expect(company.name).not.toBe('Changed');
    });

    it('one list with /webhooks: a webhook that stays keeps its secret, state and format; a new one is flat', async () => {
      await put(svc.orgA, { webhooks: [hook('default')] });
      const typed = await call(svc.app, 'POST', '/webhooks', { key: svc.orgA.privateKey, body: { name: 'erp', url: 'https://hooks.example.test/erp' } });
      expect(typed.json()).toMatchObject({ name: 'erp', format: 'typed', enabled: true });
      await call(svc.app, 'PUT', '/webhooks', { key: svc.orgA.privateKey, body: { name: 'erp', enabled: false } });
      const secret = await secretOf(svc.orgA, 'erp');
      await put(svc.orgA, { webhooks: [hook('default'), hook('erp', { url: 'https://hooks.example.test/erp2' }), hook('new')] });
      const listed = (await call(svc.app, 'GET', '/webhooks', { key: svc.orgA.privateKey })).json().data;
      expect(listed.map((w: { name: string; format: string; enabled: boolean; url: string }) => [w.name, w.format, w.enabled, w.url])).toEqual([
        ['default', 'flat', true, 'https://hooks.example.test/default'],
        ['erp', 'typed', false, 'https://hooks.example.test/erp2'],
        ['new', 'flat', true, 'https://hooks.example.test/new'],
      ]);
      expect(await secretOf(svc.orgA, 'erp')).toBe(secret);
      await put(svc.orgA, { webhooks: [hook('default', { format: 'typed' })] });
      expect((await get(svc.orgA)).json().webhooks).toEqual([{ id: 'default', url: 'https://hooks.example.test/default', format: 'typed' }]);
    });

    it('the masked value GET shows, sent back, keeps the stored value; under another key it is refused', async () => {
      const header = { key: 'Authorization', value: 'Bearer kept-value' };
      await put(svc.orgA, { webhooks: [hook('default', { header })] });
      const shown = (await get(svc.orgA)).json();
      expect((await put(svc.orgA, { webhooks: shown.webhooks })).json()).toEqual({ response: 'OK' });
      const row = await svc.deps.db
        .selectFrom('webhooks')
        .select(['header_key', 'header_value'])
        .where('organization_id', '=', svc.orgA.id)
        .where('name', '=', 'default')
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ header_key: 'Authorization', header_value: 'Bearer kept-value' });
      const res = await put(svc.orgA, { webhooks: [hook('default', { header: { key: 'X-Token', value: '********' } })] });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/^"webhooks\[0\]\.header\.value" is the mask/);
    });
  });

  describe('refusals, in Joi words', () => {
    const refused: [string, Record<string, unknown>, RegExp][] = [
      ['a colour that is not hex', { uxOptions: { primaryColor: 'red' } }, /^"uxOptions\.primaryColor" must be a hex colour/],
      ['a hex of 4 digits', { uxOptions: { alternateColor: '#1234' } }, /^"uxOptions\.alternateColor" must be a hex colour/],
      ['a white primary colour, short', { uxOptions: { primaryColor: '#fff' } }, /^"uxOptions\.primaryColor" cannot be white$/],
      ['a white primary colour, long', { uxOptions: { primaryColor: '#FFFFFF' } }, /^"uxOptions\.primaryColor" cannot be white$/],
      ['an unknown uxOptions key', { uxOptions: { redirectUrl: 'https://example.test' } }, /^"uxOptions\.redirectUrl" is not allowed$/],
      ['a logo that is not https', { image: 'http://static.example.test/logo.png' }, /^"image" must be a valid uri with a scheme matching the https pattern$/],
      ['a webhook without url', { webhooks: [{ id: 'default' }] }, /^"webhooks\[0\]\.url" is required$/],
      ['two webhooks of one id', { webhooks: [hook('default'), hook('default')] }, /^"webhooks\[1\]" contains a duplicate value$/],
      ['a header without value', { webhooks: [hook('default', { header: { key: 'X-Token' } })] }, /^"webhooks\[0\]\.header\.value" is required$/],
      [
        'a header naming content-type',
        { webhooks: [hook('default', { header: { key: 'Content-Type', value: 'text/plain' } })] },
        /^"webhooks\[0\]\.header\.key" must not be one of the headers the service sets/,
      ],
      [
        'a header naming the signature',
        { webhooks: [hook('default', { header: { key: 'webhook-signature', value: 'v1,forged' } })] },
        /^"webhooks\[0\]\.header\.key" must not be one of the headers the service sets/,
      ],
      [
        'a header naming host',
        { webhooks: [hook('default', { header: { key: 'Host', value: 'internal.example' } })] },
        /^"webhooks\[0\]\.header\.key" must not be one of the headers the service sets/,
      ],
      [
        'a header value on two lines',
        { webhooks: [hook('default', { header: { key: 'X-Token', value: 'a\r\nX-Injected: 1' } })] },
        /^"webhooks\[0\]\.header\.value" must be visible characters and spaces, on one line$/,
      ],
      [
        'a header name with a space',
        { webhooks: [hook('default', { header: { key: 'X Token', value: 'a' } })] },
        /^"webhooks\[0\]\.header\.key" must be an HTTP header name/,
      ],
    ];
    it.each(refused)('%s is 400', async (_, body, message) => {
      const res = await put(svc.orgA, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(message);
    });

    it('a webhook URL on a private address is 400 WEBHOOK_URL_NOT_ALLOWED, and nothing changes', async () => {
      await put(svc.orgA, { webhooks: [hook('default')] });
      for (const url of ['http://127.0.0.1/hooks', 'http://169.254.169.254/latest', 'http://[::1]/hooks', 'http://10.0.0.8/']) {
        const res = await put(svc.orgA, { name: 'Changed', webhooks: [{ id: 'default', url }] });
        expect(res.statusCode, url).toBe(400);
        expect(res.json().message).toMatch(/^WEBHOOK_URL_NOT_ALLOWED/);
      }
      expect((await get(svc.orgA)).json().webhooks[0].url).toBe('https://hooks.example.test/default');
    });

    it('/webhooks refuses a reserved header key too', async () => {
      const res = await call(svc.app, 'POST', '/webhooks', {
        key: svc.orgA.privateKey,
        body: { name: 'x', url: 'https://hooks.example.test/x', header: { key: 'Webhook-Id', value: 'msg_forged' } },
      });
      expect([res.statusCode, res.json().message]).toEqual([400, expect.stringMatching(/^"header\.key" must not be one of the headers/)]);
    });
  });

  describe("the public key sits in web pages: GET /company answers it the real service's shape, with no header value, no webhook URL's path or query and no secret", () => {
    it('name, logo, colours, each webhook with its description, its URL as its origin and its header masked, and the legacy webhook and webhookHeader', async () => {
      await put(svc.orgA, {
        image: 'https://static.example.test/logo.png',
        webhooks: [hook('default', { description: 'Principal', header: { key: 'Authorization', value: 'Bearer never-shown' } }), hook('crm')],
      });
      const res = await get(svc.orgA, svc.orgA.publicKey);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        id: svc.orgA.id,
        name: expect.any(String),
        webhooks: [
          { id: 'crm', url: 'https://hooks.example.test/********' },
          { id: 'default', description: 'Principal', url: 'https://hooks.example.test/********', header: { key: 'Authorization', value: '********' } },
        ],
        uxOptions: expect.any(Object),
        image: 'https://static.example.test/logo.png',
        webhook: 'https://hooks.example.test/********',
        webhookHeader: { key: 'Authorization', value: '********' },
      });
      expect(res.body).not.toContain('never-shown');
      expect(res.body).not.toMatch(/hooks\.example\.test\/[^*]/);
      expect(res.body).not.toContain(await secretOf(svc.orgA, 'default'));
    });

    it('PUT /company with the public key is 401, and changes nothing', async () => {
      const before = (await get(svc.orgA)).json();
      const res = await call(svc.app, 'PUT', '/company', { key: svc.orgA.publicKey, body: { name: 'Hijacked' } });
      expect([res.statusCode, res.json()]).toEqual([401, { message: 'UNAUTHORIZED' }]);
      expect((await get(svc.orgA)).json()).toEqual(before);
    });
  });

  describe('another organization never sees or changes the first one’s company or webhooks', () => {
    it("B's PUT with the same webhook ids changes B's list only, and each GET shows its own", async () => {
      await put(svc.orgA, { name: 'Acme', webhooks: [hook('default'), hook('crm')] });
      await put(svc.orgB, { name: 'Globex', uxOptions: { primaryColor: '#222' }, webhooks: [{ id: 'default', url: 'https://b.example.test/hook' }] });
      const a = (await get(svc.orgA)).json();
      const b = (await get(svc.orgB)).json();
      expect([a.id, a.name, a.webhooks.map((w: { url: string }) => w.url)]).toEqual([
        svc.orgA.id,
        'Acme',
        ['https://hooks.example.test/crm', 'https://hooks.example.test/default'],
      ]);
      expect([b.id, b.name, b.webhooks.map((w: { url: string }) => w.url), b.uxOptions.primaryColor]).toEqual([
        svc.orgB.id,
        'Globex',
        ['https://b.example.test/hook'],
        '#222',
      ]);
      expect(JSON.stringify(b)).not.toContain('hooks.example.test');
    });
  });

  describe("the organization's colours reach its people's pages, kept readable", () => {
    const signingPage = async (org: TestOrganization) => {
      const code = await createProcess(svc, org, '/document/upload', pdfProcess(org, { notification: false }));
      const token = (await stored(svc, org, code)).participants[0]!.link_token;
      return (await svc.app.inject({ method: 'GET', url: '/people/signing', headers: { 'x-link-token': token } })).json();
    };

    it("A's page carries A's colours; B's carries B's", async () => {
      await put(svc.orgA, { uxOptions: { primaryColor: '#021C30', alternateColor: '#F2C94C' } });
      await put(svc.orgB, { uxOptions: { primaryColor: '#222', alternateColor: '#ffffff' } });
      expect((await signingPage(svc.orgA)).colours).toEqual({ primary: '#021c30', onPrimary: '#f2c94c' });
      expect((await signingPage(svc.orgB)).colours).toEqual({ primary: '#222222', onPrimary: '#ffffff' });
    });

    it("a primary too light to read on the pages keeps the pages' own; text too close to the primary becomes white or black", async () => {
      await put(svc.orgA, { uxOptions: { primaryColor: '#ffff00', alternateColor: '#0b4f8b' } });
      expect((await signingPage(svc.orgA)).colours).toEqual({ primary: '#0b4f8a', onPrimary: '#ffffff' });
      await put(svc.orgA, { uxOptions: { primaryColor: '#1a1a1a', alternateColor: '#222222' } });
      expect((await signingPage(svc.orgA)).colours).toEqual({ primary: '#1a1a1a', onPrimary: '#ffffff' });
    });

    it('the face-validation page carries them too', async () => {
      await put(svc.orgA, { uxOptions: { primaryColor: '#021C30', alternateColor: '#ffffff' } });
      const created = await call(svc.app, 'POST', '/veriface', {
        key: svc.orgA.privateKey,
        body: verifaceBody(svc.orgA.email, { platform: 'web' }),
      });
      expect(created.statusCode, created.body).toBe(200);
      const token = (await svc.deps.db.selectFrom('veriface_processes').select('link_token').where('code', '=', created.json().code).executeTakeFirstOrThrow())
        .link_token;
      const page = (await svc.app.inject({ method: 'GET', url: '/people/validation', headers: { 'x-link-token': token } })).json();
      expect(page.colours).toEqual({ primary: '#021c30', onPrimary: '#ffffff' });
    });
  });
});
