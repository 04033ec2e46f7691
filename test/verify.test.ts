import { AxeBuilder } from '@axe-core/playwright';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../src/documents/document-files.js';
import { findProcessByCode, listParticipants, markSealed } from '../src/documents/queries.js';
import { finalFileKeys, recordFinalFiles } from '../src/documents/sealing/final-file-queries.js';
import { sealProcess } from '../src/documents/sealing/seal-process.js';
import { readBlobBytes } from '../src/files/blob-bytes.js';
import { findOrganization } from '../src/organizations/queries.js';
import { settingsOf } from '../src/organizations/settings.js';
import { launchBrowser, screenshot } from './support/browser.js';
import { call, dialects, startTestService, type TestOrganization, type TestService } from './support/service.js';
import { readAndSign } from './support/signing.js';

async function makePdf(text: string): Promise<Buffer> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  document.addPage([400, 300]).drawText(text, { x: 40, y: 200, font, size: 14 });
  return Buffer.from(await document.save());
}

interface Sealed {
  code: string;
  document: Buffer;
  certificate: Buffer;
}

/** A PDF process of `org` with one signer who signs through the signing flow, sealed. */
async function sealedProcess(svc: TestService, org: TestOrganization, signer: { name: string; email: string; phone: string }): Promise<Sealed> {
  const res = await call(svc.app, 'POST', '/document/upload', {
    key: org.privateKey,
    body: { email: org.email, name: `Contract of ${signer.name}`, file: (await makePdf(`For ${signer.name}`)).toString('base64'), signProfile: [signer] },
  });
  expect(res.statusCode, res.body).toBe(200);
  const code: string = res.json().code;
  const process = await findProcessByCode(svc.deps.db, org.id, code);
  if (!process) throw new Error('not stored');
  const [participant] = await listParticipants(svc.deps.db, process.id);
  await readAndSign(svc.deps, { token: participant?.link_token ?? '', ip: '192.0.2.1' });
  expect(await sealProcess(svc.deps, { processId: process.id })).toBe(true);
  const keys = await finalFileKeys(svc.deps.db, process.id);
  if (!keys) throw new Error('no final files recorded');
  const read = async (key: string) => (await readBlobBytes(svc.deps.blobs, key)) ?? Buffer.alloc(0);
  return { code, document: await read(keys.documents[0] ?? ''), certificate: await read(keys.certificate) };
}

function getVerify(svc: TestService, query: Record<string, string> = {}) {
  return svc.app.inject({ method: 'GET', url: '/verify', query });
}

function postPdf(svc: TestService, pdf: Buffer, headers: Record<string, string> = {}) {
  return svc.app.inject({ method: 'POST', url: '/verify', headers: { 'content-type': 'application/pdf', ...headers }, payload: pdf });
}

