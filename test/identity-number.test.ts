import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { numberedCard, type PassportHolder, passportPage } from './support/document-photos.js';
import { identityCard, selfie } from './support/face-photos.js';
import { verifaceBody } from './support/fixtures.js';
import { peopleCalls } from './support/people-calls.js';
import { call, dialects, localPath, startTestService, type TestOrganization, type TestService } from './support/service.js';
import { identifiedSigner } from './support/signing.js';

/**
 * The declared identification number, checked in every flow with the real readers and the real
 * face matcher (FACE_MATCHER=local): the ID card of the face tests prints 1.001.001.010 as a
 * Colombian cédula does, so declaring another number makes it someone else's card.
 */
const OTHER_NUMBER = '52345678';
const FIVE_MINUTES = 5 * 60_000;
const HEX64 = /^[0-9a-f]{64}$/;

const holder: PassportHolder = {
  surname: 'ERIKSSON',
  givenNames: 'ANNA MARIA',
  number: 'AB1234567',
  nationality: 'COL',
  birth: '740812',
  sex: 'F',
  expiry: '320415',
};

const photos: Record<'card' | 'otherNumberCard' | 'noNumberCard' | 'face' | 'passport' | 'passportFace', Buffer> = {
  card: Buffer.alloc(0),
  otherNumberCard: Buffer.alloc(0),
  noNumberCard: Buffer.alloc(0),
  face: Buffer.alloc(0),
  passport: Buffer.alloc(0),
  passportFace: Buffer.alloc(0),
};
beforeAll(async () => {
  photos.card = await identityCard('authorSelected');
  photos.otherNumberCard = await numberedCard({ number: '52.345.678', person: 'authorSelected' });
  photos.noNumberCard = await numberedCard({ number: 'SIN NUMERO', person: 'authorSelected' });
  photos.face = await selfie('authorPhoto');
  photos.passport = await passportPage(holder, 'womanBrownHair');
  photos.passportFace = await selfie('womanBrownHair');
});

