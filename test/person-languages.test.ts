import { PDFDocument } from 'pdf-lib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { requestOtp } from '../src/documents/participant/signer-otp.js';
import { finalFileKeys } from '../src/documents/sealing/final-file-queries.js';
import { sealProcess } from '../src/documents/sealing/seal-process.js';
import { readBlobBytes } from '../src/files/blob-bytes.js';
import { renderMessage } from '../src/messages/message-templates.js';
import { setSdkIntegration } from '../src/organizations/organizations.js';
import { updateSettings } from '../src/organizations/settings.js';
import { verifaceBody } from './support/fixtures.js';
import { pdfToolsInstalled, pdftotext } from './support/pdf-tools.js';
import { call, dialects, startTestService, type TestService } from './support/service.js';
import { createProcess, outbox, pdfProcess, readAndSign, stored } from './support/signing.js';

/** An upload of two blank pages. */
async function twoPagePdf(): Promise<string> {
  const document = await PDFDocument.create();
  document.addPage([300, 200]);
  document.addPage([300, 200]);
  return Buffer.from(await document.save({ useObjectStreams: false })).toString('base64');
}

const FRENCH_BROWSER = { 'accept-language': 'fr-FR,fr;q=0.9' };

describe.each(dialects)('one language per person (issue 41) (%s)', (dialect) => {
  let svc: TestService;
  beforeEach(async () => {
    svc = await startTestService(dialect);
    // Organization A speaks Spanish, B Portuguese: a person without a language of their own follows theirs.
    await updateSettings(svc.deps.db, { organizationId: svc.orgA.id, changes: { language: 'es' } });
    await updateSettings(svc.deps.db, { organizationId: svc.orgB.id, changes: { language: 'pt' } });
  });
  afterEach(async () => svc.close());

  const emailsTo = async (to: string) => (await outbox(svc, 'email')).map((row) => row.body).filter((body) => body.to === to);
  const page = (path: string) => svc.app.inject({ method: 'GET', url: path, headers: FRENCH_BROWSER });
  const htmlLang = (html: string) => /<html lang="([a-z]{2})">/.exec(html)?.[1];

  describe("a signer's `language` is the language of their e-mails, their code and their page, whatever the browser asks", () => {
    it("a signer created with language 'en' in a Spanish organization gets an English invitation, an English code e-mail and an English page under Accept-Language: fr; one without gets Spanish", async () => {
      const code = await createProcess(
        svc,
        svc.orgA,
        '/document/upload',
        pdfProcess(svc.orgA, {
          otpCode: true,
          options: { otpCode: 'email' },
          signProfile: [
            { name: 'Emma', email: 'emma@people.test', language: 'en' },
            { name: 'Elena', email: 'elena@people.test' },
          ],
        }),
      );
      const { participants } = await stored(svc, svc.orgA, code);
      const [emma, elena] = participants;
      if (!emma || !elena) throw new Error('participants not stored');
      expect([emma.language, elena.language]).toEqual(['en', null]);

      const english = renderMessage('signing-invitation', { subject: '', signerName: '', processName: '', message: '', link: '' }, 'en');
      const spanish = renderMessage('signing-invitation', { subject: '', signerName: '', processName: '', message: '', link: '' }, 'es');
      expect((await emailsTo('emma@people.test'))[0]?.html).toContain('lang="en"');
      expect((await emailsTo('elena@people.test'))[0]?.html).toContain('lang="es"');
      expect(english.html).not.toBe(spanish.html);

      await requestOtp(svc.deps, { token: emma.link_token });
      const otp = (await emailsTo('emma@people.test')).find((body) => body.template === 'otp-code');
      expect(otp?.subject).toBe(renderMessage('otp-code', { code: '', minutes: 10 }, 'en').subject);

      const emmaPage = await page(`/s/${emma.link_token}`);
      expect(htmlLang(emmaPage.body)).toBe('en');
      expect(emmaPage.body).toContain('<title>Document signing</title>');
      expect(htmlLang((await page(`/s/${elena.link_token}`)).body)).toBe('es');
      const view = await svc.app.inject({ method: 'GET', url: '/people/signing', headers: { 'x-link-token': emma.link_token, ...FRENCH_BROWSER } });
      expect(view.json().language).toBe('en');

      // A link that opens nothing still follows the browser; the other organization never sees the process.
      expect(htmlLang((await page(`/s/${'x'.repeat(43)}`)).body)).toBe('fr');
      expect((await call(svc.app, 'GET', '/document', { key: svc.orgB.privateKey, query: { code } })).statusCode).not.toBe(200);
    });

    it("a signer without a language reads their organization's: B's signers get Portuguese, A's Spanish", async () => {
      const codeA = await createProcess(svc, svc.orgA, '/document/upload', pdfProcess(svc.orgA, { signProfile: [{ name: 'Ana', email: 'ana@people.test' }] }));
      const codeB = await createProcess(svc, svc.orgB, '/document/upload', pdfProcess(svc.orgB, { signProfile: [{ name: 'Bia', email: 'bia@people.test' }] }));
      expect((await emailsTo('ana@people.test'))[0]?.html).toContain('lang="es"');
      expect((await emailsTo('bia@people.test'))[0]?.html).toContain('lang="pt"');
      const [bia] = (await stored(svc, svc.orgB, codeB)).participants;
      expect(htmlLang((await page(`/s/${bia?.link_token ?? ''}`)).body)).toBe('pt');
      await expect(stored(svc, svc.orgB, codeA)).rejects.toThrow();
    });
  });

  describe("the SDK's `language` is kept as the person's whose flow its frame opens", () => {
    it("a frame opened with language 'en' makes the signer's later code e-mail English; another organization's key changes nothing", async () => {
      const parentOrigin = 'https://app.example.com';
      await updateSettings(svc.deps.db, { organizationId: svc.orgA.id, changes: { sdkOrigins: [parentOrigin] } });
      await updateSettings(svc.deps.db, { organizationId: svc.orgB.id, changes: { sdkOrigins: [parentOrigin] } });
      const code = await createProcess(
        svc,
        svc.orgA,
        '/document/upload',
        pdfProcess(svc.orgA, { otpCode: true, options: { otpCode: 'email' }, signProfile: [{ name: 'Sam', email: 'sam@people.test' }] }),
      );
      const [sam] = (await stored(svc, svc.orgA, code)).participants;
      if (!sam) throw new Error('participant not stored');
      const embed = (keyPublic: string, language: string) =>
        svc.app.inject({ method: 'POST', url: '/people/embed', payload: { keyPublic, document: `${code}${sam.participant_id}`, parentOrigin, language } });
      expect((await embed(svc.orgB.publicKey, 'fr')).statusCode).toBe(404);
      expect((await stored(svc, svc.orgA, code)).participants[0]?.language).toBeNull();

      expect((await embed(svc.orgA.publicKey, 'en')).statusCode).toBe(200);
      expect((await stored(svc, svc.orgA, code)).participants[0]?.language).toBe('en');
      await requestOtp(svc.deps, { token: sam.link_token });
      const otp = (await emailsTo('sam@people.test')).find((body) => body.template === 'otp-code');
      expect(otp?.subject).toBe(renderMessage('otp-code', { code: '', minutes: 10 }, 'en').subject);
      expect((await embed(svc.orgA.publicKey, 'de')).statusCode).toBe(400);
    });
  });

  describe('a language the service does not speak is a 400 naming the field', () => {
    const cases: [string, string, () => Record<string, unknown>, string][] = [
      [
        '/document/upload',
        'signProfile[0].language',
        () => pdfProcess(svc.orgA, { signProfile: [{ name: 'Ana', email: 'ana@people.test', language: 'de' }] }),
        '"signProfile[0].language" must be one of [es, en, pt, fr]',
      ],
      ['/veriface', 'language', () => verifaceBody(svc.orgA.email, { language: 'EN' }), '"language" must be one of [es, en, pt, fr]'],
    ];
    for (const [route, field, body, message] of cases) {
      it(`POST ${route} with an unknown ${field} (de, or EN in capitals): 400 {"message": ...}`, async () => {
        const res = await call(svc.app, 'POST', route, { key: svc.orgA.privateKey, body: body() });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ message: message });
      });
    }
  });

  describe("POST /veriface `language` is the person's invitation and validation page", () => {
    it("language 'en' in a Spanish organization: an English invitation e-mail and an English page under Accept-Language: fr", async () => {
      await setSdkIntegration(svc.deps.db, { organizationId: svc.orgA.id, enabled: true });
      const res = await call(svc.app, 'POST', '/veriface', {
        key: svc.orgA.privateKey,
        body: verifaceBody(svc.orgA.email, { platform: 'web', userEmail: 'juan@people.test', language: 'en' }),
      });
      expect(res.statusCode).toBe(200);
      const invitation = (await emailsTo('juan@people.test'))[0];
      expect(invitation?.subject).toBe(renderMessage('veriface-invitation', { personName: '', link: '' }, 'en').subject);
      const row = await svc.deps.db.selectFrom('veriface_processes').selectAll().where('code', '=', res.json().code).executeTakeFirstOrThrow();
      expect([row.organization_id, row.language]).toEqual([svc.orgA.id, 'en']);
      expect(htmlLang((await page(`/v/${row.link_token}`)).body)).toBe('en');
      expect((await call(svc.app, 'GET', '/veriface', { key: svc.orgB.privateKey, query: { code: res.json().code } })).statusCode).not.toBe(200);
    });
  });

  /** Signs every participant of `code` and answers the sealed PDF of its document and the stand-alone certificate, as text. */
  async function sealedTexts(code: string): Promise<{ document: string; certificate: string }> {
    const { process, participants } = await stored(svc, svc.orgA, code);
    for (const participant of participants) await readAndSign(svc.deps, { token: participant.link_token });
    expect(await sealProcess(svc.deps, { processId: process.id })).toBe(true);
    const keys = await finalFileKeys(svc.deps.db, process.id);
    const read = async (key: string | undefined) => pdftotext((await readBlobBytes(svc.deps.blobs, key ?? '')) ?? Buffer.alloc(0));
    return { document: await read(keys?.documents[0]), certificate: await read(keys?.certificate) };
  }

  describe("the certificate's times name the organization's time zone beside each time", () => {
    it.runIf(pdfToolsInstalled)(
      'an organization in Europe/Madrid: every time of the certificate is followed by Europe/Madrid, then the UTC instant',
      async () => {
        await updateSettings(svc.deps.db, { organizationId: svc.orgA.id, changes: { timeZone: 'Europe/Madrid' } });
        const signProfile = [{ name: 'Emma', email: 'emma@people.test', language: 'en' }];
        const { certificate } = await sealedTexts(await createProcess(svc, svc.orgA, '/document/upload', pdfProcess(svc.orgA, { signProfile })));
        const times = [...certificate.matchAll(/\d\d:\d\d:\d\d(.{0,40}?)\(\d{4}-\d\d-\d\dT/g)].map((match) => match[1]?.trim());
        expect(times.length).toBeGreaterThanOrEqual(3);
        for (const zone of times) expect(zone).toMatch(/Europe\/Madrid$/);
        expect(certificate).not.toContain('America/Bogota');
      },
    );
  });

  describe("the final files speak the participants' language when they all share one, else the organization's", () => {
    it.runIf(pdfToolsInstalled)('every signer English in a Spanish organization: an English footer and certificate', async () => {
      const signProfile = [
        { name: 'Emma', email: 'emma@people.test', language: 'en' },
        { name: 'Eric', email: 'eric@people.test', language: 'en' },
      ];
      const texts = await sealedTexts(await createProcess(svc, svc.orgA, '/document/upload', pdfProcess(svc.orgA, { signProfile })));
      for (const text of [texts.document, texts.certificate]) {
        expect(text).toContain('Evidence certificate');
        expect(text).toContain('Verify this document at');
        expect(text).not.toContain('Certificado de evidencias');
      }
    });

    it.runIf(pdfToolsInstalled)("one English and one French signer: the organization's Spanish", async () => {
      const signProfile = [
        { name: 'Emma', email: 'emma@people.test', language: 'en' },
        { name: 'Fanny', email: 'fanny@people.test', language: 'fr' },
      ];
      const texts = await sealedTexts(await createProcess(svc, svc.orgA, '/document/upload', pdfProcess(svc.orgA, { signProfile })));
      for (const text of [texts.document, texts.certificate]) {
        expect(text).toContain('Verifique este documento en');
        expect(text).not.toContain('Verify this document at');
      }
    });
  });

  describe("the certificate's page N of M counts the pages of the whole file it is in", () => {
    it.runIf(pdfToolsInstalled)('an uploaded PDF of two pages: its certificate pages are numbered from 3, out of every page of the file', async () => {
      const signProfile = [{ name: 'Emma', email: 'emma@people.test', language: 'en' }];
      const code = await createProcess(svc, svc.orgA, '/document/upload', pdfProcess(svc.orgA, { file: await twoPagePdf(), signProfile }));
      const { document } = await sealedTexts(code);
      const numbers = [...document.matchAll(/Page (\d+) of (\d+)/g)].map((match) => [Number(match[1]), Number(match[2])]);
      expect(numbers.length).toBeGreaterThan(0);
      const total = numbers[0]?.[1] ?? 0;
      expect(numbers).toEqual(numbers.map((_, index) => [3 + index, total]));
      expect(total).toBe(2 + numbers.length);
    });
  });
});
