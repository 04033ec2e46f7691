import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, dialects, localPath, startServiceWithBothWebhookFormats, type TestOrganization, type TestService } from './support/service.js';
import { ANSWERS, createProcess, endProcess, outbox, PDF_BASE64, pdfProcess, readAndSign, stored, templateWithHtml } from './support/signing.js';

describe.each(dialects)('edit mode: a process is put in edit mode, then sent again whole under the same code (%s)', (dialect) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startServiceWithBothWebhookFormats(dialect);
  });
  afterAll(async () => svc.close());

  const mark = (code: string, org = svc.orgA) => call(svc.app, 'POST', '/document/edit', { key: org.privateKey, body: { code } });
  const markPackage = (code: string, org = svc.orgA) => call(svc.app, 'POST', '/package/edit', { key: org.privateKey, body: { package: code } });
  const readEdit = (code: string, org = svc.orgA) => call(svc.app, 'GET', '/document/edit', { key: org.privateKey, query: { code } });
  const view = async (code: string, org = svc.orgA) => (await call(svc.app, 'GET', '/document', { key: org.privateKey, query: { code } })).json();
  const roadmapActions = async (code: string) =>
    (await call(svc.app, 'GET', '/document/roadmap', { key: svc.orgA.privateKey, query: { code } }))
      .json()
      .activityLog.map((l: { action: string }) => l.action);
  const signingPage = (token: string) => svc.app.inject({ method: 'GET', url: '/people/signing', headers: { 'x-link-token': token } });
  /** The webhooks queued for `org`: each typed event and each flat body. */
  const webhooks = async (org: TestOrganization): Promise<Record<string, unknown>[]> =>
    (await outbox(svc, 'webhook')).filter((row) => row.organization_id === org.id).map((row) => (row.body.flat ?? row.body.event) as Record<string, unknown>);
  const packageBody = (org: TestOrganization, overrides: Record<string, unknown> = {}) => ({
    email: org.email,
    name: 'Onboarding',
    signProfile: [{ name: 'Ana Gómez', email: 'ana@people.test' }],
    documents: [
      { name: 'Contract', file: PDF_BASE64 },
      { name: 'Annex', file: PDF_BASE64 },
    ],
    ...overrides,
  });

  describe('POST /document/edit marks a process nobody has acted on: DOCUMENT_MODIFIED, status EDITING, roadmap EDIT_SIGN, webhook', () => {
    it('answers {message: DOCUMENT_MODIFIED}; GET /document says EDITING; the roadmap and the webhook record it', async () => {
      const code = await createProcess(svc, svc.orgA, '/document/upload', pdfProcess(svc.orgA));
      const res = await mark(code);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ message: 'DOCUMENT_MODIFIED' });
      expect(await view(code)).toMatchObject({ code, status: 'EDITING' });
      expect(await roadmapActions(code)).toContain('EDIT_SIGN');
      const typed = (await webhooks(svc.orgA)).filter((e) => e.type === 'document.editing');
      expect(typed.at(-1)).toMatchObject({ type: 'document.editing', data: { code, status: 'EDITING' } });
    });

    it("organization B can neither mark nor read A's process: DOCUMENT_NOT_FOUND, and A's stays in signature", async () => {
      const code = await createProcess(svc, svc.orgA, '/document/upload', pdfProcess(svc.orgA));
      expect((await mark(code, svc.orgB)).json()).toEqual({ message: 'DOCUMENT_NOT_FOUND' });
      expect((await readEdit(code, svc.orgB)).json()).toEqual({ message: 'DOCUMENT_NOT_FOUND' });
      expect((await view(code)).status).toBe('CREATED');
    });

    it('the public key cannot mark (401) nor read edit mode (403)', async () => {
      const code = await createProcess(svc, svc.orgA, '/document/upload', pdfProcess(svc.orgA));
      expect((await call(svc.app, 'POST', '/document/edit', { key: svc.orgA.publicKey, body: { code } })).statusCode).toBe(401);
      expect((await call(svc.app, 'GET', '/document/edit', { key: svc.orgA.publicKey, query: { code } })).statusCode).toBe(403);
    });
  });

  describe('allowed only while nobody has signed, approved or rejected, in signature, and not in edit mode already', () => {
    it('a process someone signed is DOCUMENT_NOT_EDITABLE, naming who', async () => {
      const code = await createProcess(svc, svc.orgA, '/document/upload', pdfProcess(svc.orgA));
      const { participants } = await stored(svc, svc.orgA, code);
      await readAndSign(svc.deps, { token: participants[0]?.link_token ?? '' });
      const res = await mark(code);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('DOCUMENT_NOT_EDITABLE: Signer 0 has acted (FINISH)');
    });

    it('a finished, rejected or cancelled process, or one in edit mode already, is DOCUMENT_NOT_EDITABLE', async () => {
      for (const end of ['FINISH', 'REJECTED', 'CANCELLED'] as const) {
        const code = await createProcess(svc, svc.orgA, '/document/upload', pdfProcess(svc.orgA));
        await endProcess(svc, svc.orgA, code, end);
        expect((await mark(code)).json().message).toMatch(/^DOCUMENT_NOT_EDITABLE: /);
      }
      const code = await createProcess(svc, svc.orgA, '/document/upload', pdfProcess(svc.orgA));
      await mark(code);
      expect((await mark(code)).json()).toEqual({ message: 'DOCUMENT_NOT_EDITABLE: it is in edit mode already' });
    });

    it("a package's code on /document/edit is DOCUMENT_NOT_FOUND (a package is edited whole, with /package/edit)", async () => {
      const code = await createProcess(svc, svc.orgA, '/document/many', packageBody(svc.orgA));
      expect((await mark(code)).json()).toEqual({ message: 'DOCUMENT_NOT_FOUND' });
      expect((await markPackage(code)).json()).toEqual({ message: 'PACKAGE_MODIFIED' });
    });
  });

  describe('meanwhile a participant holding their link is told the document is being corrected, sees no document, and cannot act', () => {
    it('their page is in state editing with no documents; signing is refused; no reminder and no expiry happen', async () => {
      const code = await createProcess(svc, svc.orgA, '/document/upload', pdfProcess(svc.orgA));
      const token = (await stored(svc, svc.orgA, code)).participants[0]?.link_token ?? '';
      await mark(code);
      const page = (await signingPage(token)).json();
      expect(page).toMatchObject({ state: 'editing', documents: [] });
      await expect(readAndSign(svc.deps, { token })).rejects.toThrow('DOCUMENT_NOT_IN_SIGNATURE');
      const participant = (await stored(svc, svc.orgA, code)).participants[0];
      const reminder = await call(svc.app, 'POST', '/document/reminder', { key: svc.orgA.privateKey, body: { code: `${code}${participant?.participant_id}` } });
      expect(reminder.json().message).toMatch(/^DOCUMENT_NOT_IN_SIGNATURE/);
    });
  });

  describe('GET /document/edit answers the marked process: its fields, participants pending, documents with 5-minute URLs', () => {
    it('answers {code, name, subject, message, status, signers, documents}; the URL opens the PDF', async () => {
      const code = await createProcess(svc, svc.orgA, '/document/upload', pdfProcess(svc.orgA, { subject: 'Please sign', message: 'Hello' }));
      await mark(code);
      const res = await readEdit(code);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({
        code,
        kind: 'document',
        name: 'Lease',
        status: 'EDITING',
        subject: 'Please sign',
        message: 'Hello',
        signers: [
          { name: 'Signer 0', email: 'signer0@people.test', status: 'pending' },
          { name: 'Signer 1', email: 'signer1@people.test', status: 'pending' },
        ],
      });
      expect(body.documents).toHaveLength(1);
      expect(body.documents[0]).toMatchObject({ code, name: 'Lease', url: expect.any(String) });
      const pdf = await svc.app.inject({ method: 'GET', url: localPath(body.documents[0].url) });
      expect(pdf.statusCode).toBe(200);
      expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    });

    it('a process not in edit mode is DOCUMENT_NOT_IN_EDIT', async () => {
      const code = await createProcess(svc, svc.orgA, '/document/upload', pdfProcess(svc.orgA));
      expect((await readEdit(code)).json().message).toBe('DOCUMENT_NOT_IN_EDIT: it is CREATED');
    });
  });

  describe('POST /document/upload with code overwrites the process in edit mode, keeping its code; participants are replaced and invited again', () => {
    it('same code and creation date, the new name and participants, new links; the old link opens nothing; UPDATE_SIGN and the webhooks', async () => {
      const targetWebhooks = ['default', 'flat'];
      const code = await createProcess(svc, svc.orgA, '/document/upload', pdfProcess(svc.orgA, { tags: ['lease'], targetWebhooks }));
      const webhooksOfB = (await webhooks(svc.orgB)).length;
      const before = await stored(svc, svc.orgA, code);
      await mark(code);
      const invitationsBefore = (await outbox(svc, 'email')).length;
      const res = await call(svc.app, 'POST', '/document/upload', {
        key: svc.orgA.privateKey,
        body: pdfProcess(svc.orgA, { code, targetWebhooks, name: 'Lease, corrected', signProfile: [{ name: 'Rosa Díaz', email: 'rosa@people.test' }] }),
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ code, document: code, signProfile: [{ name: 'Rosa Díaz', email: 'rosa@people.test' }] });
      const after = await stored(svc, svc.orgA, code);
      expect(after.process).toMatchObject({
        id: before.process.id,
        status: 'CREATED',
        name: 'Lease, corrected',
        created_at: before.process.created_at,
        tags: null,
      });
      expect(after.participants.map((p) => p.email)).toEqual(['rosa@people.test']);
      expect((await signingPage(before.participants[0]?.link_token ?? '')).statusCode).toBe(404);
      expect((await signingPage(after.participants[0]?.link_token ?? '')).json()).toMatchObject({ state: 'act' });
      const invited = (await outbox(svc, 'email')).slice(invitationsBefore);
      expect(invited.map((row) => row.body.to)).toEqual(['rosa@people.test']);
      const actions = await roadmapActions(code);
      expect(actions.slice(actions.indexOf('EDIT_SIGN'), actions.indexOf('EDIT_SIGN') + 3)).toEqual(['EDIT_SIGN', 'UPDATE_SIGN', 'NOTIFICATION_SIGN']);
      const sent = await webhooks(svc.orgA);
      expect(sent.filter((e) => e.type === 'document.updated').at(-1)).toMatchObject({ data: { code, status: 'UPDATE' } });
      expect(sent.filter((e) => e.code === code && e.status === 'CREATE')).toHaveLength(2);
      expect(await webhooks(svc.orgB)).toHaveLength(webhooksOfB);
      await endProcess(svc, svc.orgA, code, 'FINISH');
    });

    it("a code not in edit mode is DOCUMENT_NOT_IN_EDIT; an unknown code, or another organization's, DOCUMENT_NOT_FOUND", async () => {
      const code = await createProcess(svc, svc.orgA, '/document/upload', pdfProcess(svc.orgA));
      const overwrite = (org: TestOrganization) => call(svc.app, 'POST', '/document/upload', { key: org.privateKey, body: pdfProcess(org, { code }) });
      expect((await overwrite(svc.orgA)).json().message).toBe('DOCUMENT_NOT_IN_EDIT: it is CREATED');
      await mark(code);
      expect((await overwrite(svc.orgB)).json()).toEqual({ message: 'DOCUMENT_NOT_FOUND' });
      expect((await view(code)).status).toBe('EDITING');
      expect((await stored(svc, svc.orgA, code)).participants).toHaveLength(2);
    });
  });

  describe('POST /document/save with code overwrites it from a template', () => {
    it('the process keeps its code and becomes the template document', async () => {
      const template = await templateWithHtml(svc, svc.orgA);
      const code = await createProcess(svc, svc.orgA, '/document/upload', pdfProcess(svc.orgA));
      await mark(code);
      const res = await call(svc.app, 'POST', '/document/save', {
        key: svc.orgA.privateKey,
        body: { code, email: svc.orgA.email, name: 'Sale', document: template, data: ANSWERS },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().code).toBe(code);
      expect(await view(code)).toMatchObject({ status: 'CREATED', name: 'Sale', documents: [{ source: 'template', template }] });
    });
  });

  describe('a package: each document answers its own code; /package/edit and /document/many with package overwrite it, its documents getting new codes', () => {
    it('POST /document/many answers package, id and a code per document, none the package code', async () => {
      const res = await call(svc.app, 'POST', '/document/many', { key: svc.orgA.privateKey, body: packageBody(svc.orgA) });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body.package).toBe(body.code);
      expect(body.id).toBe(body.code);
      const codes = body.documents.map((d: { code: string }) => d.code);
      expect(codes).toEqual([expect.stringMatching(/^[A-Z0-9]{10}$/), expect.stringMatching(/^[A-Z0-9]{10}$/)]);
      expect(new Set([...codes, body.code]).size).toBe(3);
    });

    it('GET /package/edit lists each document with its code; the overwrite keeps the package code and gives new document codes', async () => {
      const created = (await call(svc.app, 'POST', '/document/many', { key: svc.orgA.privateKey, body: packageBody(svc.orgA) })).json();
      expect((await markPackage(created.code)).json()).toEqual({ message: 'PACKAGE_MODIFIED' });
      const edit = (await call(svc.app, 'GET', '/package/edit', { key: svc.orgA.privateKey, query: { package: created.code } })).json();
      expect(edit).toMatchObject({ code: created.code, kind: 'package', status: 'EDITING', signers: [{ name: 'Ana Gómez', status: 'pending' }] });
      expect(edit.documents.map((d: { code: string }) => d.code)).toEqual(created.documents.map((d: { code: string }) => d.code));
      const res = await call(svc.app, 'POST', '/document/many', {
        key: svc.orgA.privateKey,
        body: packageBody(svc.orgA, { package: created.code, name: 'Onboarding, corrected' }),
      });
      expect(res.statusCode, res.body).toBe(200);
      const overwritten = res.json();
      expect(overwritten.package).toBe(created.code);
      for (const document of overwritten.documents) expect(created.documents.map((d: { code: string }) => d.code)).not.toContain(document.code);
      expect(await view(created.code)).toMatchObject({ status: 'CREATED', name: 'Onboarding, corrected' });
    });

    it("organization B cannot mark, read or overwrite A's package: PACKAGE_NOT_FOUND", async () => {
      const code = await createProcess(svc, svc.orgA, '/document/many', packageBody(svc.orgA));
      expect((await markPackage(code, svc.orgB)).json()).toEqual({ message: 'PACKAGE_NOT_FOUND' });
      await markPackage(code);
      expect((await call(svc.app, 'GET', '/package/edit', { key: svc.orgB.privateKey, query: { package: code } })).json()).toEqual({
        message: 'PACKAGE_NOT_FOUND',
      });
      const res = await call(svc.app, 'POST', '/document/many', { key: svc.orgB.privateKey, body: packageBody(svc.orgB, { package: code }) });
      expect(res.json()).toEqual({ message: 'PACKAGE_NOT_FOUND' });
      expect((await view(code)).status).toBe('EDITING');
    });
  });

  describe('/document/many refuses per-signer validations with 400 rather than dropping them', () => {
    it('camera, otpCode or options in a signer is SIGNER_VALIDATIONS_NOT_SUPPORTED, naming the field', async () => {
      for (const validation of [{ camera: true }, { otpCode: true }, { options: { whatsapp: true } }]) {
        const body = packageBody(svc.orgA, { signProfile: [{ name: 'Ana Gómez', email: 'ana@people.test', ...validation }] });
        const res = await call(svc.app, 'POST', '/document/many', { key: svc.orgA.privateKey, body });
        expect(res.statusCode).toBe(400);
        expect(res.json().message).toMatch(/^SIGNER_VALIDATIONS_NOT_SUPPORTED: "signProfile\[0\]\.(camera|otpCode|options)"/);
      }
      const inDocument = packageBody(svc.orgA, {
        signProfile: undefined,
        documents: [
          { file: PDF_BASE64, signProfile: [{ name: 'Ana Gómez', email: 'ana@people.test', camera: true }] },
          { file: PDF_BASE64, signProfile: [{ name: 'Ana Gómez', email: 'ana@people.test' }] },
        ],
      });
      const res = await call(svc.app, 'POST', '/document/many', { key: svc.orgA.privateKey, body: inDocument });
      expect(res.json().message).toMatch(/^SIGNER_VALIDATIONS_NOT_SUPPORTED: "documents\[0\]\.signProfile\[0\]\.camera"/);
    });
  });

  describe('edit mode is left only by the overwrite, or by cancelling; the process holds its templates meanwhile', () => {
    it('POST /document/cancel cancels a process in edit mode', async () => {
      const code = await createProcess(svc, svc.orgA, '/document/upload', pdfProcess(svc.orgA));
      await mark(code);
      await endProcess(svc, svc.orgA, code, 'CANCELLED');
    });

    it('a template whose process is in edit mode is TEMPLATE_IN_USE', async () => {
      const template = await templateWithHtml(svc, svc.orgA);
      const code = await createProcess(svc, svc.orgA, '/document/save', { email: svc.orgA.email, name: 'Sale', document: template, data: ANSWERS });
      await mark(code);
      expect((await call(svc.app, 'DELETE', '/template', { key: svc.orgA.privateKey, query: { id: template } })).json()).toEqual({
        message: 'TEMPLATE_IN_USE',
      });
    });
  });
});
