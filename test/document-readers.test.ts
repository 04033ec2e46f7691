import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { findProcessByCode } from '../src/documents/queries.js';
import { listReaders } from '../src/documents/readers/queries.js';
import { listMailbox, type MailboxEntry, mailboxDir } from '../src/messages/local-mailbox.js';
import { updateSettings } from '../src/organizations/settings.js';
import { ANSWERS } from './support/fixtures.js';
import { jpeg } from './support/images.js';
import { call, dialects, localPath, PUBLIC_URL, startTestService, type TestOrganization, type TestService } from './support/service.js';
import { createProcess, endProcess, PDF_BYTES, pdfProcess, readAndSign, signers, stored, templateWithHtml } from './support/signing.js';
import { runOutbox } from './support/whatsapp-service.js';

const ROSA = { name: 'Rosa Díaz', email: 'rosa@board.test' };
const LUIS = { name: 'Luis Mora', email: 'luis@board.test' };
const READ_LINK = /http:\/\/service\.test\/read\/([A-Za-z0-9_-]{32})/;

describe.each(dialects)('readers and CC (%s)', (dialect) => {
  let svc: TestService;
  const seen = new Set<string>();
  beforeAll(async () => {
    svc = await startTestService(dialect);
  });
  afterAll(async () => svc.close());

  /** The e-mails delivered to the local mailbox since the last call, oldest first. */
  const newMail = async (): Promise<MailboxEntry[]> => {
    await runOutbox(svc);
    const all = await listMailbox(mailboxDir(svc.config.dataDir), { channel: 'email', limit: 10_000 });
    const fresh = all.filter((mail) => !seen.has(mail.id)).reverse();
    for (const mail of fresh) seen.add(mail.id);
    return fresh;
  };
  const to = (mail: MailboxEntry[], address: string) => mail.filter((m) => m.to === address);
  const linkOf = (mail: MailboxEntry | undefined) => READ_LINK.exec(String(mail?.message.text))?.[1] ?? '';
  const view = async (code: string, key: string) => (await call(svc.app, 'GET', '/document', { key, query: { code } })).json();
  const people = (method: 'GET' | 'POST', path: string, token: string, body?: Record<string, unknown>): Promise<LightMyRequestResponse> =>
    svc.app.inject({ method, url: `/people${path}`, headers: { 'x-link-token': token }, ...(body ? { payload: body } : {}) });
  const readerTokens = async (org: TestOrganization, code: string) => {
    const process = await findProcessByCode(svc.deps.db, org.id, code);
    return process ? (await listReaders(svc.deps.db, process.id)).map((r) => ({ kind: r.kind, email: r.email, token: r.link_token })) : [];
  };

  describe('readers: [{name, email}] is accepted on every creation; GET /document and the roadmap list them as READER', () => {
    it('POST /document/upload: GET /document lists the signers, then each reader {name, email, role: READER} without id or status', async () => {
      const code = await createProcess(svc, svc.orgA, '/document/upload', pdfProcess(svc.orgA, { readers: [ROSA, LUIS], cc: ['Archive@Acme.test'] }));
      const own = await view(code, svc.orgA.privateKey);
      expect(own.signProfile.map((p: { role: string }) => p.role)).toEqual(['SIGNER', 'SIGNER', 'READER', 'READER']);
      expect(own.signProfile.slice(2)).toEqual([
        { ...ROSA, role: 'READER' },
        { ...LUIS, role: 'READER' },
      ]);
      expect(own.cc).toEqual(['archive@acme.test']);
      const roadmap = (await call(svc.app, 'GET', '/document/roadmap', { key: svc.orgA.privateKey, query: { code } })).json();
      expect(roadmap.participants.slice(2)).toEqual([
        { ...ROSA, role: 'READER' },
        { ...LUIS, role: 'READER' },
      ]);
      expect(roadmap.participants[0].id).toMatch(/^[A-Z0-9]{16}$/);
    });

    it('the public key reads who must act only: no reader, no CC address; another organization does not find the process', async () => {
      const code = await createProcess(svc, svc.orgA, '/document/upload', pdfProcess(svc.orgA, { readers: [ROSA], cc: ['archive@acme.test'] }));
      const publicView = await call(svc.app, 'GET', '/document', { key: svc.orgA.publicKey, query: { code } });
      expect(publicView.json().signProfile).toHaveLength(2);
      expect(publicView.body).not.toContain('rosa@board.test');
      expect(publicView.body).not.toContain('Rosa');
      expect(publicView.body).not.toContain('archive@acme.test');
      for (const path of ['/document', '/document/roadmap']) {
        expect((await call(svc.app, 'GET', path, { key: svc.orgB.privateKey, query: { code } })).json()).toEqual({ message: 'DOCUMENT_NOT_FOUND' });
      }
    });

    it('POST /document/save and POST /document/many take readers too', async () => {
      const template = await templateWithHtml(svc, svc.orgB);
      const save = await createProcess(svc, svc.orgB, '/document/save', {
        email: svc.orgB.email,
        name: 'Sale',
        document: template,
        data: ANSWERS,
        signProfile: signers(1),
        readers: [ROSA],
      });
      expect((await view(save, svc.orgB.privateKey)).signProfile.at(-1)).toEqual({ ...ROSA, role: 'READER' });
      const many = await createProcess(svc, svc.orgB, '/document/many', {
        email: svc.orgB.email,
        name: 'Pack',
        signProfile: signers(1),
        readers: [LUIS],
        documents: [
          { document: template, data: ANSWERS },
          { document: template, data: ANSWERS },
        ],
      });
      expect((await view(many, svc.orgB.privateKey)).signProfile.at(-1)).toEqual({ ...LUIS, role: 'READER' });
    });

    it('the creation answer lists the participants only: a reader has no participant id', async () => {
      const res = await call(svc.app, 'POST', '/document/upload', { key: svc.orgA.privateKey, body: pdfProcess(svc.orgA, { readers: [ROSA] }) });
      expect(res.json().signProfile.map((p: { email: string }) => p.email)).toEqual(['signer0@people.test', 'signer1@people.test']);
      const { participants } = await stored(svc, svc.orgA, res.json().code);
      expect(participants.map((p) => p.email)).not.toContain(ROSA.email);
    });
  });

  describe('bad readers and CC addresses are refused with 400 and a message that names the field', () => {
    const refused = async (fields: Record<string, unknown>) =>
      call(svc.app, 'POST', '/document/upload', { key: svc.orgA.privateKey, body: pdfProcess(svc.orgA, fields) });

    it.each([
      [{ readers: [{ name: 'Rosa', email: 'not-an-e-mail' }] }, '"readers[0].email" must be a valid email'],
      [{ readers: [{ email: 'rosa@board.test' }] }, '"readers[0].name" is required'],
      [{ readers: [ROSA, { name: 'Rosa again', email: 'ROSA@board.test' }] }, '"readers[1].email" is given twice'],
      [
        { readers: [{ name: 'Signer', email: 'Signer0@People.test' }] },
        `"readers[0].email" is a participant's: a reader follows the process and never signs in it`,
      ],
      [
        { readers: Array.from({ length: 21 }, (_, i) => ({ name: `R${i}`, email: `r${i}@board.test` })) },
        '"readers" must contain less than or equal to 20 items',
      ],
      [{ cc: ['nope'] }, '"cc[0]" must be a valid email'],
      [{ cc: ['signer1@people.test'] }, `"cc[0]" is a participant's, who gets the final files already`],
      [{ readers: [ROSA], cc: ['rosa@board.test'] }, `"cc[0]" is a reader's, who gets the final files already`],
      [{ cc: ['a@acme.test', 'A@acme.test'] }, '"cc[1]" is given twice'],
      [{ cc: Array.from({ length: 21 }, (_, i) => `c${i}@acme.test`) }, '"cc" must contain less than or equal to 20 items'],
    ])('%j → %s', async (fields, message) => {
      const res = await refused(fields);
      expect([res.statusCode, res.json()]).toEqual([400, { message }]);
    });

    it('a refused creation leaves nothing behind', async () => {
      const before = await svc.deps.db.selectFrom('process_readers').select('id').execute();
      await refused({ readers: [ROSA, ROSA] });
      await refused({ readers: [ROSA], cc: ['signer0@people.test'] });
      expect(await svc.deps.db.selectFrom('process_readers').select('id').execute()).toEqual(before);
    });
  });

  describe('readers never sign, never validate and never hold the turn order', () => {
    it('with readers and sequential signers, the last signature finishes the process', async () => {
      const signProfile = signers(2).map((signer, order) => ({ ...signer, order }));
      const code = await createProcess(svc, svc.orgA, '/document/upload', pdfProcess(svc.orgA, { signProfile, readers: [ROSA] }));
      await endProcess(svc, svc.orgA, code, 'FINISH');
      expect((await view(code, svc.orgA.privateKey)).signFinish).toBe(true);
    });
  });

  describe("readers are e-mailed, in the organization's language: the invitation, every signature and rejection, the end, and the final files", () => {
    it('invitation, each signature, then the final files; the CC address gets the final files once, and nothing before', async () => {
      await updateSettings(svc.deps.db, { organizationId: svc.orgA.id, changes: { language: 'en' } });
      onTestFinished(async () => {
        await updateSettings(svc.deps.db, { organizationId: svc.orgA.id, changes: { language: 'es' } });
      });
      await newMail();
      const code = await createProcess(svc, svc.orgA, '/document/upload', pdfProcess(svc.orgA, { name: 'Lease', readers: [ROSA], cc: ['archive@acme.test'] }));
      const created = await newMail();
      const [invitation] = to(created, ROSA.email);
      expect(to(created, ROSA.email)).toHaveLength(1);
      expect(invitation?.message.subject).toBe('For your information: "Lease"');
      expect(String(invitation?.message.text)).toContain('you do not have to sign anything');
      expect(to(created, 'archive@acme.test')).toEqual([]);
      const token = linkOf(invitation);
      expect(token).not.toBe('');
      expect((await readerTokens(svc.orgA, code)).find((r) => r.kind === 'READER')?.token).toBe(token);

      const { participants } = await stored(svc, svc.orgA, code);
      await readAndSign(svc.deps, { token: participants[0]!.link_token });
      const first = await newMail();
      expect(to(first, ROSA.email).map((m) => [m.message.subject, linkOf(m)])).toEqual([['Signer 0 signed "Lease"', token]]);
      expect(to(first, 'archive@acme.test')).toEqual([]);

      await readAndSign(svc.deps, { token: participants[1]!.link_token });
      const last = await newMail();
      // The update and the final files come from two jobs of the same round: either may be delivered first.
      expect(
        to(last, ROSA.email)
          .map((m) => [m.message.subject, linkOf(m)])
          .sort(),
      ).toEqual([
        ['"Lease" is signed', token],
        ['Signer 1 signed "Lease"', token],
      ]);
      const cc = to(last, 'archive@acme.test');
      expect(cc.map((m) => m.message.subject)).toEqual(['"Lease" is signed']);
      const ccToken = (await readerTokens(svc.orgA, code)).find((r) => r.kind === 'CC')?.token;
      expect(linkOf(cc[0])).toBe(ccToken);
      expect(ccToken).not.toBe(token);
      expect(await newMail()).toEqual([]);
    });

    it('a rejection (in Spanish, the default), a cancellation with its reason and an expiry reach the readers; the CC address hears nothing', async () => {
      await newMail();
      const rejected = await createProcess(
        svc,
        svc.orgB,
        '/document/upload',
        pdfProcess(svc.orgB, { name: 'Arriendo', readers: [ROSA], cc: ['archive@globex.test'] }),
      );
      await endProcess(svc, svc.orgB, rejected, 'REJECTED');
      const cancelled = await createProcess(svc, svc.orgB, '/document/upload', pdfProcess(svc.orgB, { name: 'Venta', readers: [LUIS] }));
      await endProcess(svc, svc.orgB, cancelled, 'CANCELLED');
      const expiredDate = new Date(svc.clock.now().getTime() + 4 * 24 * 3600 * 1000).toISOString();
      const expired = await createProcess(svc, svc.orgB, '/document/upload', pdfProcess(svc.orgB, { name: 'Poder', readers: [ROSA], expiredDate }));
      await endProcess(svc, svc.orgB, expired, 'EXPIRED');
      const mail = await newMail();
      expect(
        to(mail, ROSA.email)
          .map((m) => m.message.subject)
          .sort(),
      ).toEqual(['Documento rechazado: «Arriendo»', 'Documento vencido: «Poder»', 'Para tu información: «Arriendo»', 'Para tu información: «Poder»']);
      expect(String(to(mail, ROSA.email).find((m) => String(m.message.subject).startsWith('Documento rechazado'))?.message.text)).toContain(
        'Signer 0 rechazó «Arriendo»',
      );
      expect(to(mail, LUIS.email).map((m) => m.message.subject)).toEqual(['Para tu información: «Venta»', 'Documento cancelado: «Venta»']);
      expect(String(to(mail, LUIS.email)[1]?.message.text)).toContain('No longer needed');
      expect(to(mail, 'archive@globex.test')).toEqual([]);
    });

    it('a reactivation (PUT /document/reactivate) reaches the readers of that process only, like the other updates', async () => {
      await newMail();
      const code = await createProcess(
        svc,
        svc.orgB,
        '/document/upload',
        pdfProcess(svc.orgB, { name: 'Comodato', readers: [ROSA], cc: ['archive@globex.test'] }),
      );
      const other = await createProcess(svc, svc.orgA, '/document/upload', pdfProcess(svc.orgA, { name: 'Other', readers: [LUIS] }));
      await endProcess(svc, svc.orgB, code, 'REJECTED');
      await endProcess(svc, svc.orgA, other, 'REJECTED');
      await newMail();
      const res = await call(svc.app, 'PUT', '/document/reactivate', { key: svc.orgB.privateKey, body: { code, email: svc.orgB.email } });
      expect(res.statusCode).toBe(200);
      const mail = await newMail();
      const told = to(mail, ROSA.email);
      expect(told.map((m) => m.message.subject)).toEqual(['Documento de nuevo en firma: «Comodato»']);
      expect(String(told[0]?.message.text)).toContain('vuelve a estar en firma');
      expect(linkOf(told[0])).toBe((await readerTokens(svc.orgB, code)).find((r) => r.kind === 'READER')?.token);
      expect(to(mail, LUIS.email)).toEqual([]);
      expect(to(mail, 'archive@globex.test')).toEqual([]);
    });

    it('a process waiting for its PDF (compress) invites its readers only when the PDF arrives', async () => {
      await newMail();
      const res = await call(svc.app, 'POST', '/document/upload', {
        key: svc.orgA.privateKey,
        body: { email: svc.orgA.email, name: 'Later', compress: true, signProfile: signers(1), readers: [LUIS] },
      });
      expect(to(await newMail(), LUIS.email)).toEqual([]);
      const upload = await svc.app.inject({
        method: 'PUT',
        url: localPath(res.json().url),
        headers: { 'content-type': 'application/pdf' },
        payload: PDF_BYTES,
      });
      expect(upload.statusCode).toBe(200);
      expect(to(await newMail(), LUIS.email).map((m) => m.message.subject)).toEqual(['Para tu información: «Later»']);
    });
  });

  describe("the reader's link shows the document only: it reads, and nothing else (tried as an attacker)", () => {
    let code: string;
    let reader: string;
    let cc: string;
    let signerToken: string;
    beforeAll(async () => {
      const signProfile = [{ name: 'Ana Gómez', email: 'ana@people.test', phone: '+573001112233' }];
      code = await createProcess(
        svc,
        svc.orgA,
        '/document/upload',
        pdfProcess(svc.orgA, { name: 'Board minutes', signProfile, readers: [ROSA], cc: ['archive@acme.test'] }),
      );
      const tokens = await readerTokens(svc.orgA, code);
      reader = tokens.find((r) => r.kind === 'READER')?.token ?? '';
      cc = tokens.find((r) => r.kind === 'CC')?.token ?? '';
      signerToken = (await stored(svc, svc.orgA, code)).participants[0]!.link_token;
    });

    it('GET /people/reading answers the process of the link read-only: names and statuses, the documents, no code, id, contact or link', async () => {
      const res = await people('GET', '/reading', reader);
      expect(res.statusCode).toBe(200);
      const page = res.json();
      expect(Object.keys(page).sort()).toEqual(['documents', 'language', 'participants', 'process', 'state']);
      expect(page).toMatchObject({
        state: 'following',
        language: 'es',
        process: { name: 'Board minutes', organization: 'Acme' },
        participants: [{ name: 'Ana Gómez', role: 'SIGNER', status: 'NOTIFICATION', you: false }],
        documents: [{ kind: 'document', name: 'Board minutes', contentType: 'application/pdf' }],
      });
      const { participants } = await stored(svc, svc.orgA, code);
      for (const secret of [code, participants[0]!.participant_id, signerToken, 'ana@people.test', '+573001112233', 'rosa@board.test', cc]) {
        expect(res.body).not.toContain(secret);
      }
      const file = await svc.app.inject({ method: 'GET', url: localPath(page.documents[0].url) });
      expect([file.statusCode, file.headers['content-type']]).toEqual([200, 'application/pdf']);
    });

    it("the reader's token opens no participant route: it cannot sign, approve, reject, ask a code or send a photo", async () => {
      const attempts: [string, string, Record<string, unknown>?][] = [
        ['GET', '/signing'],
        ['POST', '/signing/sign', { consent: true }],
        ['POST', '/signing/approve', { consent: true }],
        ['POST', '/signing/reject', { reason: 'I am only a reader' }],
        ['POST', '/signing/otp'],
        ['POST', '/signing/photo', { kind: 'face', image: jpeg().toString('base64') }],
        ['POST', '/signing/opened', { document: 0 }],
        ['POST', '/signing/copy'],
        ['GET', '/validation'],
        ['GET', '/fill'],
      ];
      for (const [method, path, body] of attempts) {
        const res = await people(method === 'GET' ? 'GET' : 'POST', path, reader, body);
        expect(res.statusCode, `${method} ${path}`).toBe(404);
      }
      expect((await stored(svc, svc.orgA, code)).participants[0]).toMatchObject({ status: 'NOTIFICATION', signed_at: null, otp_sent_at: null });
      expect((await view(code, svc.orgA.privateKey)).status).toBe('CREATED');
    });

    it("a participant's token does not open the reader's page, nor does an unknown one", async () => {
      expect((await people('GET', '/reading', signerToken)).json()).toEqual({ message: 'READING_LINK_NOT_FOUND' });
      expect((await people('GET', '/reading', 'A'.repeat(32))).json()).toEqual({ message: 'READING_LINK_NOT_FOUND' });
    });

    it('no identity photo reaches the reader: the page has no photo, whatever the signers sent', async () => {
      const photographed = await createProcess(
        svc,
        svc.orgB,
        '/document/upload',
        pdfProcess(svc.orgB, { signProfile: [{ name: 'Ana', email: 'ana@people.test', camera: true, options: { camera: 'photo' } }], readers: [ROSA] }),
      );
      const [row] = await readerTokens(svc.orgB, photographed);
      const res = await people('GET', '/reading', row!.token);
      expect(res.body).not.toMatch(/\/photos\/|identificationCard|"photo"/);
      expect(res.json().documents.map((d: { url: string }) => new URL(d.url).pathname)).toEqual([expect.stringMatching(/^\/files\/documents\//)]);
    });

    it("each reader reaches their own process only: another process's and another organization's are not theirs", async () => {
      const theirs = await createProcess(svc, svc.orgB, '/document/upload', pdfProcess(svc.orgB, { name: 'Globex secret', readers: [ROSA] }));
      const [theirReader] = await readerTokens(svc.orgB, theirs);
      expect((await people('GET', '/reading', reader)).json().process.name).toBe('Board minutes');
      expect((await people('GET', '/reading', theirReader!.token)).json().process.name).toBe('Globex secret');
      expect((await people('GET', '/reading', reader)).body).not.toContain('Globex');
    });

    it('the CC link shows nothing before the final files exist, then the signed document and the certificate', async () => {
      expect((await people('GET', '/reading', cc)).json().documents).toEqual([]);
      await endProcess(svc, svc.orgA, code, 'FINISH');
      await runOutbox(svc);
      const sealed = (await people('GET', '/reading', cc)).json();
      expect(sealed.state).toBe('finished');
      expect(sealed.documents.map((d: { kind: string }) => d.kind)).toEqual(['document', 'certificate']);
      const readerPage = (await people('GET', '/reading', reader)).json();
      expect(readerPage.documents.map((d: { kind: string }) => d.kind)).toEqual(['document', 'certificate']);
      expect((await people('POST', '/signing/reject', reader, { reason: 'too late' })).statusCode).toBe(404);
    });

    it('the page itself (/read/<token>) is the people app in read mode, never cached, never indexed, no referrer', async () => {
      const res = await svc.app.inject({ method: 'GET', url: `/read/${reader}` });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('data-mode="read"');
      expect(res.headers).toMatchObject({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer', 'x-robots-tag': 'noindex, nofollow' });
      expect(`${PUBLIC_URL}/read/${reader}`).toMatch(READ_LINK);
    });
  });
});
