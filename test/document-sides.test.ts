import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findProcessByCode, listParticipants } from '../src/documents/queries.js';
import type { DocumentReading } from '../src/veriface/document/number-check.js';
import type { NumberReading } from '../src/veriface/document/read-number.js';
import { checkSides } from '../src/veriface/document/sides-check.js';
import { cedulaBack, numberedCard } from './support/document-photos.js';
import { selfie } from './support/face-photos.js';
import { verifaceBody } from './support/fixtures.js';
import { peopleCalls } from './support/people-calls.js';
import { call, dialects, startTestService, type TestOrganization, type TestService } from './support/service.js';
import { PDF_BASE64 } from './support/signing.js';

/**
 * The older Colombian cédula prints its number on the front and holds it in the PDF417 barcode
 * on its back. A front whose printed number is not the back's is of another card, or retouched:
 * the faces may match (the forger's own face on the front), and still a person must look.
 */
const HELD = '52123456';
const photos: Record<'matchingFront' | 'otherFront' | 'back' | 'face', Buffer> = {
  matchingFront: Buffer.alloc(0),
  otherFront: Buffer.alloc(0),
  back: Buffer.alloc(0),
  face: Buffer.alloc(0),
};
beforeAll(async () => {
  photos.matchingFront = await numberedCard({ number: '52.123.456', person: 'authorSelected' });
  photos.otherFront = await numberedCard({ number: '1.020.304.050', person: 'authorSelected' });
  photos.back = await cedulaBack({ number: HELD, surnames: ['PEREZ', 'GOMEZ'], names: ['JUAN', 'CARLOS'], sex: 'M', birth: '19850309' });
  photos.face = await selfie('authorPhoto');
});

const declared = { identification: HELD, country: 'CO', type: 'CC' };
const ocrFront = (dotted: string[]): DocumentReading => ({ read: true, reading: { source: 'OCR', candidates: dotted, dotted, data: {} } });
const backReading = (reading: Partial<NumberReading> & Pick<NumberReading, 'source'>): DocumentReading => ({
  read: true,
  reading: { candidates: [HELD], dotted: [], data: { personalNumber: HELD }, ...reading },
});

describe("the front's printed number is compared with the number the back holds", () => {
  it('the same number on both sides agrees, separators and leading zeros aside', () => {
    expect(checkSides(declared, ocrFront(['52123456']), backReading({ source: 'PDF417', data: { personalNumber: '0052123456' } }))).toEqual({
      result: 'AGREE',
      printed: HELD,
      held: HELD,
    });
  });

  it("a printed number that is not the barcode's disagrees, and says both", () => {
    expect(checkSides(declared, ocrFront(['1020304050']), backReading({ source: 'PDF417' }))).toEqual({
      result: 'DISAGREE',
      printed: '1020304050',
      held: HELD,
    });
  });

  it("the new cédula's machine zone is compared only when every check digit is right", () => {
    expect(checkSides(declared, ocrFront(['1020304050']), backReading({ source: 'MRZ', machineZoneValid: true })).result).toBe('DISAGREE');
    expect(checkSides(declared, ocrFront(['1020304050']), backReading({ source: 'MRZ', machineZoneValid: false })).result).toBe('UNCHECKED');
  });

  it('nothing is compared without a back, without a printed number, or for a document that prints no dotted number', () => {
    expect(checkSides(declared, ocrFront(['1020304050']), undefined).result).toBe('UNCHECKED');
    expect(checkSides(declared, ocrFront([]), backReading({ source: 'PDF417' })).result).toBe('UNCHECKED');
    expect(checkSides(declared, { read: false, reason: 'IMAGE_BLURRY' }, backReading({ source: 'PDF417' })).result).toBe('UNCHECKED');
    expect(checkSides({ ...declared, country: 'PE', type: 'DNI' }, ocrFront(['1020304050']), backReading({ source: 'PDF417' })).result).toBe('UNCHECKED');
  });
});