/** The page's own form, as a browser sends it. */
function postForm(svc: TestService, pdf: Buffer, headers: Record<string, string> = {}) {
  const boundary = '----formboundary7MA4YWxkTrZu0gW';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="contract.pdf"\r\nContent-Type: application/pdf\r\n\r\n`),
    pdf,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return svc.app.inject({ method: 'POST', url: '/verify', headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, ...headers }, payload });
}

const ANA = { name: 'Ana Verified', email: 'ana@verify.test', phone: '+573001112233' };
const BORIS = { name: 'Boris Other', email: 'boris@other.test', phone: '+573009998877' };

describe.each(dialects)('/verify: anyone checks a final document (%s)', (dialect) => {
  let svc: TestService;
  let a: Sealed;
  let b: Sealed;
  beforeAll(async () => {
    svc = await startTestService(dialect);
    a = await sealedProcess(svc, svc.orgA, ANA);
    b = await sealedProcess(svc, svc.orgB, BORIS);
  });
  afterAll(async () => svc.close());

  describe('an unchanged final file is recognised, with its process, participants and dates, never e-mails or phones', () => {
    it('the sealed document and the certificate, sent as application/pdf', async () => {
      for (const [pdf, file] of [
        [a.document, '0.pdf'],
        [a.certificate, 'certificate.pdf'],
      ] as const) {
        const res = await postPdf(svc, pdf);
        expect(res.statusCode, res.body).toBe(200);
        const body = res.json();
        expect(body.result).toBe('unchanged');
        expect(body.file).toBe(file);
        expect(body.process.code).toBe(a.code);
        expect(body.process.status).toBe('FINISH');
        expect(body.process.participants).toEqual([{ name: ANA.name, role: 'SIGNER', signedAt: expect.any(String) }]);
        // Without a timestamp authority the instance seals at B-B, with the certificate it made itself.
        expect(body.seal).toEqual({ level: 'B-B', chain: ['Document seal of service.test'], timestamps: [], revocationData: false });
        expect(res.body).not.toContain(ANA.email);
        expect(res.body).not.toContain(ANA.phone);
        expect(res.body).not.toContain(svc.orgA.email);
        expect(res.body).not.toContain(BORIS.name);
      }
    });
  });

  describe('a changed file is not genuine, and says which process it claims to be', () => {
    it('one byte changed in the sealed document', async () => {
      const changed = Buffer.from(a.document);
      const at = changed.indexOf('/Type /Page');
      changed[at + 1] = 'X'.charCodeAt(0);
      const body = (await postPdf(svc, changed)).json();
      expect(body.result).toBe('changed');
      expect(body.process.code).toBe(a.code);
    });

    it('a PDF that is nothing of this service, and an empty or missing one', async () => {
      expect((await postPdf(svc, await makePdf('Unrelated'))).json()).toEqual({ result: 'unknown', sha256: expect.any(String) });
      const empty = await postPdf(svc, Buffer.alloc(0));
      expect(empty.statusCode).toBe(400);
      expect(empty.json().message).toMatch(/^VERIFY_INPUT_REQUIRED/);
      const json = await svc.app.inject({ method: 'POST', url: '/verify', headers: { 'content-type': 'application/json' }, payload: '{}' });
      expect(json.statusCode).toBe(415);
    });

    it('a file larger than UPLOAD_MAX_BYTES is refused with 413', async () => {
      const res = await postPdf(svc, Buffer.alloc(svc.config.uploadMaxBytes + 1, 0x20));
      expect(res.statusCode).toBe(413);
      expect(res.json().message).toMatch(/^VERIFY_FILE_TOO_LARGE/);
    });
  });

  describe('an original upload certifies nothing: only signed final files are authentic, and no organization is shown for bytes another also uploaded', () => {
    it('the bytes A uploaded for a process now sealed are unknown', async () => {
      const original = await makePdf(`For ${ANA.name}`);
      expect((await postPdf(svc, original)).json()).toEqual({ result: 'unknown', sha256: expect.any(String) });
    });

    it('a blank form an earlier version recorded unsigned as the "final" file of processes in A and in B is unknown, naming neither', async () => {
      const form = await makePdf('Blank form');
      for (const [org, signer] of [
        [svc.orgA, ANA],
        [svc.orgB, BORIS],
      ] as const) {
        const res = await call(svc.app, 'POST', '/document/upload', {
          key: org.privateKey,
          body: { email: org.email, name: `Form of ${signer.name}`, file: form.toString('base64'), signProfile: [signer] },
        });
        const process = await findProcessByCode(svc.deps.db, org.id, res.json().code);
        if (!process) throw new Error('not stored');
        // What a seal that could not open the upload left before: the upload itself recorded as the final file.
        const at = svc.clock.now().toISOString();
        await markSealed(svc.deps.db, process.id, at);
        await recordFinalFiles(svc.deps.db, [
          { process_id: process.id, file_key: `processes/${process.id}/final/0.pdf`, sha256: sha256(form), created_at: at, document_position: 0 },
        ]);
      }
      const answer = await postPdf(svc, form);
      expect(answer.json()).toEqual({ result: 'unknown', sha256: sha256(form) });
      for (const name of [ANA.name, BORIS.name, 'Blank form']) expect(answer.body).not.toContain(name);
      const page = await postForm(svc, form, { accept: 'text/html' });
      for (const name of [ANA.name, BORIS.name]) expect(page.body).not.toContain(name);
    });
  });

  describe('a code is looked up among sealed processes only; codes are global, and answers name only that process', () => {
    it("A's and B's codes each answer their own process; an unknown code, or a process not sealed, is unknown", async () => {
      const found = await getVerify(svc, { code: a.code });
      expect(found.statusCode).toBe(200);
      expect(found.json().result).toBe('found');
      expect(found.json().process.participants.map((p: { name: string }) => p.name)).toEqual([ANA.name]);
      expect(found.body).not.toContain(BORIS.name);
      const other = (await getVerify(svc, { code: b.code.toLowerCase() })).json();
      expect(other.process.participants.map((p: { name: string }) => p.name)).toEqual([BORIS.name]);
      expect(JSON.stringify(other)).not.toContain(BORIS.email);
      expect((await getVerify(svc, { code: 'NOSUCHCODE' })).json()).toEqual({ result: 'unknown' });
      const open = await call(svc.app, 'POST', '/document/upload', {
        key: svc.orgA.privateKey,
        body: {
          email: svc.orgA.email,
          name: 'Open',
          file: (await makePdf('Open')).toString('base64'),
          signProfile: [{ name: 'Olga', email: 'olga@verify.test' }],
        },
      });
      expect((await getVerify(svc, { code: open.json().code })).json()).toEqual({ result: 'unknown' });
      const none = await getVerify(svc);
      expect(none.statusCode).toBe(400);
      expect(none.json().message).toMatch(/^VERIFY_INPUT_REQUIRED/);
    });
  });

  describe('the page: small server-rendered HTML, Spanish by default and English by Accept-Language, locked down', () => {
    it('GET with Accept: text/html shows the forms with labels, lang, CSP and nosniff', async () => {
      const page = await svc.app.inject({ method: 'GET', url: '/verify', headers: { accept: 'text/html' } });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['content-security-policy']).toContain("default-src 'none'");
      expect(page.headers['content-security-policy']).toContain("form-action 'self'");
      expect(page.headers['x-content-type-options']).toBe('nosniff');
      expect(page.body).toContain('<html lang="es">');
      expect(page.body).toContain('<label for="verify-file">Documento PDF</label>');
      expect(page.body).toContain('<label for="verify-code">Código del proceso</label>');
      expect(page.body).not.toContain('<script');
      const english = await svc.app.inject({ method: 'GET', url: '/verify', headers: { accept: 'text/html', 'accept-language': 'en-US,en;q=0.9,es;q=0.5' } });
      expect(english.body).toContain('<html lang="en">');
      expect(english.body).toContain('Verify a signed document');
    });

    it("the page's form upload shows the outcome; the code form shows the process; refusals are shown on the page", async () => {
      const unchanged = await postForm(svc, a.document, { accept: 'text/html' });
      expect(unchanged.statusCode).toBe(200);
      expect(unchanged.body).toContain('Documento auténtico y sin cambios');
      expect(unchanged.body).toContain(ANA.name);
      expect(unchanged.body).not.toContain(ANA.email);
      const byCode = await svc.app.inject({ method: 'GET', url: `/verify?code=${b.code}`, headers: { accept: 'text/html', 'accept-language': 'en' } });
      expect(byCode.body).toContain('Signature process found');
      expect(byCode.body).toContain(BORIS.name);
      expect(byCode.body).toContain(`value="${b.code}"`);
      const refused = await postForm(svc, Buffer.alloc(0), { accept: 'text/html' });
      expect(refused.statusCode).toBe(400);
      expect(refused.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(refused.body).toContain('role="alert"');
    });

    it('has no accessibility violations (axe-core) and its forms are reachable with the keyboard', async () => {
      const html = (await svc.app.inject({ method: 'GET', url: `/verify?code=${a.code}`, headers: { accept: 'text/html' } })).body;
      const phone = await launchBrowser();
      try {
        const page = await (await phone.browser.newContext()).newPage();
        await page.setContent(html);
        const results = await new AxeBuilder({ page }).analyze();
        expect(results.violations.map((v) => v.id)).toEqual([]);
        const focused: string[] = [];
        for (let i = 0; i < 4; i++) {
          await page.keyboard.press('Tab');
          focused.push(await page.evaluate(() => document.activeElement?.id || document.activeElement?.tagName || ''));
        }
        expect(focused).toEqual(['verify-file', 'BUTTON', 'verify-code', 'BUTTON']);
      } finally {
        await phone.close();
      }
    });

    it("on a phone (375 px): the verdict first, no sideways scrolling (the SHA-256 wraps), dates in the organization's language and time zone", async () => {
      const html = (await postForm(svc, a.document, { accept: 'text/html' })).body;
      const process = await findProcessByCode(svc.deps.db, svc.orgA.id, a.code);
      const organization = await findOrganization(svc.deps.db, svc.orgA.id);
      if (!process || !organization) throw new Error('sealed process of A');
      const { language, timeZone } = settingsOf(organization);
      const created = new Intl.DateTimeFormat(language, { dateStyle: 'long', timeStyle: 'short', timeZone }).format(new Date(process.created_at));
      expect(html).toContain(created);
      expect(html.indexOf('Documento auténtico')).toBeLessThan(html.indexOf('<form'));
      // The pages' tests' browser (the guide's flags): the renderer's own launch runs Chromium as one
      // process, which under a loaded machine was seen to crash at start (SIGSEGV) once in a full run.
      const phone = await launchBrowser();
      try {
        const page = await (await phone.browser.newContext({ viewport: { width: 375, height: 812 }, deviceScaleFactor: 2 })).newPage();
        await page.setContent(html);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
        expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id)).toEqual([]);
        await screenshot(page, '22-verify-on-a-phone');
      } finally {
        await phone.close();
      }
    });
  });
});

describe('/verify is rate-limited per client address', () => {
  it('past VERIFY_RATE_LIMIT requests a minute, the address is answered 429 TOO_MANY_REQUESTS with Retry-After', async () => {
    const svc = await startTestService('sqlite', { VERIFY_RATE_LIMIT: '3' });
    try {
      for (let i = 0; i < 3; i++) expect((await getVerify(svc, { code: 'ABCDEFGHIJ' })).statusCode).toBe(200);
      const limited = await getVerify(svc, { code: 'ABCDEFGHIJ' });
      expect(limited.statusCode).toBe(429);
      expect(limited.json().message).toMatch(/^TOO_MANY_REQUESTS/);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await svc.close();
    }
  });
});
