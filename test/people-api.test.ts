import type { LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggablePath } from '../src/app.js';
import type { ParticipantRow } from '../src/db/schema.js';
import { recordSignatureBoxes } from '../src/documents/placement/box-queries.js';
import { listProcessEvents } from '../src/documents/queries.js';
import { sealProcess } from '../src/documents/sealing/seal-process.js';
import { findVerifaceByCode } from '../src/veriface/queries.js';
import { verifaceBody } from './support/fixtures.js';
import { jpeg } from './support/images.js';
import { call, dialects, startTestService, type TestOrganization, type TestService } from './support/service.js';
import { endProcess, outbox, PDF_BASE64, stored } from './support/signing.js';

const PHONE = '+573001234567';
let unique = 0;
const email = (name: string) => `${name}-${++unique}@people.test`;

describe.each(dialects)("the people's API, authorised by the link's token (%s)", (dialect) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService(dialect);
  });
  afterAll(async () => svc.close());

  const page = (token: string, method: 'GET' | 'POST' = 'GET', path = '/signing', body?: Record<string, unknown>): Promise<LightMyRequestResponse> =>
    svc.app.inject({ method, url: `/people${path}`, headers: { 'x-link-token': token }, ...(body ? { payload: body } : {}) });

  /** The page showed the process's only document, as it does before a signer can sign. */
  const open = (token: string) => page(token, 'POST', '/signing/opened', { document: 0 });

  async function process(org: TestOrganization, signProfile: Record<string, unknown>[], extra: Record<string, unknown> = {}) {
    const res = await call(svc.app, 'POST', '/document/upload', {
      key: org.privateKey,
      body: { email: org.email, name: 'Lease', message: 'Read it first', file: PDF_BASE64, signProfile, ...extra },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { code } = res.json() as { code: string };
    const { participants } = await stored(svc, org, code);
    return { code, tokens: participants.map((p) => p.link_token) };
  }

  describe("a participant's page shows the process, its documents and who takes part, by name only", () => {
    it('the page answers the process, its message, each participant by name and status, and no e-mail or phone of anyone', async () => {
      const ana = email('ana');
      const { tokens } = await process(svc.orgA, [
        { name: 'Ana', email: ana, phone: PHONE },
        { name: 'Luis', email: email('luis') },
      ]);
      const res = await page(tokens[0]!);
      expect(res.statusCode).toBe(200);
      const view = res.json();
      expect(view).toMatchObject({
        state: 'act',
        language: 'es',
        process: { name: 'Lease', message: 'Read it first', organization: 'Acme' },
        participant: { name: 'Ana', role: 'SIGNER', status: 'NOTIFICATION' },
        participants: [
          { name: 'Ana', you: true },
          { name: 'Luis', you: false },
        ],
        phoneOnRecord: true,
        canSign: true,
      });
      expect(view.documents).toEqual([expect.objectContaining({ kind: 'document', name: 'Lease', contentType: 'application/pdf' })]);
      expect(res.body).not.toContain(ana);
      expect(res.body).not.toContain(PHONE);
    });

    it('the first opening is recorded once, however often the page is read', async () => {
      const { code, tokens } = await process(svc.orgA, [{ name: 'Ana', email: email('ana') }]);
      for (let i = 0; i < 3; i++) expect((await page(tokens[0]!)).statusCode).toBe(200);
      const roadmap = (await call(svc.app, 'GET', '/document/roadmap', { key: svc.orgA.privateKey, query: { code } })).json();
      expect(roadmap.activityLog.filter((a: { action: string }) => a.action === 'PARTICIPANT_READ')).toHaveLength(1);
    });
  });

  describe('each state of a process has its own page', () => {
    it('waiting for an earlier turn names whom they wait for; done names who is left', async () => {
      const { tokens } = await process(svc.orgA, [
        { name: 'First', email: email('first'), order: 1 },
        { name: 'Second', email: email('second'), order: 2 },
        { name: 'Third', email: email('third'), order: 2 },
      ]);
      expect((await page(tokens[1]!)).json()).toMatchObject({ state: 'waiting', waitingFor: ['First'] });
      await open(tokens[0]!);
      expect((await page(tokens[0]!, 'POST', '/signing/sign', { consent: true })).json()).toMatchObject({ status: 'FINISH' });
      expect((await page(tokens[0]!)).json()).toMatchObject({ state: 'done', waitingFor: ['Second', 'Third'] });
      expect((await page(tokens[1]!)).json()).toMatchObject({ state: 'act' });
    });

    it('finished (sealing, then the signed files and the certificate), rejected, expired and cancelled', async () => {
      const finished = await process(svc.orgA, [{ name: 'Ana', email: email('ana') }]);
      await endProcess(svc, svc.orgA, finished.code, 'FINISH');
      expect((await page(finished.tokens[0]!)).json()).toMatchObject({ state: 'finished', sealing: true });
      const { process: row } = await stored(svc, svc.orgA, finished.code);
      await sealProcess(svc.deps, { processId: row.id });
      const sealed = (await page(finished.tokens[0]!)).json();
      expect(sealed.sealing).toBeUndefined();
      expect(sealed.documents.map((d: { kind: string }) => d.kind)).toEqual(['document', 'certificate']);

      const rejected = await process(svc.orgA, [{ name: 'Ana', email: email('ana') }]);
      await endProcess(svc, svc.orgA, rejected.code, 'REJECTED');
      expect((await page(rejected.tokens[0]!)).json()).toMatchObject({ state: 'rejected' });

      const cancelled = await process(svc.orgA, [{ name: 'Ana', email: email('ana') }]);
      await endProcess(svc, svc.orgA, cancelled.code, 'CANCELLED');
      expect((await page(cancelled.tokens[0]!)).json()).toMatchObject({ state: 'cancelled' });

      const expiring = await process(svc.orgA, [{ name: 'Ana', email: email('ana') }], {
        expiredDate: new Date(svc.clock.now().getTime() + 4 * 86_400_000).toISOString(),
      });
      svc.clock.advance(4 * 86_400_000 + 1000);
      // Past its date the page says expired even before the sweep marks it.
      expect((await page(expiring.tokens[0]!)).json()).toMatchObject({ state: 'expired' });
      expect((await page(expiring.tokens[0]!, 'POST', '/signing/sign', { consent: true })).json()).toEqual({ message: 'DOCUMENT_EXPIRED' });
    });

    it('blocked after three wrong codes, with the codes checked through the page', async () => {
      const { tokens } = await process(svc.orgA, [{ name: 'Ana', email: email('ana'), otpCode: true }]);
      expect((await page(tokens[0]!, 'POST', '/signing/otp')).json()).toMatchObject({ medium: 'email' });
      expect((await page(tokens[0]!, 'POST', '/signing/otp/check', { code: 'abc' })).json()).toEqual({ message: '"code" must be the 6 digits of the code' });
      for (const expected of ['OTP_CODE_INVALID', 'OTP_CODE_INVALID', 'PARTICIPANT_BLOCKED']) {
        expect((await page(tokens[0]!, 'POST', '/signing/otp/check', { code: '999999' })).json().message).toBe(expected);
      }
      expect((await page(tokens[0]!)).json()).toMatchObject({ state: 'blocked' });
    });
  });

  describe('the steps through the page', () => {
    it('signing needs the consent to sign electronically', async () => {
      const { tokens } = await process(svc.orgA, [{ name: 'Ana', email: email('ana') }]);
      expect((await page(tokens[0]!, 'POST', '/signing/sign', {})).json()).toEqual({ message: '"consent" is required' });
      expect((await page(tokens[0]!, 'POST', '/signing/sign', { consent: false })).json()).toEqual({
        message: '"consent" must be true: accept to sign electronically',
      });
      await open(tokens[0]!);
      expect((await page(tokens[0]!, 'POST', '/signing/sign', { consent: true })).json()).toMatchObject({ status: 'FINISH', processStatus: 'FINISH' });
    });

    it('the drawn or typed signature is stored with the signature, as a PNG only', async () => {
      const { code, tokens } = await process(svc.orgA, [{ name: 'Ana', email: email('ana') }]);
      const drawn = await sharp({ create: { width: 300, height: 100, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
        .png()
        .toBuffer();
      expect((await page(tokens[0]!, 'POST', '/signing/sign', { consent: true, signature: jpeg().toString('base64') })).json()).toEqual({
        message: 'SIGNATURE_IMAGE_NOT_PNG',
      });
      await open(tokens[0]!);
      expect((await page(tokens[0]!, 'POST', '/signing/sign', { consent: true, signature: drawn.toString('base64') })).json()).toMatchObject({
        status: 'FINISH',
      });
      const { participants } = await stored(svc, svc.orgA, code);
      expect(participants[0]?.signature_key).toEqual(expect.any(String));
    });

    it('a face photo sent as base64 verifies a participant asked for a photo; the answer is the page, without the similarity', async () => {
      const { tokens } = await process(svc.orgA, [{ name: 'Ana', email: email('ana'), camera: true }]);
      expect((await page(tokens[0]!, 'POST', '/signing/sign', { consent: true })).json()).toEqual({ message: 'IDENTITY_VALIDATION_REQUIRED' });
      expect((await page(tokens[0]!, 'POST', '/signing/photo', { kind: 'face', image: 'bm90IGFuIGltYWdl' })).json()).toEqual({
        message: 'IMAGE_NOT_JPEG_OR_PNG',
      });
      const sent = await page(tokens[0]!, 'POST', '/signing/photo', { kind: 'face', image: jpeg().toString('base64') });
      expect(sent.json()).toMatchObject({ canSign: true, requirements: { camera: { verified: true } } });
      expect(sent.body).not.toContain('similarity');
    });

    it('the link goes by SMS or WhatsApp only to the phone on record, and a copy by e-mail only to the participant', async () => {
      const ana = email('ana');
      const { tokens } = await process(svc.orgA, [
        { name: 'Ana', email: ana, phone: PHONE },
        { name: 'Luis', email: email('luis') },
      ]);
      expect((await page(tokens[0]!, 'POST', '/signing/send-link', { channel: 'sms' })).json()).toEqual({ sent: true });
      expect((await page(tokens[1]!, 'POST', '/signing/send-link', { channel: 'sms' })).json()).toEqual({ message: 'PHONE_NOT_ON_RECORD' });
      expect((await page(tokens[0]!, 'POST', '/signing/send-link', { channel: 'sms', to: '+15550000000' })).json()).toEqual({ message: '"to" is not allowed' });
      const sms = (await outbox(svc, 'sms')).at(-1);
      expect(sms?.body).toMatchObject({ to: PHONE, text: expect.stringContaining(`/s/${tokens[0]}`) });
      expect((await page(tokens[0]!, 'POST', '/signing/copy')).json()).toEqual({ sent: true });
      expect((await outbox(svc, 'email')).at(-1)?.body).toMatchObject({ to: ana, template: 'document-copy' });
    });

    it('the QR code holds the participant’s own link', async () => {
      const { tokens } = await process(svc.orgA, [{ name: 'Ana', email: email('ana') }]);
      const qr = (await page(tokens[0]!, 'GET', '/signing/qr')).json();
      expect(qr.svg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    });
  });

  describe('a signer signs only the documents their page opened, and the opening is in the audit trail', () => {
    it('signing before the document was opened is refused with DOCUMENT_NOT_OPENED, naming the document', async () => {
      const { tokens } = await process(svc.orgA, [{ name: 'Ana', email: email('ana') }]);
      const refused = await page(tokens[0]!, 'POST', '/signing/sign', { consent: true });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({ message: 'DOCUMENT_NOT_OPENED: open "Lease" before signing' });
      expect((await open(tokens[0]!)).json()).toEqual({ openedDocuments: [0] });
      expect((await page(tokens[0]!, 'POST', '/signing/sign', { consent: true })).json()).toMatchObject({ status: 'FINISH' });
    });

    it('the page answers the documents opened; an opening is recorded once, as DOCUMENT_OPENED with the document and the address the request came from', async () => {
      const { code, tokens } = await process(svc.orgA, [{ name: 'Ana', email: email('ana') }]);
      expect((await page(tokens[0]!)).json()).toMatchObject({ openedDocuments: [], documents: [{ kind: 'document', position: 0 }] });
      await open(tokens[0]!);
      await open(tokens[0]!);
      expect((await page(tokens[0]!)).json()).toMatchObject({ openedDocuments: [0] });
      const { process: row } = await stored(svc, svc.orgA, code);
      const events = await listProcessEvents(svc.deps.db, row.id);
      expect(events.filter((e) => e.action === 'DOCUMENT_OPENED').map((e) => JSON.parse(e.detail ?? 'null'))).toEqual([{ document: 0, ip: '127.0.0.1' }]);
    });

    it('a document the process lacks, or a position that is no number, is refused with a message', async () => {
      const { tokens } = await process(svc.orgA, [{ name: 'Ana', email: email('ana') }]);
      const unknown = await page(tokens[0]!, 'POST', '/signing/opened', { document: 3 });
      expect([unknown.statusCode, unknown.json()]).toEqual([400, { message: 'SIGNING_DOCUMENT_UNKNOWN: the process has no document 3' }]);
      const negative = await page(tokens[0]!, 'POST', '/signing/opened', { document: -1 });
      expect([negative.statusCode, negative.json()]).toEqual([400, { message: '"document" must be greater than or equal to 0' }]);
    });

    it('a participant whose turn it is not cannot record an opening', async () => {
      const { tokens } = await process(svc.orgA, [
        { name: 'Ana', email: email('ana'), order: 1 },
        { name: 'Luis', email: email('luis'), order: 2 },
      ]);
      expect((await open(tokens[1]!)).json()).toEqual({ message: 'NOT_YOUR_TURN' });
    });
  });

  describe("the page answers the participant's own signature boxes, never another participant's or organization's", () => {
    it('each participant sees only their boxes, in points, by document', async () => {
      const a = await process(svc.orgA, [
        { name: 'Ana', email: email('ana') },
        { name: 'Luis', email: email('luis') },
      ]);
      const b = await process(svc.orgB, [{ name: 'Bea', email: email('bea') }]);
      const rowsOf = async (org: TestOrganization, code: string) => (await stored(svc, org, code)).participants;
      const [ana, luis] = await rowsOf(svc.orgA, a.code);
      const [bea] = await rowsOf(svc.orgB, b.code);
      const box = (row: ParticipantRow, index: number, left: number) => ({
        process_id: row.process_id,
        document_position: 0,
        participant_row_id: row.id,
        box_index: index,
        page: 1,
        left_pt: left,
        bottom_pt: 100,
        width_pt: 150,
        height_pt: 50,
      });
      await recordSignatureBoxes(svc.deps.db, [box(ana!, 0, 60), box(ana!, 1, 300), box(luis!, 0, 380), box(bea!, 0, 77)]);
      expect((await page(a.tokens[0]!)).json().boxes).toEqual([
        { document: 0, page: 1, left: 60, bottom: 100, width: 150, height: 50 },
        { document: 0, page: 1, left: 300, bottom: 100, width: 150, height: 50 },
      ]);
      expect((await page(a.tokens[1]!)).json().boxes).toEqual([{ document: 0, page: 1, left: 380, bottom: 100, width: 150, height: 50 }]);
      expect((await page(b.tokens[0]!)).json().boxes).toEqual([{ document: 0, page: 1, left: 77, bottom: 100, width: 150, height: 50 }]);
    });

    it('a process without boxes answers none', async () => {
      const { tokens } = await process(svc.orgB, [{ name: 'Bea', email: email('bea') }]);
      expect((await page(tokens[0]!)).json().boxes).toEqual([]);
    });
  });

  describe('a face validation through its page answers the outcome, never the similarity score on screen', () => {
    it('front of the document, then the face, then the status; another organization cannot read it', async () => {
      const { code } = (await call(svc.app, 'POST', '/veriface', { key: svc.orgA.privateKey, body: verifaceBody(svc.orgA.email, { platform: 'web' }) })).json();
      const token = (await findVerifaceByCode(svc.deps.db, svc.orgA.id, code))!.link_token;
      expect((await page(token, 'GET', '/validation')).json()).toMatchObject({ state: 'capture', code, name: 'Juan Pérez', organization: 'Acme' });
      expect((await page(token, 'POST', '/validation/finish')).json()).toEqual({ message: 'DOCUMENT_PHOTO_REQUIRED' });
      for (const kind of ['documentFront', 'face']) {
        expect((await page(token, 'POST', '/validation/photo', { kind, image: jpeg().toString('base64') })).statusCode).toBe(200);
      }
      const finished = (await page(token, 'POST', '/validation/finish')).json();
      expect(finished).toMatchObject({ code, status: expect.any(String) });
      expect((await page(token, 'GET', '/validation')).json().state).not.toBe('capture');
      expect((await call(svc.app, 'GET', '/veriface', { key: svc.orgB.privateKey, query: { code } })).json().message).toMatch(/^VERIFACE_NOT_FOUND/);
    });
  });

  describe("a link's token is a secret: never in a URL the pages call, never in the logs", () => {
    it('the logged path of a person’s page carries no token', () => {
      expect(loggablePath('/s/abcDEF123_-xyz?x=1')).toBe('/s/…');
      expect(loggablePath('/v/abcDEF123_-xyz')).toBe('/v/…');
      expect(loggablePath('/f/abcDEF123_-xyz')).toBe('/f/…');
      expect(loggablePath('/read/abcDEF123_-xyz')).toBe('/read/…');
      expect(loggablePath('/people/signing')).toBe('/people/signing');
    });

    it('code checks are limited per address: 429 with Retry-After past ten a minute', async () => {
      const { tokens } = await process(svc.orgA, [{ name: 'Ana', email: email('ana'), otpCode: true }]);
      const answers: LightMyRequestResponse[] = [];
      for (let i = 0; i < 11; i++) answers.push(await page(tokens[0]!, 'POST', '/signing/otp/check', { code: 'x' }));
      const last = answers.at(-1)!;
      expect(last.statusCode).toBe(429);
      expect(last.json().message).toMatch(/^TOO_MANY_REQUESTS/);
      expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
    });
  });

  describe("the organization's settings through the API", () => {
    it('PUT /organization changes only the caller’s organization; GET reads them with the private key only', async () => {
      const put = await call(svc.app, 'PUT', '/organization', {
        key: svc.orgA.privateKey,
        body: { sdkOrigins: ['https://app.example.com'], timeZone: 'Europe/Madrid' },
      });
      expect(put.json()).toEqual({
        sdkOrigins: ['https://app.example.com'],
        sdkRequireToken: false,
        language: 'es',
        timeZone: 'Europe/Madrid',
        photoRetentionDays: 180,
        formProcessesPerHour: 30,
        signerDelegation: false,
        padesLevel: null,
      });
      expect((await call(svc.app, 'GET', '/organization', { key: svc.orgA.privateKey })).json()).toMatchObject({ timeZone: 'Europe/Madrid' });
      expect((await call(svc.app, 'GET', '/organization', { key: svc.orgA.publicKey })).json()).toEqual({ message: 'PRIVATE_KEY_REQUIRED' });
      expect((await call(svc.app, 'GET', '/organization', { key: svc.orgB.privateKey })).json()).toMatchObject({ sdkOrigins: [], timeZone: 'America/Bogota' });
      expect((await call(svc.app, 'PUT', '/organization', { key: svc.orgA.publicKey, body: { language: 'en' } })).statusCode).toBe(401);
      const bad = await call(svc.app, 'PUT', '/organization', { key: svc.orgA.privateKey, body: { sdkOrigins: ['https://app.example.com/path'] } });
      expect(bad.json().message).toMatch(/^"sdkOrigins\[0\]" must be an origin/);
    });
  });

  describe('the pages are served with the headers that keep a person’s link private', () => {
    it('CSP without inline scripts, nosniff, noindex, no referrer, no caching; the language from Accept-Language', async () => {
      const res = await svc.app.inject({ method: 'GET', url: '/s/sometoken', headers: { 'accept-language': 'fr-CA,fr;q=0.9,en;q=0.8' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-security-policy']).toMatch(/script-src 'self';/);
      expect(res.headers['content-security-policy']).not.toContain('unsafe-inline');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-robots-tag']).toBe('noindex, nofollow');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.body).toContain('<html lang="fr">');
      expect((await svc.app.inject({ method: 'GET', url: '/v/sometoken' })).body).toContain('<html lang="es">');
    });

    it('the embedded app may be framed only by the origins organizations listed', async () => {
      await call(svc.app, 'PUT', '/organization', { key: svc.orgB.privateKey, body: { sdkOrigins: ['https://b.example.com'] } });
      // The list is read at most once a second.
      svc.clock.advance(2000);
      const csp = (await svc.app.inject({ method: 'GET', url: '/?id=x' })).headers['content-security-policy'];
      expect(csp).toMatch(/frame-ancestors https:\/\/app\.example\.com https:\/\/b\.example\.com$/);
    });
  });
});
