import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listDocuments } from '../src/documents/queries.js';
import { listMailbox, mailboxDir } from '../src/messages/local-mailbox.js';
import { updateSettings } from '../src/organizations/settings.js';
import { ANSWERS, sampleTemplate } from './support/fixtures.js';
import { lastCode } from './support/forms.js';
import { call, dialects, startTestService, type TestOrganization, type TestService } from './support/service.js';
import { stored, templateWithHtml } from './support/signing.js';

const DAY = 24 * 60 * 60 * 1000;
const ORIGIN = 'https://shop.example';

/** The seller prepares the sale; the buyer, whose e-mail is the last question of preBuildData, completes it. */
const PREBUILT_TEMPLATE = sampleTemplate({ preBuild: true, preBuildData: ['seller_name', 'seller_email', 'price', 'buyer_email'] });
const PREFILLED = [
  { key: 'seller_name', value: 'Luis Pérez' },
  { key: 'seller_email', value: 'luis@seller.test' },
  { key: 'price', value: '50000' },
];
const COMPLETER_ANSWERS = [
  { key: 'buyer_name', value: 'Ana Gómez' },
  { key: 'buyer_phone', value: '+573001234567' },
];

describe.each(dialects)('prebuilt processes: POST /document/prebuild and their form (%s)', (dialect) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService(dialect);
    for (const org of [svc.orgA, svc.orgB]) await updateSettings(svc.deps.db, { organizationId: org.id, changes: { sdkOrigins: [ORIGIN] } });
  });
  afterAll(async () => svc.close());

  const prebuild = (org: TestOrganization, body: Record<string, unknown>) => call(svc.app, 'POST', '/document/prebuild', { key: org.privateKey, body });
  const body = (template: string, org: TestOrganization, extra: Record<string, unknown> = {}) => ({
    email: org.email,
    name: 'Sale of the car',
    document: template,
    preBuild: PREFILLED,
    sign: true,
    notification: false,
    emailTo: 'ana@buyer.test',
    ...extra,
  });
  /** A prebuilt process of the organization: its code and the token of its form. */
  async function prebuilt(org: TestOrganization, extra: Record<string, unknown> = {}): Promise<{ code: string; token: string; template: string }> {
    const template = await templateWithHtml(svc, org, undefined, PREBUILT_TEMPLATE);
    const res = await prebuild(org, body(template, org, extra));
    expect(res.statusCode, res.body).toBe(200);
    return { code: res.json().document, token: String(res.json().url).split('/f/')[1] ?? '', template };
  }

  let submissions = 0;
  const people = (method: 'GET' | 'POST', url: string, token: string, payload?: object): Promise<LightMyRequestResponse> =>
    svc.app.inject({
      method,
      url: `/people/${url}`,
      headers: { 'x-link-token': token },
      ...(payload ? { payload } : {}),
      remoteAddress: `10.1.0.${++submissions % 250}`,
    });
  const submit = (token: string, data: object[], idempotencyKey = `key-${Math.random().toString(36).slice(2)}-submission`) =>
    people('POST', 'fill', token, { data, idempotencyKey });

  describe('only templates with preBuild, only the questions of preBuildData, each value checked as /document/save checks it', () => {
    it('a template without preBuild is refused', async () => {
      const template = await templateWithHtml(svc, svc.orgA);
      const res = await prebuild(svc.orgA, body(template, svc.orgA));
      expect([res.statusCode, res.json()]).toEqual([400, { message: "PREBUILD_NOT_ENABLED: the template's preBuild is false" }]);
    });

    it('a key that is not in preBuildData is refused, naming the questions it may answer', async () => {
      const template = await templateWithHtml(svc, svc.orgA, undefined, PREBUILT_TEMPLATE);
      const res = await prebuild(svc.orgA, body(template, svc.orgA, { preBuild: [...PREFILLED, { key: 'buyer_name', value: 'Ana' }] }));
      expect([res.statusCode, res.json()]).toEqual([400, { message: '"preBuild[3].key" must be one of [seller_name, seller_email, price, buyer_email]' }]);
    });

    it("a wrong value is refused with /document/save's own message for it", async () => {
      const template = await templateWithHtml(svc, svc.orgA, undefined, PREBUILT_TEMPLATE);
      const wrong = [{ key: 'price', value: 'ten' }];
      const save = await call(svc.app, 'POST', '/document/save', {
        key: svc.orgA.privateKey,
        body: { email: svc.orgA.email, name: 'Sale', document: template, data: ANSWERS.filter((a) => a.key !== 'price').concat(wrong) },
      });
      const res = await prebuild(svc.orgA, body(template, svc.orgA, { preBuild: wrong }));
      expect([res.statusCode, res.json()]).toEqual([400, save.json()]);
      expect(res.json()).toEqual({ message: '"price" must be a number' });
    });

    it('emailTo must be an e-mail, and the answer to the e-mail question of preBuildData when that is given too', async () => {
      const template = await templateWithHtml(svc, svc.orgA, undefined, PREBUILT_TEMPLATE);
      const invalid = await prebuild(svc.orgA, body(template, svc.orgA, { emailTo: 'not-an-email' }));
      expect([invalid.statusCode, invalid.json()]).toEqual([400, { message: '"emailTo" must be a valid email' }]);
      const other = await prebuild(svc.orgA, body(template, svc.orgA, { preBuild: [...PREFILLED, { key: 'buyer_email', value: 'eve@else.test' }] }));
      expect(other.json()).toEqual({ message: `"emailTo" must be the answer to "buyer_email", the last question of the template's preBuildData` });
    });

    it("a preBuildData that does not end with an e-mail question names nobody to complete it, and another organization's template is unknown", async () => {
      const template = await templateWithHtml(svc, svc.orgA, undefined, sampleTemplate({ preBuild: true, preBuildData: ['price'] }));
      const res = await prebuild(svc.orgA, body(template, svc.orgA, { preBuild: [{ key: 'price', value: '1' }] }));
      expect(res.json().message).toMatch(/^PREBUILD_NOT_ENABLED: the last question of the template's preBuildData must be the e-mail question/);
      const { template: theirs } = await prebuilt(svc.orgB);
      expect((await prebuild(svc.orgA, body(theirs, svc.orgA))).json()).toEqual({ message: 'TEMPLATE_NOT_FOUND' });
    });
  });

  describe('it waits under its code: nobody is invited, GET /document reads it as PREBUILT, cancel cancels it', () => {
    it('with notification, emailTo receives the link of its form by e-mail, in the organization language; nobody else is written to', async () => {
      await updateSettings(svc.deps.db, { organizationId: svc.orgA.id, changes: { language: 'en' } });
      const template = await templateWithHtml(svc, svc.orgA, undefined, PREBUILT_TEMPLATE);
      const before = (await listMailbox(mailboxDir(svc.config.dataDir), { channel: 'email' })).length;
      const res = await prebuild(svc.orgA, body(template, svc.orgA, { notification: true, emailTo: 'Ana@Buyer.test' }));
      expect(res.json()).toEqual({ document: expect.stringMatching(/^[A-Z0-9]{10}$/) });
      await svc.deps.worker.deliverDue();
      const mail = (await listMailbox(mailboxDir(svc.config.dataDir), { channel: 'email' })).slice(before);
      expect(mail.map((m) => m.to)).toEqual(['ana@buyer.test']);
      expect(mail[0]?.message.subject).toBe('Complete "Sale of the car"');
      expect(String(mail[0]?.message.text)).toMatch(/Acme prepared "Sale of the car".*\n\n.*\nhttp:\/\/service\.test\/f\/[A-Za-z0-9_-]{40}$/s);
      await updateSettings(svc.deps.db, { organizationId: svc.orgA.id, changes: { language: 'es' } });
    });

    it('GET /document answers PREBUILT, the private key with the prefilled answers; another organization does not find it', async () => {
      const { code, template } = await prebuilt(svc.orgA);
      const own = await call(svc.app, 'GET', '/document', { key: svc.orgA.privateKey, query: { code } });
      expect(own.json()).toMatchObject({
        code,
        status: 'PREBUILT',
        signFinish: false,
        documents: [],
        signProfile: [],
        email: svc.orgA.email,
        preBuild: { template, emailTo: 'ana@buyer.test', answers: [...PREFILLED, { key: 'buyer_email', value: 'ana@buyer.test' }] },
      });
      const publicView = await call(svc.app, 'GET', '/document', { key: svc.orgA.publicKey, query: { code } });
      expect(publicView.json()).toMatchObject({ code, status: 'PREBUILT', documents: [], signProfile: [] });
      expect(publicView.body).not.toContain('ana@buyer.test');
      expect((await call(svc.app, 'GET', '/document', { key: svc.orgB.privateKey, query: { code } })).json()).toEqual({ message: 'DOCUMENT_NOT_FOUND' });
      expect((await call(svc.app, 'GET', '/document/roadmap', { key: svc.orgA.privateKey, query: { code } })).json()).toEqual({
        message: 'DOCUMENT_NOT_FOUND',
      });
    });

    it('cancelled, its form stops taking answers; another organization cannot cancel it', async () => {
      const { code, token } = await prebuilt(svc.orgA);
      const foreign = await call(svc.app, 'POST', '/document/cancel', {
        key: svc.orgB.privateKey,
        body: { codes: [code], message: 'No', email: svc.orgB.email },
      });
      expect(foreign.json()).toEqual({ success: 0, errors: { cant: 1, documents: [code] } });
      const res = await call(svc.app, 'POST', '/document/cancel', {
        key: svc.orgA.privateKey,
        body: { codes: [code], message: 'No sale', email: svc.orgA.email },
      });
      expect(res.json()).toEqual({ success: 1, errors: { cant: 0 } });
      expect((await call(svc.app, 'GET', '/document', { key: svc.orgA.privateKey, query: { code } })).json().status).toBe('CANCELLED');
      expect((await people('GET', 'fill', token)).json()).toEqual({ message: 'PREBUILT_CANCELLED' });
    });

    it('past its expiredDate, its form says so and creates nothing', async () => {
      const { code, token } = await prebuilt(svc.orgA, { expiredDate: new Date(svc.clock.now().getTime() + 4 * DAY).toISOString() });
      expect((await people('GET', 'fill', token)).statusCode).toBe(200);
      svc.clock.advance(5 * DAY);
      expect((await submit(token, COMPLETER_ANSWERS)).json()).toEqual({ message: 'PREBUILT_EXPIRED' });
      expect((await call(svc.app, 'GET', '/document', { key: svc.orgA.privateKey, query: { code } })).json().status).toBe('EXPIRED');
    });
  });

  describe('completing the form makes the process under the same code, with exactly the answers, the prefilled ones locked', () => {
    it('the form shows the prefilled answers locked, and sending one changed is refused', async () => {
      const { token } = await prebuilt(svc.orgA);
      const form = (await people('GET', 'fill', token)).json();
      expect(form.prefilled).toEqual(
        [...PREFILLED, { key: 'buyer_email', value: 'ana@buyer.test' }].map((a) => ({ name: a.key, value: a.value, locked: true })),
      );
      expect(form.signNow).toBe(false);
      const changed = await submit(token, [...COMPLETER_ANSWERS, { key: 'price', value: '1' }]);
      expect([changed.statusCode, changed.json()]).toEqual([
        400,
        { message: 'PREFILLED_ANSWER_LOCKED: "price" was filled in beforehand and cannot be changed' },
      ]);
      const checked = await people('POST', 'fill/check', token, { data: [...COMPLETER_ANSWERS, { key: 'buyer_email', value: 'eve@else.test' }] });
      expect(checked.json()).toEqual({ message: 'PREFILLED_ANSWER_LOCKED: "buyer_email" was filled in beforehand and cannot be changed' });
      expect((await people('POST', 'fill/check', token, { data: COMPLETER_ANSWERS })).json()).toEqual({ errors: [] });
    });

    it('readers given to the prebuilt process follow the process it becomes: invited when it is completed, READER in GET /document', async () => {
      const reader = { name: 'Rosa Díaz', email: 'rosa@board.test' };
      const { code, token, template } = await prebuilt(svc.orgB, { readers: [reader] });
      expect((await submit(token, COMPLETER_ANSWERS)).json()).toEqual({ code });
      const own = (await call(svc.app, 'GET', '/document', { key: svc.orgB.privateKey, query: { code } })).json();
      expect(own.signProfile.at(-1)).toEqual({ ...reader, role: 'READER' });
      await svc.deps.worker.deliverDue();
      const mail = await listMailbox(mailboxDir(svc.config.dataDir), { channel: 'email', limit: 100 });
      expect(mail.filter((m) => m.to === reader.email).map((m) => m.message.subject)).toEqual(['Para tu información: «Sale of the car»']);
      const refused = await prebuild(svc.orgB, body(template, svc.orgB, { readers: [{ name: 'Ana', email: 'not-an-e-mail' }] }));
      expect([refused.statusCode, refused.json()]).toEqual([400, { message: '"readers[0].email" must be a valid email' }]);
    });

    it('the process has the same code, holds the prefilled and the given answers, invites its signers, and sends the creation webhook', async () => {
      const { code, token } = await prebuilt(svc.orgA);
      const res = await submit(token, [...COMPLETER_ANSWERS, { key: 'price', value: '50000' }], 'completion-00000000001');
      expect(res.json()).toEqual({ code });
      const { process, participants } = await stored(svc, svc.orgA, code);
      expect(process).toMatchObject({ name: 'Sale of the car', creator_email: svc.orgA.email, status: 'CREATED' });
      const [document] = await listDocuments(svc.deps.db, process.id);
      expect(JSON.parse(document?.answers ?? '{}')).toEqual({ ...Object.fromEntries(ANSWERS.map((a) => [a.key, a.value])), payment: 'cash' });
      expect(participants.map((p) => [p.email, p.status, p.notification])).toEqual([
        ['ana@buyer.test', 'NOTIFICATION', 1],
        ['luis@seller.test', 'NOTIFICATION', 1],
      ]);
      // The CREATE event, whose webhook goes to the organization's webhooks, as for any creation.
      const roadmap = await call(svc.app, 'GET', '/document/roadmap', { key: svc.orgA.privateKey, query: { code } });
      expect(roadmap.json().activityLog[0]).toMatchObject({ action: 'CREATE' });
      const read = await call(svc.app, 'GET', '/document', { key: svc.orgA.privateKey, query: { code } });
      expect(read.json()).toMatchObject({ code, status: 'CREATED' });
      expect((await call(svc.app, 'GET', '/document', { key: svc.orgB.privateKey, query: { code } })).statusCode).toBe(400);

      expect((await submit(token, COMPLETER_ANSWERS, 'completion-00000000001')).json()).toEqual({ code });
      const second = await submit(token, COMPLETER_ANSWERS, 'completion-00000000002');
      expect([second.statusCode, second.json()]).toEqual([410, { message: 'PREBUILT_COMPLETED' }]);
      expect((await people('GET', 'fill', token)).json()).toEqual({ message: 'PREBUILT_COMPLETED' });
    });

    it('two completions at once make one process', async () => {
      const { code, token } = await prebuilt(svc.orgA);
      const both = await Promise.all([submit(token, COMPLETER_ANSWERS, 'race-000000000000001'), submit(token, COMPLETER_ANSWERS, 'race-000000000000002')]);
      const answers = both.map((r) => r.json());
      expect(answers).toContainEqual({ code });
      expect(answers).toContainEqual({ message: 'PREBUILT_COMPLETED' });
      const processes = await svc.deps.db.selectFrom('processes').select('id').where('code', '=', code).execute();
      expect(processes).toHaveLength(1);
    });

    it("a required answer left out is refused with /document/save's message, and nothing is made", async () => {
      const { code, token } = await prebuilt(svc.orgA);
      const res = await submit(token, [{ key: 'buyer_phone', value: '+573001234567' }]);
      expect([res.statusCode, res.json()]).toEqual([400, { message: '"buyer_name" is required' }]);
      expect((await call(svc.app, 'GET', '/document', { key: svc.orgA.privateKey, query: { code } })).json().status).toBe('PREBUILT');
    });
  });

  describe("the SDK's fill flow: a template, a reference link or a prebuilt process of the key's organization, from an allowed origin", () => {
    const embed = (org: TestOrganization, fill: Record<string, unknown>, origin = ORIGIN) =>
      svc.app.inject({
        method: 'POST',
        url: '/people/embed',
        payload: { keyPublic: org.publicKey, parentOrigin: origin, ...fill },
        remoteAddress: `10.2.0.${++submissions % 250}`,
      });

    it('a template opens a form whose submission makes one process with the template defaults; the session makes no second one', async () => {
      const template = await templateWithHtml(svc, svc.orgA);
      const opened = await embed(svc.orgA, { document: template });
      expect(opened.json()).toEqual({ flow: 'fill', token: expect.stringMatching(/^[A-Za-z0-9_-]{44}$/) });
      const { token } = opened.json();
      expect((await people('GET', 'fill', token)).json()).toMatchObject({ template: { name: 'Purchase agreement' }, signNow: false, prefilled: [] });
      const res = await submit(token, ANSWERS, 'sdk-submission-000001');
      const { code } = res.json();
      const { process, participants } = await stored(svc, svc.orgA, code);
      expect(process.creator_email).toBe(svc.orgA.email);
      // Held until the person who filled it confirms their own address (test/form-confirmation.test.ts).
      expect(participants.every((p) => p.notification === 1 && p.status === 'PENDING')).toBe(true);
      const confirmed = await people('POST', 'fill/confirm', token, { idempotencyKey: 'sdk-submission-000001', code: await lastCode(svc, 'ana@buyer.test') });
      expect(confirmed.json()).toEqual({ code });
      expect((await stored(svc, svc.orgA, code)).participants.every((p) => p.status === 'NOTIFICATION')).toBe(true);
      expect((await submit(token, ANSWERS, 'sdk-submission-000001')).json()).toEqual({ code });
      expect((await submit(token, ANSWERS, 'sdk-submission-000002')).json()).toEqual({ message: 'FILL_SESSION_USED' });
    });

    it("another organization's template, reference or prebuilt code, a wrong origin, or code without preBuild open nothing", async () => {
      const theirs = await prebuilt(svc.orgB);
      const ours = await templateWithHtml(svc, svc.orgA, undefined, PREBUILT_TEMPLATE);
      const theirLink = await call(svc.app, 'POST', '/template/reference', { key: svc.orgB.privateKey, body: { template: theirs.template } });
      const refused = [
        await embed(svc.orgA, { document: theirs.template }),
        await embed(svc.orgA, { document: ours, code: theirs.code, preBuild: true }),
        await embed(svc.orgA, { document: theirs.template, code: theirs.code, preBuild: true }),
        await embed(svc.orgA, { document: theirs.template, reference: theirLink.json().id }),
        await embed(svc.orgB, { document: theirs.template }, 'https://evil.example'),
        await embed(svc.orgB, { document: theirs.template, code: theirs.code }),
      ];
      for (const res of refused)
        expect(res.statusCode === 404 ? res.json() : res.statusCode).toEqual(res.statusCode === 404 ? { message: 'EMBED_NOT_FOUND' } : 400);
      expect(refused.map((r) => r.statusCode)).toEqual([404, 404, 404, 404, 404, 400]);
    });

    it('code with preBuild completes the prebuilt process through the SDK, keeping its code', async () => {
      const { code, template } = await prebuilt(svc.orgA);
      const opened = await embed(svc.orgA, { document: template, code, preBuild: true });
      const { token } = opened.json();
      expect((await people('GET', 'fill', token)).json().prefilled).toHaveLength(4);
      expect((await submit(token, [...COMPLETER_ANSWERS, { key: 'seller_name', value: 'Eve' }])).json()).toEqual({
        message: 'PREFILLED_ANSWER_LOCKED: "seller_name" was filled in beforehand and cannot be changed',
      });
      expect((await submit(token, COMPLETER_ANSWERS)).json()).toEqual({ code });
      expect((await stored(svc, svc.orgA, code)).participants).toHaveLength(2);
    });

    it("a reference link's settings apply, and its use is recorded", async () => {
      const template = await templateWithHtml(svc, svc.orgA);
      const link = await call(svc.app, 'POST', '/template/reference', {
        key: svc.orgA.privateKey,
        body: { template, otpCode: true, options: { otpCode: 'email' } },
      });
      const { token } = (await embed(svc.orgA, { document: template, reference: link.json().id })).json();
      const { code } = (await submit(token, ANSWERS)).json();
      const uses = await call(svc.app, 'GET', '/template/reference/uses', { key: svc.orgA.privateKey, query: { id: link.json().id } });
      expect(uses.json().data.map((u: { code: string }) => u.code)).toEqual([code]);
      const byToken = (await embed(svc.orgA, { document: template, reference: String(link.json().url).split('/r/')[1] })).json();
      expect(byToken.flow).toBe('fill');
      await call(svc.app, 'PUT', '/template/reference', { key: svc.orgA.privateKey, body: { id: link.json().id, enabled: false } });
      expect((await people('GET', 'fill', byToken.token)).json()).toEqual({ message: 'REFERENCE_LINK_DISABLED' });
    });

    it('an organization that requires tokens requires one for the fill flow too, minted for that template and origin', async () => {
      const template = await templateWithHtml(svc, svc.orgB);
      await updateSettings(svc.deps.db, { organizationId: svc.orgB.id, changes: { sdkRequireToken: true } });
      try {
        expect((await embed(svc.orgB, { document: template })).json()).toEqual({ message: 'EMBED_NOT_FOUND' });
        const minted = await call(svc.app, 'POST', '/sdk/token', { key: svc.orgB.privateKey, body: { document: template, origin: ORIGIN } });
        expect(minted.statusCode, minted.body).toBe(200);
        const foreign = await call(svc.app, 'POST', '/sdk/token', { key: svc.orgA.privateKey, body: { document: template, origin: ORIGIN } });
        expect(foreign.json()).toEqual({ message: 'DOCUMENT_NOT_FOUND' });
        const opened = await embed(svc.orgB, { document: template, token: minted.json().token });
        expect(opened.json().flow).toBe('fill');
        expect((await embed(svc.orgB, { document: template, token: minted.json().token })).json()).toEqual({ message: 'EMBED_NOT_FOUND' });
      } finally {
        await updateSettings(svc.deps.db, { organizationId: svc.orgB.id, changes: { sdkRequireToken: false } });
      }
    });

    it('a session past its twelve hours says so', async () => {
      const template = await templateWithHtml(svc, svc.orgA);
      const { token } = (await embed(svc.orgA, { document: template })).json();
      svc.clock.advance(12 * 60 * 60 * 1000 + 1);
      expect((await submit(token, ANSWERS)).json()).toEqual({ message: 'FILL_SESSION_EXPIRED' });
    });
  });
});
