import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validationsOf } from '../src/documents/notify-participants.js';
import { listDocuments } from '../src/documents/queries.js';
import { ANSWERS, sampleTemplate } from './support/fixtures.js';
import { call, dialects, startTestService, type TestOrganization, type TestService } from './support/service.js';
import { outbox, stored, templateWithHtml } from './support/signing.js';

const DAY = 24 * 60 * 60 * 1000;

describe.each(dialects)('reference links people fill in (%s)', (dialect) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService(dialect);
  });
  afterAll(async () => svc.close());

  async function link(
    org: TestOrganization,
    settings: Record<string, unknown> = {},
    template?: string,
  ): Promise<{ id: string; token: string; template: string }> {
    const id = template ?? (await templateWithHtml(svc, org));
    const res = await call(svc.app, 'POST', '/template/reference', { key: org.privateKey, body: { template: id, ...settings } });
    expect(res.statusCode, res.body).toBe(200);
    return { id: res.json().id, token: String(res.json().url).split('/r/')[1] ?? '', template: id };
  }

  let submissions = 0;
  const people = (method: 'GET' | 'POST', url: string, token: string, payload?: object): Promise<LightMyRequestResponse> =>
    svc.app.inject({
      method,
      url: `/people/${url}`,
      headers: { 'x-link-token': token },
      ...(payload ? { payload } : {}),
      // Each submission from an address of its own: the route's limit of ten per ten minutes is not what these tests are about.
      remoteAddress: method === 'POST' && url === 'fill' ? `10.0.0.${++submissions}` : '127.0.0.1',
    });
  const submit = (token: string, data: object[], idempotencyKey = `key-${Math.random().toString(36).slice(2)}-submission`) =>
    people('POST', 'fill', token, { data, idempotencyKey });

  describe('a reference link carries its settings: identity validations, channels, sign now, an expiry and an on/off switch', () => {
    it('POST answers the settings given beside the link, with sensible defaults', async () => {
      const template = await templateWithHtml(svc, svc.orgA);
      const plain = await call(svc.app, 'POST', '/template/reference', { key: svc.orgA.privateKey, body: { template } });
      expect(plain.json()).toMatchObject({ template, signNow: false, enabled: true });
      expect(plain.json()).not.toHaveProperty('expiresAt');
      const expiresAt = new Date(svc.clock.now().getTime() + 10 * DAY).toISOString();
      const res = await call(svc.app, 'POST', '/template/reference', {
        key: svc.orgA.privateKey,
        body: { template, otpCode: true, options: { otpCode: 'email', whatsapp: false }, signNow: true, expiresAt, email: svc.orgA.email },
      });
      expect(res.json()).toMatchObject({
        otpCode: true,
        options: { otpCode: 'email', whatsapp: false },
        signNow: true,
        expiresAt,
        enabled: true,
        email: svc.orgA.email,
      });
    });

    it("validation settings are checked as /document/save's root fields, and the creator must be a user of the organization", async () => {
      const template = await templateWithHtml(svc, svc.orgA);
      const wrong = await call(svc.app, 'POST', '/template/reference', { key: svc.orgA.privateKey, body: { template, options: { camera: 'photo' } } });
      expect([wrong.statusCode, wrong.json()]).toEqual([400, { message: '"options.camera" requires "camera" to be true at the same level' }]);
      const stranger = await call(svc.app, 'POST', '/template/reference', { key: svc.orgA.privateKey, body: { template, email: svc.orgB.email } });
      expect(stranger.json()).toEqual({ message: 'USER_NOTFOUND' });
    });

    it('PUT changes the settings sent and keeps the others; another organization cannot', async () => {
      const { id } = await link(svc.orgA, { name: 'Website', otpCode: true });
      const foreign = await call(svc.app, 'PUT', '/template/reference', { key: svc.orgB.privateKey, body: { id, enabled: false } });
      expect(foreign.json()).toEqual({ message: 'REFERENCE_NOT_FOUND' });
      const res = await call(svc.app, 'PUT', '/template/reference', { key: svc.orgA.privateKey, body: { id, signNow: true } });
      expect(res.json()).toMatchObject({ id, name: 'Website', otpCode: true, signNow: true, enabled: true });
    });
  });

  describe("the people's API reads the form of the link's own template", () => {
    it('the questions in order with their help, which are required, the options and the sign-now setting', async () => {
      const body = sampleTemplate({ help: { price_help: 'In pesos, without dots.' } });
      (body.config as Record<string, unknown>[])[5] = { name: 'price', type: 'number', description: 'Price', help: 'price_help' };
      const { token } = await link(svc.orgA, { signNow: true }, await templateWithHtml(svc, svc.orgA, undefined, body));
      const res = await people('GET', 'fill', token);
      expect(res.statusCode).toBe(200);
      const form = res.json();
      expect(form).toMatchObject({ template: { name: 'Purchase agreement' }, organization: 'Acme', signNow: true, preview: true, prefilled: [] });
      expect(form.questions.map((q: { name: string }) => q.name)).toEqual(body.config && (body.config as { name: string }[]).map((q) => q.name));
      expect(form.questions[5]).toEqual({ name: 'price', type: 'number', description: 'Price', help: 'In pesos, without dots.', required: true });
      expect(form.questions[6]).toMatchObject({
        type: 'clausula',
        value: 'cash',
        options: [
          { value: 'cash', label: 'Cash' },
          { value: 'instalments', label: 'Instalments' },
        ],
      });
      expect(form.questions[7]).toMatchObject({ prereq: [{ k: 'payment', v: 'instalments' }], required: false });
      const preview = await people('GET', 'fill/preview', token);
      expect(preview.json().html).toContain('<span name="buyer_name">');
    });
  });

  describe('the preview comes without the styles written in its markup, and with them beside it, for the page to apply under a policy that allows no inline style', () => {
    it('its <style> sheets in order, each inline style by the index its element is marked with; the text and names untouched', async () => {
      const html =
        '<html><head><style>p { margin: 0 }</style></head><body><h1 style="color: navy">Venta</h1>' +
        '<p style="font-weight: bold">A <span name="buyer_name">comprador</span></p><template><b style="x: y">t</b></template><style>.b { color: red }</style></body></html>';
      const template = await templateWithHtml(svc, svc.orgA, html);
      const { token } = await link(svc.orgA, {}, template);
      const preview = (await people('GET', 'fill/preview', token)).json();
      expect(preview.sheets).toEqual(['p { margin: 0 }', '.b { color: red }']);
      expect(preview.inline).toEqual(['color: navy', 'font-weight: bold', 'x: y']);
      expect(preview.html).not.toMatch(/<style|\sstyle=/);
      expect(preview.html).toContain('<h1 data-preview-style="0">Venta</h1>');
      expect(preview.html).toContain('<p data-preview-style="1">A <span name="buyer_name">comprador</span></p>');
      const theirs = await people('GET', 'fill/preview', (await link(svc.orgB)).token);
      expect(theirs.json().html).not.toContain('Venta');
    });
  });

  describe("checking answers gives every refused answer with its question, in exactly /document/save's words", () => {
    const cases: [string, { key: string; value: string }[]][] = [
      ['a wrong e-mail', ANSWERS.map((a) => (a.key === 'buyer_email' ? { ...a, value: 'not-an-email' } : a))],
      ['a missing required answer', ANSWERS.filter((a) => a.key !== 'price')],
      [
        'a wrong phone and a word for a number',
        ANSWERS.map((a) => (a.key === 'buyer_phone' ? { ...a, value: '12' } : a.key === 'price' ? { ...a, value: 'ten' } : a)),
      ],
      ['an option that does not exist', [...ANSWERS, { key: 'payment', value: 'barter' }]],
      ['a question the template does not have', [...ANSWERS, { key: 'pet', value: 'cat' }]],
    ];
    for (const [what, data] of cases) {
      it(`${what}: the first error is /document/save's message, and each error names its question`, async () => {
        const { token, template } = await link(svc.orgA);
        const save = await call(svc.app, 'POST', '/document/save', {
          key: svc.orgA.privateKey,
          body: { email: svc.orgA.email, name: 'Sale', document: template, data },
        });
        expect(save.statusCode).toBe(400);
        const checked = await people('POST', 'fill/check', token, { data });
        expect(checked.statusCode).toBe(200);
        const errors = checked.json().errors as { name: string; message: string }[];
        expect(errors[0]?.message).toBe(save.json().message);
        for (const error of errors) expect(error.message).toContain(`"${error.name}"`);
      });
    }

    it('every wrong field at once, in the order of the questions', async () => {
      const { token } = await link(svc.orgA);
      const data = ANSWERS.filter((a) => a.key !== 'seller_name').map((a) => (a.key === 'buyer_email' ? { ...a, value: 'nope' } : a));
      const errors = (await people('POST', 'fill/check', token, { data })).json().errors;
      expect(errors).toEqual([
        { name: 'buyer_email', message: '"buyer_email" must be a valid email', reason: 'email' },
        { name: 'seller_name', message: '"seller_name" is required', reason: 'required' },
      ]);
    });

    it('right answers: no error', async () => {
      const { token } = await link(svc.orgA);
      expect((await people('POST', 'fill/check', token, { data: ANSWERS })).json()).toEqual({ errors: [] });
    });
  });

  describe('submitting creates the process as /document/save would, with the link settings, and records the use', () => {
    it("the process holds the answers, belongs to the link's organization, its signers get the link's validations; the uses list it", async () => {
      const { id, token } = await link(svc.orgA, { otpCode: true, options: { otpCode: 'email' } });
      const res = await submit(token, ANSWERS);
      expect(res.statusCode, res.body).toBe(200);
      const { code } = res.json();
      expect(res.json()).toEqual({ code: expect.stringMatching(/^[A-Z0-9]{10}$/), confirmation: expect.objectContaining({ to: 'ana@buyer.test' }) });
      const { process, participants } = await stored(svc, svc.orgA, code);
      expect(process.creator_email).toBe(svc.orgA.email);
      const [document] = await listDocuments(svc.deps.db, process.id);
      expect(JSON.parse(document?.answers ?? '{}')).toEqual({ ...Object.fromEntries(ANSWERS.map((a) => [a.key, a.value])), payment: 'cash' });
      expect(participants.map((p) => [p.email, validationsOf(p).otpCode, p.notification])).toEqual([
        ['ana@buyer.test', true, 1],
        ['luis@seller.test', true, 1],
      ]);
      const uses = await call(svc.app, 'GET', '/template/reference/uses', { key: svc.orgA.privateKey, query: { id } });
      expect(uses.json()).toEqual({ data: [{ code, created_at: process.created_at }], next: null });
      expect(uses.body).not.toContain('Ana Gómez');
      expect((await call(svc.app, 'GET', '/document', { key: svc.orgB.privateKey, query: { code } })).statusCode).not.toBe(200);
      expect((await call(svc.app, 'GET', '/template/reference/uses', { key: svc.orgB.privateKey, query: { id } })).json()).toEqual({
        message: 'REFERENCE_NOT_FOUND',
      });
    });

    it('the same submission sent again, or twice at once, makes one process', async () => {
      const { id, token } = await link(svc.orgA);
      const first = await submit(token, ANSWERS, 'double-click-0000000001');
      const again = await submit(token, ANSWERS, 'double-click-0000000001');
      expect(again.json()).toEqual(first.json());
      const together = await Promise.all([submit(token, ANSWERS, 'lost-answer-00000000002'), submit(token, ANSWERS, 'lost-answer-00000000002')]);
      expect(together.map((r) => r.statusCode)).toEqual([200, 200]);
      expect(together[0]?.json()).toEqual(together[1]?.json());
      const uses = (await call(svc.app, 'GET', '/template/reference/uses', { key: svc.orgA.privateKey, query: { id } })).json().data;
      expect(uses).toHaveLength(2);
      const processes = await svc.deps.db
        .selectFrom('processes')
        .select('code')
        .where('organization_id', '=', svc.orgA.id)
        .where('name', '=', 'Purchase agreement')
        .execute();
      for (const use of uses) expect(processes.filter((p) => p.code === use.code)).toHaveLength(1);
      expect(processes.map((p) => p.code)).toEqual(expect.arrayContaining(uses.map((u: { code: string }) => u.code)));
    });

    it("refused answers make nothing and answer /document/save's message", async () => {
      const { id, token, template } = await link(svc.orgA);
      const data = ANSWERS.filter((a) => a.key !== 'buyer_name');
      const save = await call(svc.app, 'POST', '/document/save', {
        key: svc.orgA.privateKey,
        body: { email: svc.orgA.email, name: 'Sale', document: template, data },
      });
      const res = await submit(token, data);
      expect([res.statusCode, res.json()]).toEqual([400, save.json()]);
      expect((await call(svc.app, 'GET', '/template/reference/uses', { key: svc.orgA.privateKey, query: { id } })).json().data).toEqual([]);
    });

    it('with sign now, the answer once confirmed is the signing page of the person who filled it, who is not invited; the others are, and their links are never answered', async () => {
      const { token } = await link(svc.orgA, { signNow: true });
      const before = (await outbox(svc, 'email')).length;
      const submitted = await submit(token, ANSWERS, 'sign-now-submission-01');
      const sent = (await outbox(svc, 'email')).slice(before);
      expect(sent.map((row) => [row.body.to, row.body.template])).toEqual([['ana@buyer.test', 'otp-code']]);
      const code = /\b(\d{6})\b/.exec(String(sent[0]?.body.text))?.[1];
      const res = await people('POST', 'fill/confirm', token, { idempotencyKey: 'sign-now-submission-01', code });
      expect(res.json().code).toBe(submitted.json().code);
      const { signingUrl } = res.json();
      const { participants } = await stored(svc, svc.orgA, res.json().code);
      const buyer = participants.find((p) => p.email === 'ana@buyer.test');
      const seller = participants.find((p) => p.email === 'luis@seller.test');
      expect(signingUrl).toBe(`http://service.test/s/${buyer?.link_token}`);
      expect(res.body).not.toContain(seller?.link_token);
      const invited = (await outbox(svc, 'email')).slice(before + 1).map((row) => row.body.to);
      expect(invited).toContain('luis@seller.test');
      expect(invited).not.toContain('ana@buyer.test');
      expect((await submit(token, ANSWERS, 'sign-now-submission-01')).json()).toEqual({ code: res.json().code, signingUrl });
    });
  });

  describe('a link switched off or past its expiry says so, and creates nothing', () => {
    it('switched off: 410 REFERENCE_LINK_DISABLED on every route of the form; switched on again, it works', async () => {
      const { id, token } = await link(svc.orgA);
      await call(svc.app, 'PUT', '/template/reference', { key: svc.orgA.privateKey, body: { id, enabled: false } });
      for (const res of [await people('GET', 'fill', token), await people('POST', 'fill/check', token, { data: ANSWERS }), await submit(token, ANSWERS)]) {
        expect([res.statusCode, res.json()]).toEqual([410, { message: 'REFERENCE_LINK_DISABLED' }]);
      }
      await call(svc.app, 'PUT', '/template/reference', { key: svc.orgA.privateKey, body: { id, enabled: true } });
      expect((await people('GET', 'fill', token)).statusCode).toBe(200);
    });

    it('expired: 410 REFERENCE_LINK_EXPIRED once the expiry passes', async () => {
      const { token } = await link(svc.orgA, { expiresAt: new Date(svc.clock.now().getTime() + DAY).toISOString() });
      expect((await people('GET', 'fill', token)).statusCode).toBe(200);
      svc.clock.advance(DAY + 1);
      const res = await submit(token, ANSWERS);
      expect([res.statusCode, res.json()]).toEqual([410, { message: 'REFERENCE_LINK_EXPIRED' }]);
    });

    it('a deleted link, and a token nobody holds, are 404 REFERENCE_LINK_NOT_FOUND', async () => {
      const { id, token } = await link(svc.orgA);
      await submit(token, ANSWERS);
      expect((await call(svc.app, 'DELETE', '/template/reference', { key: svc.orgA.privateKey, query: { id } })).json()).toEqual({ id, deleted: true });
      expect((await people('GET', 'fill', token)).json()).toEqual({ message: 'REFERENCE_LINK_NOT_FOUND' });
    });
  });

  describe('a link makes at most its maxUses processes in all, and its hourlyCap in any hour; it says so and makes nothing more', () => {
    const HOUR = 60 * 60 * 1000;
    const uses = async (org: TestOrganization, id: string) =>
      (await call(svc.app, 'GET', '/template/reference/uses', { key: org.privateKey, query: { id } })).json().data.length;

    it('without them a link has no total and 20 an hour; both are set on creation and changed by PUT, and bad values are 400 {message}', async () => {
      const plain = (await link(svc.orgA)).id;
      const listed = await call(svc.app, 'PUT', '/template/reference', { key: svc.orgA.privateKey, body: { id: plain, name: 'Plain' } });
      expect(listed.json()).toMatchObject({ hourlyCap: 20, uses: 0 });
      expect(listed.json()).not.toHaveProperty('maxUses');
      const template = await templateWithHtml(svc, svc.orgA);
      const set = await call(svc.app, 'POST', '/template/reference', { key: svc.orgA.privateKey, body: { template, maxUses: 3, hourlyCap: 2 } });
      expect(set.json()).toMatchObject({ maxUses: 3, hourlyCap: 2, uses: 0 });
      const cleared = await call(svc.app, 'PUT', '/template/reference', { key: svc.orgA.privateKey, body: { id: set.json().id, maxUses: null, hourlyCap: 5 } });
      expect(cleared.json()).toMatchObject({ hourlyCap: 5 });
      expect(cleared.json()).not.toHaveProperty('maxUses');
      for (const [body, message] of [
        [{ template, maxUses: 0 }, '"maxUses" must be greater than or equal to 1'],
        [{ template, maxUses: null }, '"maxUses" must be a number'],
        [{ template, hourlyCap: 0 }, '"hourlyCap" must be greater than or equal to 1'],
        [{ template, hourlyCap: 2.5 }, '"hourlyCap" must be an integer'],
      ] as const) {
        const res = await call(svc.app, 'POST', '/template/reference', { key: svc.orgA.privateKey, body });
        expect([res.statusCode, res.json()]).toEqual([400, { message }]);
      }
    });

    it("maxUses: the link's uses past it are 410 REFERENCE_LINK_USED_UP on every route of the form, and make no process; another organization's link goes on", async () => {
      svc.clock.advance(HOUR + 1000);
      const ours = await link(svc.orgA, { maxUses: 2 });
      const theirs = await link(svc.orgB, { maxUses: 2 });
      for (const key of ['used-up-submission-0001', 'used-up-submission-0002']) expect((await submit(ours.token, ANSWERS, key)).statusCode).toBe(200);
      const refused = await submit(ours.token, ANSWERS);
      expect([refused.statusCode, refused.json()]).toEqual([410, { message: 'REFERENCE_LINK_USED_UP' }]);
      expect((await people('GET', 'fill', ours.token)).json()).toEqual({ message: 'REFERENCE_LINK_USED_UP' });
      expect((await submit(ours.token, ANSWERS, 'used-up-submission-0001')).statusCode).toBe(200);
      expect(await uses(svc.orgA, ours.id)).toBe(2);
      expect((await submit(theirs.token, ANSWERS)).statusCode).toBe(200);
      expect(await uses(svc.orgB, theirs.id)).toBe(1);
      const raised = await call(svc.app, 'PUT', '/template/reference', { key: svc.orgA.privateKey, body: { id: ours.id, maxUses: 3 } });
      expect(raised.json()).toMatchObject({ maxUses: 3, uses: 2 });
      expect((await submit(ours.token, ANSWERS)).statusCode).toBe(200);
    });

    it("hourlyCap: past it a submission is 429 REFERENCE_LINK_HOURLY_CAP_EXCEEDED with Retry-After, also when they arrive together; the organization's other links and another organization's go on; an hour later it takes answers again", async () => {
      svc.clock.advance(HOUR + 1000);
      const ours = await link(svc.orgA, { hourlyCap: 3 });
      const other = await link(svc.orgA);
      const theirs = await link(svc.orgB, { hourlyCap: 3 });
      const together = await Promise.all([...Array.from({ length: 6 }, () => submit(ours.token, ANSWERS)), submit(theirs.token, ANSWERS)]);
      expect(
        together
          .slice(0, 6)
          .map((res) => res.statusCode)
          .sort(),
      ).toEqual([200, 200, 200, 429, 429, 429]);
      expect(together[6]?.statusCode).toBe(200);
      const refused = together.find((res) => res.statusCode === 429);
      expect(refused?.json().message).toMatch(/^REFERENCE_LINK_HOURLY_CAP_EXCEEDED: /);
      expect(Number(refused?.headers['retry-after'])).toBeGreaterThan(HOUR / 1000 - 60);
      expect(await uses(svc.orgA, ours.id)).toBe(3);
      expect((await submit(other.token, ANSWERS)).statusCode).toBe(200);
      expect((await submit(theirs.token, ANSWERS)).statusCode).toBe(200);
      svc.clock.advance(HOUR + 1000);
      expect((await submit(ours.token, ANSWERS)).statusCode).toBe(200);
    });
  });

  describe("another organization's link or template is never reachable", () => {
    it("each link opens its own organization's template, and a process made through B's link is B's", async () => {
      const a = await link(svc.orgA);
      const bBody = sampleTemplate({ name: 'Globex lease' });
      const b = await link(svc.orgB, {}, await templateWithHtml(svc, svc.orgB, undefined, bBody));
      expect((await people('GET', 'fill', a.token)).json().template.name).toBe('Purchase agreement');
      expect((await people('GET', 'fill', b.token)).json()).toMatchObject({ template: { name: 'Globex lease' }, organization: 'Globex' });
      const { code } = (await submit(b.token, ANSWERS)).json();
      expect((await stored(svc, svc.orgB, code)).process.creator_email).toBe(svc.orgB.email);
      expect((await call(svc.app, 'GET', '/document', { key: svc.orgA.privateKey, query: { code } })).statusCode).not.toBe(200);
      const aUses = await call(svc.app, 'GET', '/template/reference/uses', { key: svc.orgA.privateKey, query: { id: b.id } });
      expect(aUses.json()).toEqual({ message: 'REFERENCE_NOT_FOUND' });
    });
  });
});
