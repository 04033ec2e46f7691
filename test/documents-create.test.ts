import { DefaultQueryCompiler } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { sampleTemplate, verifaceBody } from './support/fixtures.js';
import { call, dialects, localPath, startTestService, type TestService } from './support/service.js';
import { ANSWERS, createProcess, outbox, PDF_BASE64, PDF_BYTES, pdfProcess, signers, stored, templateWithHtml, webhookTypes } from './support/signing.js';

const DAY = 24 * 60 * 60 * 1000;

describe.each(dialects)('signing processes: creation (%s)', (dialect) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService(dialect, { WEBHOOK_ALLOW_PRIVATE: 'true' });
    for (const org of [svc.orgA, svc.orgB]) {
      const hook = await call(svc.app, 'POST', '/webhooks', { key: org.privateKey, body: { name: 'default', url: 'http://127.0.0.1:9/hook' } });
      expect(hook.statusCode).toBe(200);
    }
  });
  afterAll(async () => svc.close());

  const post = (route: string, body: Record<string, unknown>, key = svc.orgA.privateKey) => call(svc.app, 'POST', route, { key, body });

  describe('POST /document/upload creates a process from a PDF and answers its code', () => {
    it('answers the code, the participants with their ids, and invites each by e-mail', async () => {
      const before = (await outbox(svc, 'email')).length;
      const res = await post('/document/upload', pdfProcess(svc.orgA, { subject: 'Please sign the lease', message: 'Thanks!' }));
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toEqual({
        code: expect.stringMatching(/^[A-Z0-9]{10}$/),
        document: body.code,
        signProfile: [
          { id: expect.stringMatching(/^[A-Z0-9]{16}$/), name: 'Signer 0', email: 'signer0@people.test', role: 'SIGNER' },
          { id: expect.stringMatching(/^[A-Z0-9]{16}$/), name: 'Signer 1', email: 'signer1@people.test', role: 'SIGNER' },
        ],
        documents: [{ name: 'Lease' }],
      });
      expect(body.signProfile[0].id).not.toBe(body.signProfile[1].id);
      const mails = (await outbox(svc, 'email')).slice(before);
      expect(mails.map((m) => m.body.to)).toEqual(['signer0@people.test', 'signer1@people.test']);
      expect(mails[0]?.body).toMatchObject({ subject: 'Please sign the lease', template: 'signing-invitation' });
      expect(String(mails[0]?.body.text)).toContain('Thanks!');
      expect(String(mails[0]?.body.text)).toMatch(/http:\/\/service\.test\/s\/[A-Za-z0-9_-]{32}/);
    });

    it('the stored document is the PDF sent, byte for byte', async () => {
      const code = await createProcess(svc, svc.orgA, '/document/upload', pdfProcess(svc.orgA));
      const view = (await call(svc.app, 'GET', '/document', { key: svc.orgA.privateKey, query: { code } })).json();
      const download = await svc.app.inject({ method: 'GET', url: localPath(view.documents[0].url) });
      expect(download.rawPayload.equals(PDF_BYTES)).toBe(true);
    });

    it('a participant with notification false is not invited: the answer carries their link', async () => {
      const before = (await outbox(svc, 'email')).length;
      const res = await post('/document/upload', pdfProcess(svc.orgA, { signProfile: [{ name: 'Ana', email: 'ana@people.test', notification: false }] }));
      expect(res.json().signProfile[0].url).toMatch(/^http:\/\/service\.test\/s\//);
      expect((await outbox(svc, 'email')).length).toBe(before);
    });

    it('options.whatsapp invites through WhatsApp; options.both through WhatsApp and e-mail', async () => {
      const whatsappBefore = (await outbox(svc, 'whatsapp')).length;
      const emailBefore = (await outbox(svc, 'email')).length;
      await createProcess(
        svc,
        svc.orgA,
        '/document/upload',
        pdfProcess(svc.orgA, {
          signProfile: [
            { name: 'Ana', email: 'ana@people.test', phone: '+573001234567', options: { whatsapp: true } },
            { name: 'Luis', email: 'luis@people.test', phone: '+573001234568', options: { whatsapp: true, both: true } },
          ],
        }),
      );
      expect((await outbox(svc, 'whatsapp')).slice(whatsappBefore).map((m) => m.body.to)).toEqual(['+573001234567', '+573001234568']);
      expect((await outbox(svc, 'email')).slice(emailBefore).map((m) => m.body.to)).toEqual(['luis@people.test']);
    });

    it('creation writes the audit trail and the document.created webhook', async () => {
      const code = await createProcess(svc, svc.orgA, '/document/upload', pdfProcess(svc.orgA));
      const roadmap = (await call(svc.app, 'GET', '/document/roadmap', { key: svc.orgA.privateKey, query: { code } })).json();
      expect(roadmap.activityLog.map((e: { action: string }) => e.action)).toEqual(['CREATE', 'NOTIFICATION_SIGN', 'NOTIFICATION_SIGN']);
      expect(roadmap.activityLog[1]).toMatchObject({ platform: 'EMAIL' });
      expect((await webhookTypes(svc, svc.orgA)).at(-1)).toBe('document.created');
    });
  });

  describe('POST /document/upload refuses what cannot become a process', () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['a missing signProfile', { signProfile: undefined }, '"signProfile" is required'],
      ['neither file nor compress', { file: undefined }, '"value" must contain at least one of [file, compress, document]'],
      ['both file and compress', { compress: true }, '"value" contains a conflict between exclusive peers [file, compress, document]'],
      ['a file that is not a PDF', { file: Buffer.from('hello world').toString('base64') }, 'FILE_NOT_VALID: not a PDF'],
      ['an expiry date within three days', { expiredDate: new Date(Date.now() + 2 * DAY).toISOString() }, 'EXPIRED_DATE_INVALID'],
      ['a creator who is not a user of the organization', { email: 'stranger@nowhere.test' }, 'USER_NOTFOUND'],
      ['a target webhook that does not exist', { targetWebhooks: ['ghost'] }, 'WEBHOOK_NOT_FOUND: ghost'],
      ['two signers with one e-mail', { signProfile: [signers(1)[0], signers(1)[0]] }, '"signProfile[1]" contains a duplicate value'],
      [
        'a phone without country code',
        { signProfile: [{ name: 'A', email: 'a@people.test', phone: '3001234567' }] },
        '"signProfile[0].phone" must be a valid phone number in the format +[country code][number]',
      ],
      ['reminders not in multiples of 3 hours', { remember: 4 }, '"remember" must be a multiple of 3'],
      ['an unknown field', { colour: 'red' }, '"colour" is not allowed'],
    ];
    it.each(cases)('400 for %s', async (_case, overrides, message) => {
      const res = await post('/document/upload', pdfProcess(svc.orgA, overrides));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message });
    });

    it('413 for a PDF over UPLOAD_MAX_BYTES', async () => {
      const big = Buffer.concat([PDF_BYTES, Buffer.alloc(svc.config.uploadMaxBytes)]);
      const res = await post('/document/upload', pdfProcess(svc.orgA, { file: big.toString('base64') }));
      expect(res.statusCode).toBe(413);
    });
  });

  describe('identity validations are resolved per signer and refused with the rule that failed', () => {
    it("GET /document shows each signer's effective validations (total precedence of the signer level)", async () => {
      const code = await createProcess(
        svc,
        svc.orgA,
        '/document/upload',
        pdfProcess(svc.orgA, {
          camera: true,
          otpCode: true,
          options: { camera: 'photo', otpCode: 'email' },
          signProfile: [
            { name: 'Inherits', email: 'a@people.test' },
            { name: 'Own', email: 'b@people.test', otpCode: true },
          ],
        }),
      );
      const view = (await call(svc.app, 'GET', '/document', { key: svc.orgA.privateKey, query: { code } })).json();
      expect(view.signProfile.map((p: { validations: unknown }) => p.validations)).toEqual([
        {
          camera: true,
          otpCode: true,
          options: { camera: 'photo', otpCode: 'email', whatsapp: false, both: false, identificationCardBack: false },
          source: 'global',
          channels: ['email'],
        },
        {
          camera: false,
          otpCode: true,
          options: { otpCode: 'email', whatsapp: false, both: false, identificationCardBack: false },
          source: 'signer',
          channels: ['email'],
        },
      ]);
    });

    const refused: [string, Record<string, unknown>, string][] = [
      [
        'rule 5: a global camera does not satisfy signProfile[x].options.camera',
        { camera: true, signProfile: [{ name: 'A', email: 'a@people.test', options: { camera: 'photo' } }] },
        '"signProfile[0].options.camera" requires "signProfile[0].camera" to be true (a global "camera" does not apply to a signer with its own validations)',
      ],
      [
        'rule 5 at the root: options.otpCode without otpCode',
        { options: { otpCode: 'phone' } },
        '"options.otpCode" requires "otpCode" to be true at the same level',
      ],
      [
        'rule 3: identification needs identification, identificationType and country',
        { signProfile: [{ name: 'A', email: 'a@people.test', camera: true, options: { camera: 'identification' }, identification: '123' }] },
        '"signProfile[0].options.camera" identification requires "signProfile[0].identificationType", "signProfile[0].country"',
      ],
      ['both is not a top-level parameter', { both: true }, '"both" is not allowed at the root: use "options.both"'],
      [
        'both is not signProfile[x].both',
        { signProfile: [{ name: 'A', email: 'a@people.test', both: true }] },
        '"signProfile[0].both" is not allowed: use "signProfile[0].options.both"',
      ],
      [
        'identificationCardBack only with WhatsApp',
        { options: { identificationCardBack: true } },
        '"options.identificationCardBack" is only available with "options.whatsapp": true',
      ],
    ];
    it.each(refused)('400 %s', async (_rule, overrides, message) => {
      const res = await post('/document/upload', pdfProcess(svc.orgA, overrides));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message });
    });
  });

  describe('POST /document/upload with compress: the PDF arrives through an upload URL', () => {
    it('participants wait until the PDF arrives, then are invited', async () => {
      const before = (await outbox(svc, 'email')).length;
      const res = await post('/document/upload', pdfProcess(svc.orgA, { file: undefined, compress: true }));
      expect(res.statusCode).toBe(200);
      const { code, url } = res.json();
      expect(url).toMatch(/^http:\/\/service\.test\/files\/documents\/[0-9a-f]{2}\/[0-9a-f]{24}-0\.pdf\?/);
      expect((await stored(svc, svc.orgA, code)).participants.map((p) => p.status)).toEqual(['PENDING', 'PENDING']);
      expect((await outbox(svc, 'email')).length).toBe(before);

      const notPdf = await svc.app.inject({ method: 'PUT', url: localPath(url), headers: { 'content-type': 'application/pdf' }, payload: 'nope' });
      expect(notPdf.statusCode).toBe(400);
      expect(notPdf.json()).toEqual({ message: 'FILE_NOT_VALID: not a PDF' });

      const up = await svc.app.inject({ method: 'PUT', url: localPath(url), headers: { 'content-type': 'application/pdf' }, payload: PDF_BYTES });
      expect(up.statusCode).toBe(200);
      expect((await stored(svc, svc.orgA, code)).participants.map((p) => p.status)).toEqual(['NOTIFICATION', 'NOTIFICATION']);
      expect((await outbox(svc, 'email')).length).toBe(before + 2);

      const again = await svc.app.inject({ method: 'PUT', url: localPath(url), headers: { 'content-type': 'application/pdf' }, payload: PDF_BYTES });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({ message: 'DOCUMENT_ALREADY_UPLOADED' });
    });

    it('the upload URL takes application/pdf only', async () => {
      const { url } = (await post('/document/upload', pdfProcess(svc.orgA, { file: undefined, compress: true }))).json();
      const res = await svc.app.inject({ method: 'PUT', url: localPath(url), headers: { 'content-type': 'text/html' }, payload: PDF_BYTES });
      expect(res.statusCode).toBe(415);
    });
  });

  describe('POST /document/save creates a process from a template and its answers', () => {
    let templateId: string;
    beforeAll(async () => {
      templateId = await templateWithHtml(svc, svc.orgA);
    });

    it('the Complete HTML filled with the answers becomes the document; signers come from the template', async () => {
      const res = await post('/document/save', { email: svc.orgA.email, name: 'Sale', document: templateId, data: ANSWERS });
      expect(res.statusCode).toBe(200);
      expect(res.json().signProfile.map((p: { email: string }) => p.email)).toEqual(['ana@buyer.test', 'luis@seller.test']);
      const view = (await call(svc.app, 'GET', '/document', { key: svc.orgA.privateKey, query: { code: res.json().code } })).json();
      expect(view.documents).toMatchObject([{ name: 'Purchase agreement', source: 'template', template: templateId, ready: true }]);
      expect(view.signProfile.map((p: { type: string }) => p.type)).toEqual(['buyer', 'seller']);
      const html = (await svc.app.inject({ method: 'GET', url: localPath(view.documents[0].url) })).body;
      expect(html).toContain('<span name="buyer_name">ANA GÓMEZ</span>');
      expect(html).toContain('<span name="price">50.000</span>');
    });

    it('an explicit signProfile replaces the template signers', async () => {
      const res = await post('/document/save', { email: svc.orgA.email, name: 'Sale', document: templateId, data: ANSWERS, signProfile: signers(1) });
      expect(res.json().signProfile.map((p: { email: string }) => p.email)).toEqual(['signer0@people.test']);
    });

    const refused: [string, () => Record<string, unknown>, string][] = [
      ['a required answer is missing', () => ({ data: ANSWERS.filter((a) => a.key !== 'price') }), '"price" is required'],
      [
        'a clausula answer that is not an option',
        () => ({ data: [...ANSWERS, { key: 'payment', value: 'barter' }] }),
        '"payment" must be one of [cash, instalments]',
      ],
      ['an answer to no question', () => ({ data: [...ANSWERS, { key: 'ghost', value: 'x' }] }), '"ghost" is not a question of the template'],
      ['the template of another organization', () => ({ document: 'ffffffffffffffffffffffff' }), 'TEMPLATE_NOT_FOUND'],
      ['sign is not a boolean (false is printing: test/document-print.test.ts)', () => ({ sign: 'no' }), '"sign" must be a boolean'],
    ];
    it.each(refused)('400 when %s', async (_case, overrides, message) => {
      const res = await post('/document/save', { email: svc.orgA.email, name: 'Sale', document: templateId, data: ANSWERS, ...overrides() });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message });
    });

    it("another organization's template is TEMPLATE_NOT_FOUND", async () => {
      const res = await post('/document/save', { email: svc.orgB.email, name: 'Sale', document: templateId, data: ANSWERS }, svc.orgB.privateKey);
      expect(res.json()).toEqual({ message: 'TEMPLATE_NOT_FOUND' });
    });

    it('a template whose Complete HTML was never uploaded cannot make a document', async () => {
      const created = (await call(svc.app, 'POST', '/template', { key: svc.orgA.privateKey, body: sampleTemplate() })).json();
      const res = await post('/document/save', { email: svc.orgA.email, name: 'Sale', document: created.id, data: ANSWERS });
      expect(res.json()).toEqual({ message: 'TEMPLATE_HTML_MISSING: upload the Complete HTML of the template first' });
    });
  });

  describe('a process is filled from the Complete HTML as last uploaded (the parse kept beside the template cache follows every upload)', () => {
    /** A template of `org` with its Complete HTML uploaded; answers its id and the URL to upload that HTML again. */
    const templateAndUploadUrl = async (org: TestService['orgA']): Promise<{ id: string; complete: string }> => {
      const created = (await call(svc.app, 'POST', '/template', { key: org.privateKey, body: sampleTemplate() })).json();
      await upload(created.urls.complete, '<p>First: <span name="buyer_name">x</span></p>');
      return { id: created.id, complete: created.urls.complete };
    };
    const upload = async (url: string, html: string) => {
      const res = await svc.app.inject({ method: 'PUT', url: localPath(url), headers: { 'content-type': 'text/html' }, payload: html });
      expect(res.statusCode).toBe(200);
    };
    const documentOf = async (org: TestService['orgA'], templateId: string): Promise<string> => {
      const res = await post('/document/save', { email: org.email, name: 'Sale', document: templateId, data: ANSWERS }, org.privateKey);
      expect(res.statusCode).toBe(200);
      const view = (await call(svc.app, 'GET', '/document', { key: org.privateKey, query: { code: res.json().code } })).json();
      return (await svc.app.inject({ method: 'GET', url: localPath(view.documents[0].url) })).body;
    };

    it('an upload of new HTML through the upload URL is used by the next process', async () => {
      const template = await templateAndUploadUrl(svc.orgA);
      expect(await documentOf(svc.orgA, template.id)).toBe('<p>First: <span name="buyer_name">ANA GÓMEZ</span></p>');
      await upload(template.complete, '<p>Second: <span name="buyer_name">x</span></p>');
      expect(await documentOf(svc.orgA, template.id)).toBe('<p>Second: <span name="buyer_name">ANA GÓMEZ</span></p>');
    });

    it('new HTML uploaded through the URLs of PUT /template is used by the next process', async () => {
      const template = await templateAndUploadUrl(svc.orgA);
      await documentOf(svc.orgA, template.id);
      const updated = await call(svc.app, 'PUT', '/template', { key: svc.orgA.privateKey, body: { id: template.id, description: 'New text' } });
      expect(updated.statusCode).toBe(200);
      await upload(updated.json().urls.complete, '<p>Updated: <span name="buyer_name">x</span></p>');
      expect(await documentOf(svc.orgA, template.id)).toBe('<p>Updated: <span name="buyer_name">ANA GÓMEZ</span></p>');
    });

    it("each organization's processes use its own template's HTML", async () => {
      const ours = await templateAndUploadUrl(svc.orgA);
      const theirs = await templateAndUploadUrl(svc.orgB);
      await upload(theirs.complete, '<p>Theirs: <span name="buyer_name">x</span></p>');
      expect(await documentOf(svc.orgA, ours.id)).toBe('<p>First: <span name="buyer_name">ANA GÓMEZ</span></p>');
      expect(await documentOf(svc.orgB, theirs.id)).toBe('<p>Theirs: <span name="buyer_name">ANA GÓMEZ</span></p>');
    });
  });

  describe("a creation's SQL statements are compiled once, not on every call", () => {
    it('creating processes and face validations again builds no statement, but for multi-row INSERTs on PostgreSQL', async () => {
      const templateId = await templateWithHtml(svc, svc.orgB);
      const create = () => post('/document/save', { email: svc.orgB.email, name: 'Sale', document: templateId, data: ANSWERS }, svc.orgB.privateKey);
      const verify = () => call(svc.app, 'POST', '/veriface', { key: svc.orgA.privateKey, body: verifaceBody(svc.orgA.email) });
      expect((await create()).statusCode).toBe(200);
      expect((await verify()).statusCode).toBe(200);
      const compiled = vi.spyOn(DefaultQueryCompiler.prototype, 'compileQuery');
      onTestFinished(() => compiled.mockRestore());
      expect((await create()).statusCode).toBe(200);
      expect((await verify()).statusCode).toBe(200);
      const statements = compiled.mock.results.map((result) => (result.type === 'return' ? result.value.sql : result.type));
      // On PostgreSQL several rows still share one INSERT, built for their number (a round trip each saved).
      const multiRowInserts = statements.filter((statement) => /^insert into .* values \(.*\), \(/.test(statement));
      expect(multiRowInserts).toEqual(dialect === 'sqlite' ? [] : statements);
      expect(statements).toEqual(multiRowInserts);
    });
  });

  describe('POST /document/many creates a package: several documents, one code, global validations only', () => {
    it('DOCUMENTS_MIN_TWO for fewer than two documents', async () => {
      const res = await post('/document/many', { email: svc.orgA.email, name: 'Pack', documents: [{ file: PDF_BASE64, signProfile: signers(1) }] });
      expect(res.json()).toEqual({ message: 'DOCUMENTS_MIN_TWO' });
    });

    it('only the root validations apply, to every participant (rule 6); per-signer ones are refused with 400, not dropped', async () => {
      const perSigner = await post('/document/many', {
        email: svc.orgA.email,
        name: 'Pack',
        otpCode: true,
        documents: [
          { name: 'One', file: PDF_BASE64, signProfile: [{ name: 'Ana', email: 'ana@people.test', camera: true, options: { camera: 'photo' } }] },
          { name: 'Two', file: PDF_BASE64, signProfile: [{ name: 'Ana', email: 'ana@people.test' }] },
        ],
      });
      expect(perSigner.statusCode).toBe(400);
      expect(perSigner.json().message).toMatch(/^SIGNER_VALIDATIONS_NOT_SUPPORTED: "documents\[0\]\.signProfile\[0\]\.camera"/);
      const res = await post('/document/many', {
        email: svc.orgA.email,
        name: 'Pack',
        otpCode: true,
        documents: [
          { name: 'One', file: PDF_BASE64, signProfile: [{ name: 'Ana', email: 'ana@people.test' }] },
          {
            name: 'Two',
            file: PDF_BASE64,
            signProfile: [
              { name: 'Ana', email: 'ana@people.test' },
              { name: 'Luis', email: 'luis@people.test' },
            ],
          },
        ],
      });
      expect(res.statusCode).toBe(200);
      const { code } = res.json();
      expect(res.json().package).toBe(code);
      const view = (await call(svc.app, 'GET', '/document', { key: svc.orgA.privateKey, query: { code } })).json();
      expect(view.kind).toBe('package');
      expect(view.documents.map((d: { name: string }) => d.name)).toEqual(['One', 'Two']);
      expect(
        view.signProfile.map((p: { email: string; validations: { camera: boolean; otpCode: boolean; source: string } }) => [
          p.email,
          p.validations.camera,
          p.validations.otpCode,
          p.validations.source,
        ]),
      ).toEqual([
        ['ana@people.test', false, true, 'global'],
        ['luis@people.test', false, true, 'global'],
      ]);
      expect((await webhookTypes(svc, svc.orgA)).at(-1)).toBe('package.created');
    });

    it('with compress, each document without a file gets its own upload URL', async () => {
      const res = await post('/document/many', {
        email: svc.orgA.email,
        name: 'Pack',
        compress: true,
        signProfile: signers(1),
        documents: [{ name: 'One' }, { name: 'Two', file: PDF_BASE64 }],
      });
      const { documents } = res.json();
      expect(documents[0].url).toMatch(/\/files\/documents\/[0-9a-f]{2}\/[0-9a-f]{24}-0\.pdf\?/);
      expect(documents[1]).toEqual({ name: 'Two', code: expect.stringMatching(/^[A-Z0-9]{10}$/) });
    });

    it('SIGNER_SEQUENCE_NOT_SUPPORTED: no turns in a package', async () => {
      const res = await post('/document/many', {
        email: svc.orgA.email,
        name: 'Pack',
        signProfile: [{ name: 'Ana', email: 'ana@people.test', order: 1 }],
        documents: [{ file: PDF_BASE64 }, { file: PDF_BASE64 }],
      });
      expect(res.json()).toEqual({ message: 'SIGNER_SEQUENCE_NOT_SUPPORTED' });
    });

    it('a document with neither template, file nor compress is refused', async () => {
      const res = await post('/document/many', {
        email: svc.orgA.email,
        name: 'Pack',
        signProfile: signers(1),
        documents: [{ name: 'One' }, { file: PDF_BASE64 }],
      });
      expect(res.json()).toEqual({ message: '"documents[0]" needs "document" (a template id), "file" (a PDF in base64), or "compress": true at the root' });
    });
  });

  describe("organizations never see each other's processes", () => {
    it("another organization's code is DOCUMENT_NOT_FOUND and its list does not show it", async () => {
      const code = await createProcess(svc, svc.orgA, '/document/upload', pdfProcess(svc.orgA));
      const res = await call(svc.app, 'GET', '/document', { key: svc.orgB.privateKey, query: { code } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: 'DOCUMENT_NOT_FOUND' });
      const list = (await call(svc.app, 'GET', '/document', { key: svc.orgB.privateKey })).json();
      expect(list.data.map((p: { code: string }) => p.code)).not.toContain(code);
      const roadmap = await call(svc.app, 'GET', '/document/roadmap', { key: svc.orgB.privateKey, query: { code } });
      expect(roadmap.json()).toEqual({ message: 'DOCUMENT_NOT_FOUND' });
    });
  });
});