describe.each(dialects)('a document whose two sides say different numbers goes to a person, DOCUMENT_FAKE (%s)', { timeout: 180_000 }, (dialect) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService(dialect, { FACE_MATCHER: 'local', FACE_WORKERS: '1' });
  });
  afterAll(async () => svc.close());

  const { people, photo } = peopleCalls(() => svc);
  const readVeriface = (code: string, org: TestOrganization) => call(svc.app, 'GET', '/veriface', { key: org.privateKey, query: { code } });

  async function validation(org: TestOrganization, front: Buffer): Promise<{ code: string; token: string }> {
    const created = await call(svc.app, 'POST', '/veriface', { key: org.privateKey, body: verifaceBody(org.email, { platform: 'web', identification: HELD }) });
    expect(created.statusCode, created.body).toBe(200);
    const code = String(created.json().code);
    const row = await svc.deps.db.selectFrom('veriface_processes').select('link_token').where('code', '=', code).executeTakeFirstOrThrow();
    for (const [kind, image] of [
      ['documentFront', front],
      ['documentBack', photos.back],
      ['face', photos.face],
    ] as const) {
      const sent = await photo(row.link_token, 'validation', kind, image);
      expect(sent.statusCode, sent.body).toBe(200);
    }
    return { code, token: row.link_token };
  }

  it('a face validation whose front prints another number than its back holds is BLOCKED for review (DOCUMENT_FAKE); the person is told only that it is under review', async () => {
    const { code, token } = await validation(svc.orgA, photos.otherFront);
    const finished = await people(token, 'POST', '/validation/finish');
    expect(finished.json()).toEqual({ code, status: 'BLOCKED', similarity: expect.any(Number) });
    const page = await people(token, 'GET', '/validation');
    expect(page.json().state).toBe('review');
    for (const seen of [finished.body, page.body]) expect(seen).not.toMatch(/fake|DOCUMENT_FAKE/i);
    const read = (await readVeriface(code, svc.orgA)).json();
    expect(read).toMatchObject({ status: 'BLOCKED', reason: 'DOCUMENT_FAKE' });
    expect(read.attempts[0]).toMatchObject({ successful: false, errorMessages: [{ key: 'ID_BACK', error: 'DOCUMENT_FAKE' }] });
    expect(read.attempts[0].similarity).toBeGreaterThanOrEqual(50);
    expect((await readVeriface(code, svc.orgB)).json()).toEqual({ message: expect.any(String) });
  });

  it('a face validation whose two sides say the same number is approved', async () => {
    const { code, token } = await validation(svc.orgB, photos.matchingFront);
    expect((await people(token, 'POST', '/validation/finish')).json()).toEqual({ code, status: 'APPROVED', similarity: expect.any(Number) });
    const read = (await readVeriface(code, svc.orgB)).json();
    expect(read.attempts[0]).toMatchObject({ successful: true, errorMessages: [] });
    expect((await readVeriface(code, svc.orgA)).statusCode).not.toBe(200);
  });

  it('a signer whose document front prints another number than its back holds is blocked for review (DOCUMENT_FAKE), the page says under review', async () => {
    const res = await call(svc.app, 'POST', '/document/upload', {
      key: svc.orgB.privateKey,
      body: {
        email: svc.orgB.email,
        name: 'Lease agreement',
        file: PDF_BASE64,
        signProfile: [
          {
            name: 'Juan Pérez',
            email: 'juan-sides@people.test',
            phone: '+573001234567',
            identification: HELD,
            identificationType: 'CC',
            country: 'CO',
            camera: true,
            options: { camera: 'identification', whatsapp: true, identificationCardBack: true },
          },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const code: string = res.json().code;
    const process = await findProcessByCode(svc.deps.db, svc.orgB.id, code);
    const [participant] = process ? await listParticipants(svc.deps.db, process.id) : [];
    if (!process || !participant) throw new Error('created process not found');
    const token = participant.link_token;
    expect((await photo(token, 'signing', 'documentFront', photos.otherFront)).statusCode).toBe(200);
    expect((await photo(token, 'signing', 'documentBack', photos.back)).statusCode).toBe(200);
    expect((await photo(token, 'signing', 'face', photos.face)).json()).toEqual({ message: 'PARTICIPANT_BLOCKED' });
    expect((await people(token, 'GET', '/signing')).json().state).toBe('review');
    const [row] = await listParticipants(svc.deps.db, process.id);
    expect(row).toMatchObject({ status: 'BLOCK', block_reason: 'DOCUMENT_FAKE', camera_verified_at: null });
    const read = await call(svc.app, 'GET', '/document', { key: svc.orgB.privateKey, query: { code, image: 'true' } });
    expect(read.json().signProfile[0].attempts[0].errorMessages).toContainEqual({ key: 'ID_BACK', error: 'DOCUMENT_FAKE' });
    expect((await call(svc.app, 'GET', '/document', { key: svc.orgA.privateKey, query: { code } })).statusCode).not.toBe(200);
  });
});