describe.each(dialects)('the declared identification number is checked in every flow (%s)', { timeout: 120_000 }, (dialect) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService(dialect, { FACE_MATCHER: 'local', FACE_WORKERS: '1' });
  });
  afterAll(async () => svc.close());

  const { people, photo } = peopleCalls(() => svc);

  const signer = (org: TestOrganization, identification: string) => identifiedSigner(svc, org, identification);

  async function validation(org: TestOrganization, identification: string): Promise<{ code: string; token: string }> {
    const created = await call(svc.app, 'POST', '/veriface', { key: org.privateKey, body: verifaceBody(org.email, { platform: 'web', identification }) });
    expect(created.statusCode, created.body).toBe(200);
    const code = String(created.json().code);
    const row = await svc.deps.db.selectFrom('veriface_processes').select('link_token').where('code', '=', code).executeTakeFirstOrThrow();
    return { code, token: row.link_token };
  }

  const readDocument = (code: string, key: string) => call(svc.app, 'GET', '/document', { key, query: { code, image: 'true' } });
  const readVeriface = (code: string, key: string) => call(svc.app, 'GET', '/veriface', { key, query: { code } });

  describe('a signer with identification', () => {
    it('a card whose number is not the declared one is a mismatch: 422 DOCUMENT_NUMBER_MISMATCH, counted, the document asked again; the third blocks with that reason', async () => {
      const a = await signer(svc.orgA, OTHER_NUMBER);
      expect((await photo(a.token, 'signing', 'face', photos.face)).statusCode).toBe(200);
      for (const failures of [1, 2]) {
        const res = await photo(a.token, 'signing', 'documentFront', photos.card);
        expect(res.statusCode, res.body).toBe(422);
        expect(res.json().message).toMatch(/^DOCUMENT_NUMBER_MISMATCH: /);
        const camera = (await people(a.token, 'GET', '/signing')).json().requirements.camera;
        expect(camera).toMatchObject({ verified: false, failures, lastFailure: 'DOCUMENT_NUMBER_MISMATCH', captured: { documentFront: false, face: true } });
      }
      const third = await photo(a.token, 'signing', 'documentFront', photos.card);
      expect(third.json()).toEqual({ message: 'PARTICIPANT_BLOCKED' });
      const [participant] = (await readDocument(a.code, svc.orgA.privateKey)).json().signProfile;
      expect(participant).toMatchObject({ status: 'BLOCK', blockReason: 'DOCUMENT_NUMBER_MISMATCH' });
      expect(participant.attempts).toHaveLength(3);
      for (const attempt of participant.attempts) {
        expect(attempt).toMatchObject({
          successful: false,
          numberCheck: { result: 'MISMATCH', readFrom: 'OCR', number: '1001001010' },
          identificationCardData: { documentNumber: '1001001010' },
          errorMessages: [{ key: 'ID_NUMBER', error: 'DOCUMENT_NUMBER_MISMATCH' }],
          identificationCardFront: expect.stringContaining('/photos/'),
          photo: expect.stringContaining('/photos/'),
        });
        expect(attempt).not.toHaveProperty('similarity');
      }
      // Blocked, not over: the hash waits for the validation to end.
      expect(participant).not.toHaveProperty('hash');
    });

    it('a card whose number is the declared one passes; GET /document?image=true shows ocrData, the attempt and the hash, to its organization only', async () => {
      const b = await signer(svc.orgB, '1001001010');
      expect((await photo(b.token, 'signing', 'documentFront', photos.card)).statusCode).toBe(200);
      const verified = await photo(b.token, 'signing', 'face', photos.face);
      expect(verified.statusCode, verified.body).toBe(200);
      expect(verified.json().requirements.camera).toMatchObject({ verified: true, failures: 0 });
      const [participant] = (await readDocument(b.code, svc.orgB.privateKey)).json().signProfile;
      expect(participant.ocrData).toEqual({ documentNumber: '1001001010' });
      expect(participant.attempts).toEqual([
        expect.objectContaining({
          successful: true,
          similarity: expect.any(Number),
          numberCheck: { result: 'MATCH', readFrom: 'OCR', number: '1001001010' },
          errorMessages: [],
          photoSha256: { identificationCardFront: expect.stringMatching(HEX64), photo: expect.stringMatching(HEX64) },
        }),
      ]);
      expect(participant.hash).toMatch(HEX64);
      expect((await readDocument(b.code, svc.orgA.privateKey)).json()).toEqual({ message: 'DOCUMENT_NOT_FOUND' });
      expect((await readDocument(b.code, svc.orgB.publicKey)).json()).toEqual(
        expect.objectContaining({ message: expect.stringMatching(/^PRIVATE_KEY_REQUIRED/) }),
      );
      const plain = (await call(svc.app, 'GET', '/document', { key: svc.orgB.privateKey, query: { code: b.code } })).json();
      expect(plain.signProfile[0]).not.toHaveProperty('attempts');
    });
  });

  describe('a face validation on the web', () => {
    it('a card whose number differs is a failed attempt, said to the page and the document asked again; the own card then approves, and GET /veriface shows every attempt', async () => {
      const a = await validation(svc.orgA, OTHER_NUMBER);
      expect((await photo(a.token, 'validation', 'documentFront', photos.card)).statusCode).toBe(200);
      expect((await photo(a.token, 'validation', 'face', photos.face)).statusCode).toBe(200);
      const refused = await people(a.token, 'POST', '/validation/finish');
      expect(refused.statusCode).toBe(422);
      expect(refused.json().message).toMatch(/^DOCUMENT_NUMBER_MISMATCH: /);
      expect((await people(a.token, 'GET', '/validation')).json().captured).toEqual({ documentFront: false, documentBack: false, face: true });
      expect((await photo(a.token, 'validation', 'documentFront', photos.otherNumberCard)).statusCode).toBe(200);
      const approved = await people(a.token, 'POST', '/validation/finish');
      expect(approved.json(), approved.body).toMatchObject({ status: 'APPROVED' });

      const read = (await readVeriface(a.code, svc.orgA.privateKey)).json();
      expect(read.ocrData).toEqual({ documentNumber: OTHER_NUMBER });
      expect(read.attempts).toEqual([
        expect.objectContaining({
          successful: false,
          numberCheck: { result: 'MISMATCH', readFrom: 'OCR', number: '1001001010' },
          errorMessages: [{ key: 'ID_NUMBER', error: 'DOCUMENT_NUMBER_MISMATCH' }],
          identificationCardFront: expect.any(String),
          photo: expect.any(String),
        }),
        expect.objectContaining({ successful: true, similarity: expect.any(Number), numberCheck: { result: 'MATCH', readFrom: 'OCR', number: OTHER_NUMBER } }),
      ]);
      expect(read.hash).toMatch(HEX64);
      expect(read.stages.find((s: { stage: string }) => s.stage === 'rejected').detail).toEqual({ reason: 'DOCUMENT_NUMBER_MISMATCH', failures: 1 });
      expect((await readVeriface(a.code, svc.orgB.privateKey)).statusCode).not.toBe(200);
      const publicView = (await readVeriface(a.code, svc.orgA.publicKey)).json();
      for (const field of ['attempts', 'ocrData', 'hash', 'photos']) expect(publicView).not.toHaveProperty(field);
    });

    it('a number that cannot be read does not block: approved, and recorded for the integrator', async () => {
      const b = await validation(svc.orgB, '1001001010');
      expect((await photo(b.token, 'validation', 'documentFront', photos.noNumberCard)).statusCode).toBe(200);
      expect((await photo(b.token, 'validation', 'face', photos.face)).statusCode).toBe(200);
      expect((await people(b.token, 'POST', '/validation/finish')).json()).toMatchObject({ status: 'APPROVED' });
      const read = (await readVeriface(b.code, svc.orgB.privateKey)).json();
      expect(read).not.toHaveProperty('ocrData');
      expect(read.attempts).toEqual([
        expect.objectContaining({
          successful: true,
          numberCheck: { result: 'UNREAD', reason: 'NUMBER_NOT_FOUND' },
          errorMessages: [{ key: 'ID_NUMBER', error: 'DOCUMENT_NUMBER_UNREADABLE' }],
        }),
      ]);
    });

    it("an attempt's photo URLs serve the photos for 5 minutes and are refused afterwards; the public key gets none", async () => {
      const a = await validation(svc.orgA, '1001001010');
      expect((await photo(a.token, 'validation', 'documentFront', photos.card)).statusCode).toBe(200);
      expect((await photo(a.token, 'validation', 'face', photos.face)).statusCode).toBe(200);
      expect((await people(a.token, 'POST', '/validation/finish')).json()).toMatchObject({ status: 'APPROVED' });
      const [attempt] = (await readVeriface(a.code, svc.orgA.privateKey)).json().attempts;
      const fetchPhoto = (url: string) => svc.app.inject({ method: 'GET', url: localPath(url) });
      const front = await fetchPhoto(attempt.identificationCardFront);
      expect(front.statusCode).toBe(200);
      expect(front.rawPayload.equals(photos.card)).toBe(true);
      expect((await fetchPhoto(attempt.photo)).rawPayload.equals(photos.face)).toBe(true);
      svc.clock.advance(FIVE_MINUTES + 1000);
      expect((await fetchPhoto(attempt.photo)).json()).toEqual({ message: 'URL_EXPIRED' });
      expect((await readVeriface(a.code, svc.orgA.publicKey)).json()).not.toHaveProperty('attempts');
    });
  });

  describe('POST /veriface/validate', () => {
    const validate = (identification: string, documentImage: Buffer, face: Buffer, type = 'CC', key = svc.orgA.privateKey) =>
      call(svc.app, 'POST', '/veriface/validate', {
        key,
        body: { country: 'CO', type, identification, documentImage: documentImage.toString('base64'), photo: face.toString('base64') },
      });

    it('a card whose number differs: error true with DOCUMENT_NUMBER_MISMATCH, in the identificationCard too, with what was read', async () => {
      const answer = (await validate(OTHER_NUMBER, photos.card, photos.face)).json();
      expect(answer).toMatchObject({
        error: true,
        message: 'DOCUMENT_NUMBER_MISMATCH',
        similarity: expect.any(Number),
        identificationCard: {
          error: true,
          message: 'DOCUMENT_NUMBER_MISMATCH',
          isFront: true,
          data: { documentNumber: '1001001010' },
          numberCheck: { result: 'MISMATCH', readFrom: 'OCR', number: '1001001010' },
        },
      });
    });

    it("a passport's machine-readable zone fills data; its number compared, for either organization", async () => {
      const matching = (await validate(holder.number, photos.passport, photos.passportFace, 'PASSPORT', svc.orgB.privateKey)).json();
      expect(matching).toMatchObject({
        error: false,
        identificationCard: {
          error: false,
          isFront: true,
          data: { documentNumber: 'AB1234567', surname: 'ERIKSSON' },
          numberCheck: { result: 'MATCH', readFrom: 'MRZ' },
        },
      });
      const other = (await validate('ZX9876543', photos.passport, photos.passportFace, 'PASSPORT')).json();
      expect(other).toMatchObject({ error: true, message: 'DOCUMENT_NUMBER_MISMATCH', identificationCard: { error: true, data: { surname: 'ERIKSSON' } } });
    });

    it('a number that cannot be read fails nothing and says why', async () => {
      const answer = (await validate('1001001010', photos.noNumberCard, photos.face)).json();
      expect(answer).toMatchObject({
        error: false,
        identificationCard: { error: false, data: {}, numberCheck: { result: 'UNREAD', reason: 'NUMBER_NOT_FOUND' } },
      });
    });
  });
});
