import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finalFileKeys } from '../src/documents/sealing/final-file-queries.js';
import { sealProcess } from '../src/documents/sealing/seal-process.js';
import { readBlobBytes } from '../src/files/blob-bytes.js';
import { jpeg } from './support/images.js';
import { pdfToolsInstalled, pdftotext } from './support/pdf-tools.js';
import { call, dialects, localPath, startServiceWithBothWebhookFormats, type TestOrganization, type TestService } from './support/service.js';
import { outbox, PDF_BASE64, PDF_BYTES, stored } from './support/signing.js';

const ID_CARD = { name: 'Documento de identidad' };
const BANK = { name: 'Certificado bancario', optional: true };

describe.each(dialects)('POST /package/upload: files asked of participants, with a document to sign or without one (%s)', (dialect) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startServiceWithBothWebhookFormats(dialect);
  });
  afterAll(async () => svc.close());

  const upload = (org: TestOrganization, body: Record<string, unknown>) => call(svc.app, 'POST', '/package/upload', { key: org.privateKey, body });
  const people = (method: 'GET' | 'POST', path: string, token: string, body?: Record<string, unknown>): Promise<LightMyRequestResponse> =>
    svc.app.inject({ method, url: `/people${path}`, headers: { 'x-link-token': token }, ...(body ? { payload: body } : {}) });
  const give = (token: string, attachment: number, bytes: Buffer) =>
    people('POST', '/signing/attachment', token, { attachment, file: bytes.toString('base64') });
  const attachments = (org: TestOrganization, query: Record<string, string>) => call(svc.app, 'GET', '/attachments', { key: org.privateKey, query });
  /** The webhook bodies queued for `org` since the test began: each typed event and each flat body. */
  const webhooks = async (org: TestOrganization): Promise<Record<string, unknown>[]> =>
    (await outbox(svc, 'webhook')).filter((row) => row.organization_id === org.id).map((row) => (row.body.flat ?? row.body.event) as Record<string, unknown>);

  function body(org: TestOrganization, overrides: Record<string, unknown> = {}): Record<string, unknown> {
    return {
      email: org.email,
      packageName: 'Onboarding, Juan Pérez',
      targetWebhooks: ['default', 'flat'],
      signProfile: [
        { name: 'Juan Pérez', email: 'juan@people.test', phone: '+573001234567', type: 'employee', files: [ID_CARD, BANK] },
        { name: 'Rosa Díaz', email: 'rosa@people.test', phone: '+573001234568', type: 'guarantor', files: [ID_CARD] },
      ],
      ...overrides,
    };
  }

  describe('the answers: {package, code} with a base64 file, {package} with only files, {package, code, url} with compress', () => {
    it('a base64 PDF: a package of one document to sign, its own code, the participants asked their files', async () => {
      const res = await upload(svc.orgA, body(svc.orgA, { name: 'Contract', file: PDF_BASE64 }));
      expect(res.statusCode, res.body).toBe(200);
      const { package: pkg, code, url, signProfile } = res.json();
      expect(pkg).toMatch(/^[A-Z0-9]{10}$/);
      expect(code).toMatch(/^[A-Z0-9]{10}$/);
      expect(code).not.toBe(pkg);
      expect(url).toBeUndefined();
      expect(signProfile.map((p: { email: string }) => p.email)).toEqual(['juan@people.test', 'rosa@people.test']);
      const view = (await call(svc.app, 'GET', '/document', { key: svc.orgA.privateKey, query: { package: pkg } })).json();
      expect(view).toMatchObject({ kind: 'package', name: 'Onboarding, Juan Pérez', status: 'CREATED', codes: [code] });
      expect(view.documents).toEqual([expect.objectContaining({ name: 'Contract', code, ready: true })]);
      const listed = (await attachments(svc.orgA, { package: pkg })).json();
      expect(listed.signers.map((s: { email: string; status: string }) => [s.email, s.status])).toEqual([
        ['juan@people.test', 'pending'],
        ['rosa@people.test', 'pending'],
      ]);
      // The other organization knows nothing of it.
      expect((await attachments(svc.orgB, { package: pkg })).json()).toEqual({ message: 'ATTACHMENT_NOT_FOUND' });
      expect((await call(svc.app, 'GET', '/document', { key: svc.orgB.privateKey, query: { package: pkg } })).statusCode).toBe(400);
    });

    it('compress: the upload URL takes the PDF once; the participants are invited when it arrived', async () => {
      const res = await upload(svc.orgA, body(svc.orgA, { name: 'Contract', compress: true }));
      expect(res.statusCode, res.body).toBe(200);
      const { package: pkg, code, url } = res.json();
      expect(Object.keys(res.json()).sort()).toEqual(['code', 'package', 'signProfile', 'url']);
      expect(code).toMatch(/^[A-Z0-9]{10}$/);
      expect((await stored(svc, svc.orgA, pkg)).participants.map((p) => p.status)).toEqual(['PENDING', 'PENDING']);
      const put = await svc.app.inject({ method: 'PUT', url: localPath(url), headers: { 'content-type': 'application/pdf' }, payload: PDF_BYTES });
      expect(put.statusCode, put.body).toBe(200);
      expect((await stored(svc, svc.orgA, pkg)).participants.map((p) => p.status)).toEqual(['NOTIFICATION', 'NOTIFICATION']);
      const again = await svc.app.inject({ method: 'PUT', url: localPath(url), headers: { 'content-type': 'application/pdf' }, payload: PDF_BYTES });
      expect(again.statusCode).not.toBe(200);
    });

    it('neither file, compress nor document: only {package}; no document, and `name` is not needed', async () => {
      const res = await upload(svc.orgB, body(svc.orgB));
      expect(res.statusCode, res.body).toBe(200);
      expect(Object.keys(res.json()).sort()).toEqual(['package', 'signProfile']);
      const view = (await call(svc.app, 'GET', '/document', { key: svc.orgB.privateKey, query: { package: res.json().package } })).json();
      expect(view).toMatchObject({ name: 'Onboarding, Juan Pérez', status: 'CREATED', documents: [], codes: [] });
      expect((await stored(svc, svc.orgB, res.json().package)).participants.map((p) => p.status)).toEqual(['NOTIFICATION', 'NOTIFICATION']);
    });
  });

  describe('refused with 400: what the real service refuses', () => {
    const refusals: [string, (org: TestOrganization) => Record<string, unknown>, string | RegExp][] = [
      [
        'file and compress together',
        (org) => body(org, { name: 'C', file: PDF_BASE64, compress: true }),
        /contains a conflict between optional exclusive peers/,
      ],
      ['no packageName', (org) => ({ ...body(org), packageName: undefined }), '"packageName" is required'],
      ['a document without name', (org) => body(org, { file: PDF_BASE64 }), '"name" is required with a document to sign'],
      [
        'a signer with none of type, label, position',
        (org) => body(org, { signProfile: [{ name: 'A', email: 'a@people.test', phone: '+573001234567', files: [ID_CARD] }] }),
        '"signProfile[0]" must have one of "type", "label" or "position"',
      ],
      [
        'a signer with two of them',
        (org) => body(org, { signProfile: [{ name: 'A', email: 'a@people.test', phone: '+573001234567', type: 't', label: true, files: [ID_CARD] }] }),
        '"signProfile[0]" must have only one of "type", "label" or "position"',
      ],
      [
        'a signer without files',
        (org) => body(org, { signProfile: [{ name: 'A', email: 'a@people.test', phone: '+573001234567', type: 't' }] }),
        '"signProfile[0].files" is required',
      ],
      ['notification at the root', (org) => body(org, { notification: true }), /^"notification" is not allowed/],
      [
        'notification per signer',
        (org) => body(org, { signProfile: [{ name: 'A', email: 'a@people.test', phone: '+573001234567', type: 't', notification: false, files: [ID_CARD] }] }),
        /^SIGNER_NOTIFICATION_NOT_SUPPORTED: "signProfile\[0\]\.notification"/,
      ],
      [
        'only optional files, with no document to sign',
        (org) => body(org, { signProfile: [{ name: 'A', email: 'a@people.test', phone: '+573001234567', type: 't', files: [BANK] }] }),
        /"signProfile\[0\]\.files" must ask at least one file that is not optional/,
      ],
    ];
    for (const [what, make, message] of refusals) {
      it(what, async () => {
        const res = await upload(svc.orgA, make(svc.orgA));
        expect(res.statusCode, res.body).toBe(400);
        if (typeof message === 'string') expect(res.json().message).toBe(message);
        else expect(res.json().message).toMatch(message);
      });
    }

    it('the public key cannot create one (401)', async () => {
      expect((await call(svc.app, 'POST', '/package/upload', { key: svc.orgA.publicKey, body: body(svc.orgA) })).statusCode).toBe(401);
    });
  });

  describe('an attachments-only process: the page asks only for the files; once every required one is given the participant is done', () => {
    it('the page has no document and nothing to sign; the last required file makes the participant FINISH, with its webhooks', async () => {
      const res = await upload(svc.orgA, body(svc.orgA));
      const pkg: string = res.json().package;
      const [juan, rosa] = (await stored(svc, svc.orgA, pkg)).participants;
      if (!juan || !rosa) throw new Error('no participants');
      const page = (await people('GET', '/signing', juan.link_token)).json();
      expect(page.documents).toEqual([]);
      expect(page.attachments.map((a: { name: string }) => a.name)).toEqual([ID_CARD.name, BANK.name]);

      const optional = await give(juan.link_token, 1, jpeg());
      expect(optional.json().participant.status).toBe('NOTIFICATION');
      const required = await give(juan.link_token, 0, PDF_BYTES);
      expect(required.statusCode, required.body).toBe(200);
      expect(required.json().participant.status).toBe('FINISH');
      expect((await give(juan.link_token, 1, jpeg())).json()).toEqual({ message: 'PARTICIPANT_ALREADY_DONE' });

      const sent = await webhooks(svc.orgA);
      expect(sent).toContainEqual(
        expect.objectContaining({
          type: 'package.attachment_uploaded',
          data: expect.objectContaining({
            code: pkg,
            status: 'ATTACHMENT_UPLOADED',
            attachment: ID_CARD.name,
            signer: expect.objectContaining({ id: juan.participant_id }),
          }),
        }),
      );
      expect(sent).toContainEqual({
        package: pkg,
        name: 'Onboarding, Juan Pérez',
        status: 'ATTACHMENT_UPLOADED',
        signer: { id: juan.participant_id, name: 'Juan Pérez', email: 'juan@people.test', phone: '+573001234567' },
        attachments: [ID_CARD.name],
      });
      expect(sent).toContainEqual(expect.objectContaining({ type: 'package.signer_finished', data: expect.objectContaining({ status: 'NOTIFICATION' }) }));
      expect((await webhooks(svc.orgB)).some((w) => JSON.stringify(w).includes(pkg))).toBe(false);
      const roadmap = (await call(svc.app, 'GET', '/document/roadmap', { key: svc.orgA.privateKey, query: { code: pkg } })).json();
      expect(roadmap.activityLog.map((l: { action: string }) => l.action)).toContain('ATTACHMENTS_GIVEN');
    });
  });

  describe("GET /document shows each participant's files: name and status to both keys, a 5-minute URL to the private key only", () => {
    it('private key: files with status and, once given, a URL that downloads the bytes; public key: names and statuses, no URL anywhere', async () => {
      const res = await upload(svc.orgA, body(svc.orgA, { name: 'Contract', file: PDF_BASE64 }));
      const { package: pkg, code } = res.json();
      const [juan] = (await stored(svc, svc.orgA, pkg)).participants;
      if (!juan) throw new Error('no participants');
      const file = jpeg();
      await give(juan.link_token, 0, file);
      const read = async (key: string, query: Record<string, string>) => (await call(svc.app, 'GET', '/document', { key, query })).json();
      const full = await read(svc.orgA.privateKey, { package: pkg });
      const [first, second] = full.signProfile;
      expect(first.files).toEqual([
        { name: ID_CARD.name, optional: false, status: 'uploaded', url: expect.stringMatching(/^http/) },
        { name: BANK.name, optional: true, status: 'pending' },
      ]);
      expect(second.files).toEqual([{ name: ID_CARD.name, optional: false, status: 'pending' }]);
      const download = await svc.app.inject({ method: 'GET', url: localPath(first.files[0].url) });
      expect(download.rawPayload.equals(file)).toBe(true);

      const open = await read(svc.orgA.publicKey, { package: pkg });
      expect(open.signProfile[0].files).toEqual([
        { name: ID_CARD.name, optional: false, status: 'uploaded' },
        { name: BANK.name, optional: true, status: 'pending' },
      ]);
      expect(JSON.stringify(open)).not.toMatch(/https?:|files\/processes|signature=/);
      // A package's document code reads nothing of it with the package's name (the real service's rule), and another organization nothing at all.
      expect((await call(svc.app, 'GET', '/document', { key: svc.orgA.publicKey, query: { package: code } })).statusCode).toBe(400);
      expect((await call(svc.app, 'GET', '/document', { key: svc.orgB.publicKey, query: { package: pkg } })).statusCode).toBe(400);
    });
  });

  it('sealing an attachments-only process writes the certificate alone, and tells the participants their files were approved', async () => {
    const res = await upload(
      svc.orgB,
      body(svc.orgB, { signProfile: [{ name: 'Ana', email: 'ana@people.test', phone: '+573001234569', type: 'x', files: [ID_CARD] }] }),
    );
    const pkg: string = res.json().package;
    const [ana] = (await stored(svc, svc.orgB, pkg)).participants;
    if (!ana) throw new Error('no participant');
    await give(ana.link_token, 0, PDF_BYTES);
    await approveAll(svc, svc.orgB, pkg);
    const { process } = await stored(svc, svc.orgB, pkg);
    expect(process.status).toBe('FINISH');
    const mailsBefore = (await outbox(svc, 'email')).length;
    expect(await sealProcess(svc.deps, { processId: process.id })).toBe(true);
    const view = (await call(svc.app, 'GET', '/document', { key: svc.orgB.privateKey, query: { package: pkg } })).json();
    expect(view.certificateUrl).toEqual(expect.any(String));
    // Nobody signed: the participant is told their files were approved, not that everyone signed.
    const told = (await outbox(svc, 'email')).slice(mailsBefore);
    expect(told.map((m) => [m.body.to, m.body.template])).toEqual([['ana@people.test', 'attachments-approved']]);
  });

  it.runIf(pdfToolsInstalled)('the certificate of an attachments-only process says who gave files, not who signed, and lists no documents', async () => {
    const pkg: string = (await upload(svc.orgA, body(svc.orgA))).json().package;
    for (const participant of (await stored(svc, svc.orgA, pkg)).participants) await give(participant.link_token, 0, PDF_BYTES);
    await approveAll(svc, svc.orgA, pkg);
    const { process } = await stored(svc, svc.orgA, pkg);
    expect(await sealProcess(svc.deps, { processId: process.id })).toBe(true);
    const keys = await finalFileKeys(svc.deps.db, process.id);
    const text = pdftotext((await readBlobBytes(svc.deps.blobs, keys?.certificate ?? '')) ?? Buffer.alloc(0)).replace(/\s+/g, ' ');
    expect(text).toContain(`Proceso de entrega de archivos ${pkg}: cada participante entregó los archivos que se le pidieron`);
    expect(text.match(/Rol Entrega archivos/g)).toHaveLength(2);
    expect(text.match(/Entregó sus archivos \d/g)).toHaveLength(2);
    expect(text).not.toMatch(/firma electrónica|Firmante|Firmó|\bFirma\b|Documentos #/);
    // Another organization's certificate is not this one's: it has its own process and people.
    expect(text).not.toContain(svc.orgB.email);
  });
});

/** The creator approves every participant's files (the process closes once they are all approved). */
async function approveAll(svc: TestService, org: TestOrganization, pkg: string): Promise<void> {
  const { participants } = await stored(svc, org, pkg);
  for (const p of participants) {
    const res = await call(svc.app, 'PUT', '/attachments', { key: org.privateKey, body: { package: pkg, userId: p.participant_id, approve: true } });
    expect(res.statusCode, res.body).toBe(200);
  }
}
