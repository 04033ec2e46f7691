import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finalFileKeys } from '../src/documents/sealing/final-file-queries.js';
import { sealProcess } from '../src/documents/sealing/seal-process.js';
import { readBlobBytes } from '../src/files/blob-bytes.js';
import { jpeg } from './support/images.js';
import { pdfToolsInstalled, pdftotext } from './support/pdf-tools.js';
import { call, dialects, startServiceWithBothWebhookFormats, type TestOrganization, type TestService } from './support/service.js';
import { createProcess, openEveryDocument, outbox, PDF_BYTES, pdfProcess, signers, stored } from './support/signing.js';

const ID_CARD = { name: 'Documento de identidad' };
const BANK = { name: 'Certificado bancario' };
const BLURRED = 'The photo of your ID is blurred';

describe.each(dialects)("approval of attachments: the process's creator approves or rejects a participant's files (%s)", (dialect) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startServiceWithBothWebhookFormats(dialect);
  });
  afterAll(async () => svc.close());

  const people = (method: 'GET' | 'POST', path: string, token: string, body?: Record<string, unknown>): Promise<LightMyRequestResponse> =>
    svc.app.inject({ method, url: `/people${path}`, headers: { 'x-link-token': token }, ...(body ? { payload: body } : {}) });
  const give = (token: string, attachment: number, bytes: Buffer) =>
    people('POST', '/signing/attachment', token, { attachment, file: bytes.toString('base64') });
  const review = (org: TestOrganization, body: Record<string, unknown>, key = org.privateKey) => call(svc.app, 'PUT', '/attachments', { key, body });
  const attachments = (org: TestOrganization, query: Record<string, string>) => call(svc.app, 'GET', '/attachments', { key: org.privateKey, query });
  const webhooks = async (org: TestOrganization): Promise<Record<string, unknown>[]> =>
    (await outbox(svc, 'webhook')).filter((row) => row.organization_id === org.id).map((row) => (row.body.flat ?? row.body.event) as Record<string, unknown>);

  /** An attachments-only process of `org`: Juan is asked his ID card, Rosa her bank certificate. */
  async function collecting(org: TestOrganization) {
    const res = await call(svc.app, 'POST', '/package/upload', {
      key: org.privateKey,
      body: {
        email: org.email,
        packageName: 'Onboarding',
        targetWebhooks: ['default', 'flat'],
        signProfile: [
          { name: 'Juan Pérez', email: 'juan@people.test', type: 'employee', files: [ID_CARD] },
          { name: 'Rosa Díaz', email: 'rosa@people.test', type: 'guarantor', files: [BANK] },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const pkg: string = res.json().package;
    const { process, participants } = await stored(svc, org, pkg);
    const [juan, rosa] = participants;
    if (!juan || !rosa) throw new Error('no participants');
    return { pkg, process, juan, rosa };
  }

  describe('a process without a document finishes once every file given is approved', () => {
    it('rejected: the file is asked again with the reason, the link works again, the participant is sent their invitation; approved: the process closes', async () => {
      const { pkg, process, juan, rosa } = await collecting(svc.orgA);
      expect((await give(juan.link_token, 0, jpeg())).json().participant.status).toBe('FINISH');
      expect((await give(rosa.link_token, 0, PDF_BYTES)).json().participant.status).toBe('FINISH');
      // Everyone gave their files; the creator has not approved them yet.
      expect((await stored(svc, svc.orgA, pkg)).process.status).toBe('CREATED');
      expect((await attachments(svc.orgA, { package: pkg })).json().signers.map((s: { status: string }) => s.status)).toEqual(['uploaded', 'uploaded']);

      const mailsBefore = (await outbox(svc, 'email')).length;
      const rejected = await review(svc.orgA, { package: pkg, userId: juan.participant_id, approve: false, reason: BLURRED });
      expect(rejected.json()).toEqual({ status: 'rejected', attachments: [ID_CARD.name], finish: false });
      const mails = (await outbox(svc, 'email')).slice(mailsBefore);
      expect(mails.map((m) => m.body.to)).toEqual(['juan@people.test']);
      expect(JSON.stringify(mails[0]?.body)).toContain(BLURRED);
      const page = (await people('GET', '/signing', juan.link_token)).json();
      expect(page.state).toBe('act');
      expect(page.attachments).toEqual([{ position: 0, name: ID_CARD.name, optional: false, rejected: { reason: BLURRED } }]);
      const one = (await attachments(svc.orgA, { package: pkg, userId: juan.participant_id })).json();
      expect(one.signer.status).toBe('pending');
      expect(one.signer.files[0]).toMatchObject({ name: ID_CARD.name, review: 'rejected', reason: BLURRED, url: expect.any(String) });

      expect((await give(juan.link_token, 0, PDF_BYTES)).json().participant.status).toBe('FINISH');
      expect((await review(svc.orgA, { package: pkg, userId: juan.participant_id, approve: true })).json()).toEqual({
        status: 'approved',
        attachments: [ID_CARD.name],
        finish: false,
      });
      expect((await attachments(svc.orgA, { package: pkg, userId: juan.participant_id })).json().signer).toMatchObject({
        status: 'approved',
        files: [expect.objectContaining({ review: 'approved', reviewedAt: expect.any(String) })],
      });
      const last = await review(svc.orgA, { code: pkg, userId: rosa.participant_id, approve: true });
      expect(last.json()).toEqual({ status: 'approved', attachments: [BANK.name], finish: true });
      expect((await stored(svc, svc.orgA, pkg)).process.status).toBe('FINISH');
      expect((await attachments(svc.orgA, { package: pkg })).json().finish).toBe(true);

      const roadmap = (await call(svc.app, 'GET', '/document/roadmap', { key: svc.orgA.privateKey, query: { code: pkg } })).json();
      const reviews = roadmap.activityLog.filter((l: { action: string }) => l.action.startsWith('ATTACHMENTS_'));
      expect(reviews.map((l: { action: string; participant: string; by: string; message: string }) => [l.action, l.participant, l.by, l.message])).toEqual([
        ['ATTACHMENTS_GIVEN', juan.participant_id, undefined, undefined],
        ['ATTACHMENTS_GIVEN', rosa.participant_id, undefined, undefined],
        ['ATTACHMENTS_REJECTED', juan.participant_id, svc.orgA.email, BLURRED],
        ['ATTACHMENTS_GIVEN', juan.participant_id, undefined, undefined],
        ['ATTACHMENTS_APPROVED', juan.participant_id, svc.orgA.email, ID_CARD.name],
        ['ATTACHMENTS_APPROVED', rosa.participant_id, svc.orgA.email, BANK.name],
      ]);
      expect(roadmap.activityLog.at(-1).action).toBe('FINISH');

      const sent = await webhooks(svc.orgA);
      expect(sent).toContainEqual(
        expect.objectContaining({
          type: 'package.attachments_rejected',
          data: expect.objectContaining({ code: pkg, status: 'ATTACHMENTS_REJECTED', message: BLURRED, by: svc.orgA.email, attachments: [ID_CARD.name] }),
        }),
      );
      expect(sent).toContainEqual(expect.objectContaining({ type: 'package.attachments_approved' }));
      expect(sent).toContainEqual(
        expect.objectContaining({ package: pkg, status: 'ATTACHMENTS_REJECTED', message: BLURRED, attachments: [ID_CARD.name], signer: expect.any(Object) }),
      );
      expect(sent).toContainEqual(expect.objectContaining({ type: 'package.finished' }));
      expect((await webhooks(svc.orgB)).some((w) => JSON.stringify(w).includes(pkg))).toBe(false);

      if (pdfToolsInstalled) {
        expect(await sealProcess(svc.deps, { processId: process.id })).toBe(true);
        const keys = await finalFileKeys(svc.deps.db, process.id);
        const text = pdftotext((await readBlobBytes(svc.deps.blobs, keys?.certificate ?? '')) ?? Buffer.alloc(0)).replace(/\s+/g, '');
        expect(text).toContain('ATTACHMENTS_APPROVED');
        expect(text).toContain('ATTACHMENTS_REJECTED');
        expect(text).toContain('Aprobado');
      }
    });

    it('files names one file; the other organization reviews nothing of it; the public key is refused', async () => {
      const { pkg, juan } = await collecting(svc.orgB);
      await give(juan.link_token, 0, PDF_BYTES);
      expect((await review(svc.orgA, { package: pkg, userId: juan.participant_id, approve: true })).json()).toEqual({ message: 'ATTACHMENT_NOT_FOUND' });
      expect((await review(svc.orgB, { package: pkg, userId: juan.participant_id, approve: true }, svc.orgB.publicKey)).statusCode).toBe(401);
      const named = await review(svc.orgB, { package: pkg, userId: juan.participant_id, approve: true, files: [ID_CARD.name.toUpperCase()] });
      expect(named.json()).toEqual({ status: 'approved', attachments: [ID_CARD.name], finish: false });
    });
  });

  describe('refused: a reason is required to reject and refused to approve; nothing given, unknown names, closed processes', () => {
    it('400 with the rule', async () => {
      const { pkg, juan, rosa } = await collecting(svc.orgA);
      const user = { package: pkg, userId: juan.participant_id };
      expect((await review(svc.orgA, { ...user, approve: false })).json().message).toBe('"reason" is required');
      expect((await review(svc.orgA, { ...user, approve: true, reason: 'x' })).json().message).toBe('"reason" is not allowed');
      expect((await review(svc.orgA, { ...user, code: pkg, approve: true })).statusCode).toBe(400);
      expect((await review(svc.orgA, { ...user, approve: true })).json()).toEqual({ message: 'ATTACHMENT_NOT_GIVEN' });
      await give(juan.link_token, 0, PDF_BYTES);
      expect((await review(svc.orgA, { ...user, approve: true, files: ['Pasaporte'] })).json().message).toMatch(/^ATTACHMENT_UNKNOWN/);
      expect((await review(svc.orgA, { package: pkg, userId: 'ZZZZZZZZZZZZZZZZ', approve: true })).json()).toEqual({ message: 'ATTACHMENT_NOT_FOUND' });
      await call(svc.app, 'POST', '/document/cancel', { key: svc.orgA.privateKey, body: { codes: [pkg], message: 'Stop', email: svc.orgA.email } });
      expect((await review(svc.orgA, { package: pkg, userId: rosa.participant_id, approve: true })).json()).toEqual({ message: 'DOCUMENT_NOT_IN_SIGNATURE' });
    });
  });

  describe('with a document to sign: rejected before signing the file blocks the signature; once signed the files are final', () => {
    it('ATTACHMENT_REQUIRED after a rejection; ATTACHMENTS_FINAL once signed, approval still taken', async () => {
      const [first] = signers(1);
      const code = await createProcess(svc, svc.orgB, '/document/upload', pdfProcess(svc.orgB, { signProfile: [{ ...first, files: [ID_CARD] }] }));
      const [signer] = (await stored(svc, svc.orgB, code)).participants;
      if (!signer) throw new Error('no participant');
      await give(signer.link_token, 0, PDF_BYTES);
      await openEveryDocument(svc.deps, signer.link_token);
      await review(svc.orgB, { code, userId: signer.participant_id, approve: false, reason: BLURRED });
      const refused = await people('POST', '/signing/sign', signer.link_token, { consent: true });
      expect(refused.json().message).toMatch(/^ATTACHMENT_REQUIRED/);
      await give(signer.link_token, 0, jpeg());
      expect((await people('POST', '/signing/sign', signer.link_token, { consent: true })).statusCode).toBe(200);
      // The last signature finished the process: its files can no longer be reviewed.
      expect((await review(svc.orgB, { code, userId: signer.participant_id, approve: true })).json()).toEqual({ message: 'DOCUMENT_NOT_IN_SIGNATURE' });
    });

    it('a signer who signed while another has not: their files cannot be rejected', async () => {
      const [first, second] = signers(2);
      const code = await createProcess(svc, svc.orgA, '/document/upload', pdfProcess(svc.orgA, { signProfile: [{ ...first, files: [ID_CARD] }, second] }));
      const [signer] = (await stored(svc, svc.orgA, code)).participants;
      if (!signer) throw new Error('no participant');
      await give(signer.link_token, 0, PDF_BYTES);
      await openEveryDocument(svc.deps, signer.link_token);
      expect((await people('POST', '/signing/sign', signer.link_token, { consent: true })).statusCode).toBe(200);
      const user = { code, userId: signer.participant_id };
      expect((await review(svc.orgA, { ...user, approve: false, reason: BLURRED })).json()).toEqual({ message: 'ATTACHMENTS_FINAL' });
      expect((await review(svc.orgA, { ...user, approve: true })).json()).toEqual({ status: 'approved', attachments: [ID_CARD.name], finish: false });
    });
  });
});
