import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATTACHMENT_MAX_BYTES } from '../src/documents/attachments/attachment-intake.js';
import { listProcessAttachments } from '../src/documents/attachments/queries.js';
import { sha256 } from '../src/documents/document-files.js';
import { finalFileKeys } from '../src/documents/sealing/final-file-queries.js';
import { sealProcess } from '../src/documents/sealing/seal-process.js';
import { readBlobBytes } from '../src/files/blob-bytes.js';
import { sampleTemplate } from './support/fixtures.js';
import { jpeg, png } from './support/images.js';
import { pdfToolsInstalled, pdftotext } from './support/pdf-tools.js';
import { call, dialects, localPath, startTestService, type TestOrganization, type TestService } from './support/service.js';
import { ANSWERS, COMPLETE_HTML, createProcess, openEveryDocument, PDF_BYTES, pdfProcess, signers, stored, templateWithHtml } from './support/signing.js';

const ID_CARD = { name: 'Documento de identidad', description: 'Both sides, in one PDF or photo' };
const PAYSLIP = { name: 'Última nómina', optional: true };
const JPEG = jpeg();
const PNG = png();

describe.each(dialects)('attachments: files asked of a signer, given on their signing page before they sign (%s)', (dialect) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService(dialect);
    await call(svc.app, 'PUT', '/organization', { key: svc.orgA.privateKey, body: { signerDelegation: true } });
  });
  afterAll(async () => svc.close());

  const people = (method: 'GET' | 'POST', path: string, token: string, body?: Record<string, unknown>): Promise<LightMyRequestResponse> =>
    svc.app.inject({ method, url: `/people${path}`, headers: { 'x-link-token': token }, ...(body ? { payload: body } : {}) });
  const give = (token: string, attachment: number, bytes: Buffer) =>
    people('POST', '/signing/attachment', token, { attachment, file: bytes.toString('base64') });
  const sign = (token: string) => people('POST', '/signing/sign', token, { consent: true });
  const attachments = (org: TestOrganization, query: Record<string, string>, key = org.privateKey) => call(svc.app, 'GET', '/attachments', { key, query });

  /** A process of `org` whose first signer is asked ID_CARD (required) and PAYSLIP (optional); the second is asked nothing. */
  async function asking(org: TestOrganization, overrides: Record<string, unknown> = {}) {
    const [first, second] = signers(2);
    const code = await createProcess(
      svc,
      org,
      '/document/upload',
      pdfProcess(org, { signProfile: [{ ...first, files: [ID_CARD, PAYSLIP] }, second], ...overrides }),
    );
    const { process, participants } = await stored(svc, org, code);
    const [asked, other] = participants;
    if (!asked || !other) throw new Error('no participants');
    return { code, process, asked, other };
  }

  describe('files on every creation route that takes signers: {name, description?, optional?}', () => {
    it('POST /document/upload, /document/save and /document/many keep each signer files, in order, required unless optional', async () => {
      const upload = await asking(svc.orgA);
      const rows = await listProcessAttachments(svc.deps.db, upload.process.id);
      expect(rows.map((r) => [r.participant_row_id, r.position, r.name, r.description, r.optional])).toEqual([
        [upload.asked.id, 0, ID_CARD.name, ID_CARD.description, 0],
        [upload.asked.id, 1, PAYSLIP.name, null, 1],
      ]);
      const template = await templateWithHtml(svc, svc.orgB);
      const save = await createProcess(svc, svc.orgB, '/document/save', {
        email: svc.orgB.email,
        name: 'Sale',
        document: template,
        data: ANSWERS,
        signProfile: [{ ...signers(1)[0], files: [ID_CARD] }],
      });
      const many = await createProcess(svc, svc.orgB, '/document/many', {
        email: svc.orgB.email,
        name: 'Pack',
        signProfile: [{ ...signers(1)[0], files: [PAYSLIP] }],
        documents: [
          { document: template, data: ANSWERS },
          { document: template, data: ANSWERS },
        ],
      });
      for (const [code, name] of [
        [save, ID_CARD.name],
        [many, PAYSLIP.name],
      ] as const) {
        const res = await attachments(svc.orgB, { code });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().signers).toEqual([{ userId: expect.any(String), name: 'Signer 0', email: 'signer0@people.test', status: 'pending' }]);
        const one = await attachments(svc.orgB, { code, userId: res.json().signers[0].userId });
        expect(one.json().signer.files.map((f: { name: string }) => f.name)).toEqual([name]);
      }
    });

    it("a template's `files` are asked of its signer marked `package: true` when /document/save takes the signers from the template", async () => {
      const body = sampleTemplate({
        files: [{ name: ID_CARD.name }, { name: PAYSLIP.name, approve: 'pending', optional: true }],
        signatureProfile: [
          { type: 'buyer', name: 'buyer_name', email: 'buyer_email', phone: 'buyer_phone', package: true },
          { type: 'seller', name: 'seller_name', email: 'seller_email' },
        ],
      });
      const template = await templateWithHtml(svc, svc.orgA, COMPLETE_HTML, body);
      const code = await createProcess(svc, svc.orgA, '/document/save', { email: svc.orgA.email, name: 'Sale', document: template, data: ANSWERS });
      const listed = (await attachments(svc.orgA, { code })).json();
      expect(listed.signers).toEqual([expect.objectContaining({ email: 'ana@buyer.test', status: 'pending' })]);
      const one = (await attachments(svc.orgA, { code, userId: listed.signers[0].userId })).json();
      expect(one.signer.files).toEqual([
        { name: ID_CARD.name, optional: false },
        { name: PAYSLIP.name, optional: true },
      ]);
    });

    it('a package asks a person files where it first names them: the root signProfile, or their first document', async () => {
      const body = {
        email: svc.orgA.email,
        name: 'Pack',
        compress: true,
        documents: [{ signProfile: [{ ...signers(1)[0], files: [ID_CARD] }] }, { signProfile: [{ ...signers(1)[0], files: [PAYSLIP] }] }],
      };
      const later = await call(svc.app, 'POST', '/document/many', { key: svc.orgA.privateKey, body });
      expect(later.statusCode).toBe(400);
      expect(later.json().message).toContain('"documents[1].signProfile[0].files"');
      const firstOnly = { ...body, documents: [body.documents[0], { signProfile: signers(1) }] };
      const ok = await call(svc.app, 'POST', '/document/many', { key: svc.orgA.privateKey, body: firstOnly });
      expect(ok.statusCode, ok.body).toBe(200);
    });

    it('refused with 400: no name, an unknown key (required), the same name twice, more than 10, an empty list, a WhatsApp signer', async () => {
      const bad: unknown[] = [
        [{ description: 'x' }],
        [{ name: 'ID', required: true }],
        [{ name: 'ID' }, { name: 'id' }],
        Array.from({ length: 11 }, (_, i) => ({ name: `F${i}` })),
        [],
        [{ name: '' }],
      ];
      for (const files of bad) {
        const res = await call(svc.app, 'POST', '/document/upload', {
          key: svc.orgA.privateKey,
          body: pdfProcess(svc.orgA, { signProfile: [{ ...signers(1)[0], files }] }),
        });
        expect(res.statusCode, JSON.stringify(files)).toBe(400);
      }
      const whatsapp = await call(svc.app, 'POST', '/document/upload', {
        key: svc.orgA.privateKey,
        body: pdfProcess(svc.orgA, { signProfile: [{ ...signers(1)[0], phone: '+573001234567', options: { whatsapp: true }, files: [ID_CARD] }] }),
      });
      expect(whatsapp.statusCode).toBe(400);
      expect(whatsapp.json().message).toContain('"signProfile[0].files"');
    });
  });

  describe('the signing page asks each file; a required one blocks signing until given; one may be replaced before signing', () => {
    it('the page lists the files asked of the participant only; another participant page shows none of them', async () => {
      const { asked, other } = await asking(svc.orgA);
      const page = (await people('GET', '/signing', asked.link_token)).json();
      expect(page.attachments).toEqual([
        { position: 0, name: ID_CARD.name, description: ID_CARD.description, optional: false },
        { position: 1, name: PAYSLIP.name, optional: true },
      ]);
      expect(page.canSign).toBe(false);
      const theirs = (await people('GET', '/signing', other.link_token)).json();
      expect(theirs.attachments).toEqual([]);
      expect(theirs.canSign).toBe(true);
    });

    it('a required file not given refuses signing (400 ATTACHMENT_REQUIRED); given, the optional one may stay out and they sign', async () => {
      const { asked } = await asking(svc.orgA);
      await openEveryDocument(svc.deps, asked.link_token);
      const refused = await sign(asked.link_token);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe(`ATTACHMENT_REQUIRED: give "${ID_CARD.name}" first`);
      const given = await give(asked.link_token, 0, PDF_BYTES);
      expect(given.statusCode, given.body).toBe(200);
      expect(given.json().attachments[0].given).toEqual({ contentType: 'application/pdf', size: PDF_BYTES.length });
      expect(given.json().canSign).toBe(true);
      expect((await sign(asked.link_token)).statusCode).toBe(200);
      const after = await give(asked.link_token, 1, JPEG);
      expect(after.json()).toEqual({ message: 'PARTICIPANT_ALREADY_DONE' });
    });

    it('PDF, JPEG and PNG are taken by their bytes; a text file named .pdf, an empty file, one over 8 MiB and an unknown position are refused', async () => {
      const { asked } = await asking(svc.orgA);
      for (const [bytes, type] of [
        [JPEG, 'image/jpeg'],
        [PNG, 'image/png'],
        [PDF_BYTES, 'application/pdf'],
      ] as const) {
        const res = await give(asked.link_token, 1, bytes);
        expect(res.json().attachments[1].given.contentType).toBe(type);
      }
      const refusals: [Buffer, number, number, string][] = [
        [Buffer.from('not a pdf, whatever its name says'), 0, 415, 'ATTACHMENT_TYPE_NOT_ALLOWED'],
        [Buffer.alloc(0), 0, 400, 'ATTACHMENT_EMPTY'],
        [Buffer.concat([PDF_BYTES, Buffer.alloc(ATTACHMENT_MAX_BYTES)]), 0, 413, 'ATTACHMENT_TOO_LARGE'],
        [PDF_BYTES, 2, 400, 'ATTACHMENT_UNKNOWN'],
      ];
      for (const [bytes, position, status, code] of refusals) {
        const res = await give(asked.link_token, position, bytes);
        expect(res.statusCode, code).toBe(status);
        expect(res.json().message).toMatch(new RegExp(`^${code}`));
      }
      const res = await people('POST', '/signing/attachment', asked.link_token, { attachment: 0, file: '%%%' });
      expect(res.statusCode).toBe(400);
    });

    it('given again before signing, the new file replaces the old one: its bytes, its hash, and the old blob is deleted', async () => {
      const { code, process, asked } = await asking(svc.orgA);
      await give(asked.link_token, 0, JPEG);
      const [first] = await listProcessAttachments(svc.deps.db, process.id);
      await give(asked.link_token, 0, PNG);
      const [second] = await listProcessAttachments(svc.deps.db, process.id);
      expect(second?.sha256).toBe(sha256(PNG));
      expect(second?.file_key).not.toBe(first?.file_key);
      expect(await readBlobBytes(svc.deps.blobs, first?.file_key ?? '')).toBeUndefined();
      const roadmap = (await call(svc.app, 'GET', '/document/roadmap', { key: svc.orgA.privateKey, query: { code } })).json();
      const lines = roadmap.activityLog.filter((e: { action: string }) => e.action === 'ATTACHMENT_UPLOAD');
      expect(lines.map((e: { message: string; participant: string }) => [e.participant, e.message])).toEqual([
        [asked.participant_id, `${ID_CARD.name} (SHA-256 ${sha256(JPEG)})`],
        [asked.participant_id, `${ID_CARD.name} (SHA-256 ${sha256(PNG)})`],
      ]);
    });

    it('the link of a participant who is not asked a file, a closed process and an unknown token are refused', async () => {
      const { code, asked, other } = await asking(svc.orgA);
      expect((await give(other.link_token, 0, PDF_BYTES)).json().message).toMatch(/^ATTACHMENT_UNKNOWN/);
      await call(svc.app, 'POST', '/document/cancel', { key: svc.orgA.privateKey, body: { codes: [code], message: 'Stop', email: svc.orgA.email } });
      expect((await give(asked.link_token, 0, PDF_BYTES)).json()).toEqual({ message: 'DOCUMENT_NOT_IN_SIGNATURE' });
      expect((await give('x'.repeat(32), 0, PDF_BYTES)).statusCode).toBe(404);
    });

    it('edit mode: before any file is given the overwrite asks the new files; once one is given the process is not editable', async () => {
      const { code, asked } = await asking(svc.orgA);
      expect((await call(svc.app, 'POST', '/document/edit', { key: svc.orgA.privateKey, body: { code } })).json()).toEqual({ message: 'DOCUMENT_MODIFIED' });
      const overwrite = pdfProcess(svc.orgA, { code, signProfile: [{ ...signers(1)[0], files: [PAYSLIP] }] });
      expect((await call(svc.app, 'POST', '/document/upload', { key: svc.orgA.privateKey, body: overwrite })).statusCode).toBe(200);
      const listed = (await attachments(svc.orgA, { code })).json();
      expect(listed.signers).toHaveLength(1);
      expect(listed.signers[0].userId).not.toBe(asked.participant_id);
      const one = (await attachments(svc.orgA, { code, userId: listed.signers[0].userId })).json();
      expect(one.signer.files).toEqual([{ name: PAYSLIP.name, optional: true }]);

      const given = await asking(svc.orgA);
      await give(given.asked.link_token, 1, JPEG);
      const refused = await call(svc.app, 'POST', '/document/edit', { key: svc.orgA.privateKey, body: { code: given.code } });
      expect(refused.json()).toEqual({ message: 'DOCUMENT_NOT_EDITABLE: a participant has attached a file' });
    });

    it('once a file was given the place is not handed over (DELEGATION_TOO_LATE), and the page no longer offers it', async () => {
      const { asked } = await asking(svc.orgA);
      expect((await people('GET', '/signing', asked.link_token)).json().delegation).toBeDefined();
      await give(asked.link_token, 1, JPEG);
      expect((await people('GET', '/signing', asked.link_token)).json().delegation).toBeUndefined();
      const res = await people('POST', '/signing/delegate', asked.link_token, { name: 'María', email: 'maria@people.test', reason: 'Travelling' });
      expect(res.json()).toEqual({ message: 'DELEGATION_TOO_LATE' });
    });
  });

  describe('GET /attachments: private key, by code or package, and userId; download URLs of five minutes', () => {
    it('lists who is asked files and their status; with userId their files, each given one with a URL that downloads its exact bytes', async () => {
      const { code, asked } = await asking(svc.orgA);
      const before = await attachments(svc.orgA, { code });
      expect(before.json()).toEqual({
        package: code,
        code,
        name: 'Lease',
        finish: false,
        signers: [{ userId: asked.participant_id, name: asked.name, email: asked.email, status: 'pending' }],
      });
      await give(asked.link_token, 0, JPEG);
      const one = await attachments(svc.orgA, { package: code, userId: asked.participant_id });
      expect(one.statusCode, one.body).toBe(200);
      const { signer } = one.json();
      expect(signer.status).toBe('uploaded');
      expect(signer.files[1]).toEqual({ name: PAYSLIP.name, optional: true });
      expect(signer.files[0]).toMatchObject({ name: ID_CARD.name, sha256: sha256(JPEG), contentType: 'image/jpeg', size: JPEG.length });
      const download = await svc.app.inject({ method: 'GET', url: localPath(signer.files[0].url) });
      expect(download.statusCode).toBe(200);
      expect(download.headers['content-type']).toBe('image/jpeg');
      expect(download.rawPayload.equals(JPEG)).toBe(true);
      svc.clock.advance(301_000);
      expect((await svc.app.inject({ method: 'GET', url: localPath(signer.files[0].url) })).statusCode).toBe(403);

      await openEveryDocument(svc.deps, asked.link_token);
      await sign(asked.link_token);
      const after = await attachments(svc.orgA, { code, userId: asked.participant_id });
      expect(after.json().signer.status).toBe('approved');
    });

    it('another organization, the public key and a link token never reach them; both code and package, or neither, are 400', async () => {
      const { code, asked } = await asking(svc.orgA);
      await give(asked.link_token, 0, PDF_BYTES);
      const queries: Record<string, string>[] = [{ code }, { code, userId: asked.participant_id }];
      for (const query of queries) {
        expect((await attachments(svc.orgB, query)).json()).toEqual({ message: 'ATTACHMENT_NOT_FOUND' });
        const publicKey = await attachments(svc.orgA, query, svc.orgA.publicKey);
        expect(publicKey.statusCode).toBe(403);
        expect(publicKey.body).not.toContain(asked.email);
      }
      const noKey = await svc.app.inject({ method: 'GET', url: `/v1.5/ext/attachments?code=${code}`, headers: { 'x-link-token': asked.link_token } });
      expect(noKey.statusCode).toBe(401);
      expect((await attachments(svc.orgA, { code, package: code })).statusCode).toBe(400);
      expect((await attachments(svc.orgA, {})).statusCode).toBe(400);
      expect((await attachments(svc.orgA, { code, userId: 'ZZZZZZZZZZZZZZZZ' })).json()).toEqual({ message: 'ATTACHMENT_NOT_FOUND' });
      const plain = await createProcess(svc, svc.orgA, '/document/upload', pdfProcess(svc.orgA));
      expect((await attachments(svc.orgA, { code: plain })).json()).toEqual({ message: 'ATTACHMENT_NOT_FOUND' });
    });
  });

  describe('the evidence certificate lists each file given, with its name and SHA-256', () => {
    it.runIf(pdfToolsInstalled)('sealed: the certificate names the file and its hash, in the participant section and the audit trail', async () => {
      const { code, process, asked, other } = await asking(svc.orgB);
      await give(asked.link_token, 0, PNG);
      for (const token of [asked.link_token, other.link_token]) {
        await openEveryDocument(svc.deps, token);
        expect((await sign(token)).statusCode).toBe(200);
      }
      expect((await stored(svc, svc.orgB, code)).process.status).toBe('FINISH');
      expect(await sealProcess(svc.deps, { processId: process.id })).toBe(true);
      const keys = await finalFileKeys(svc.deps.db, process.id);
      const certificate = await readBlobBytes(svc.deps.blobs, keys?.certificate ?? '');
      const text = pdftotext(certificate ?? Buffer.alloc(0)).replace(/\s+/g, '');
      expect(text).toContain(ID_CARD.name.replace(/\s+/g, ''));
      expect(text.split(sha256(PNG)).length - 1).toBeGreaterThanOrEqual(2);
      expect(text).toContain('ATTACHMENT_UPLOAD');
    });
  });
});
