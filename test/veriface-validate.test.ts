import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityCard, imagesWithoutFaces, selfie } from './support/face-photos.js';
import { jpeg } from './support/images.js';
import { call, dialects, startTestService, type TestService } from './support/service.js';

const photos: { card: string; samePerson: string; otherPerson: string; noFace: string } = { card: '', samePerson: '', otherPerson: '', noFace: '' };
beforeAll(async () => {
  photos.card = (await identityCard('authorSelected')).toString('base64');
  photos.samePerson = (await selfie('authorPhoto')).toString('base64');
  photos.otherPerson = (await selfie('womanBrownHair')).toString('base64');
  const [flat] = await imagesWithoutFaces();
  photos.noFace = flat ? flat.image.toString('base64') : '';
});

const body = (documentImage: string, photo: string) => ({ country: 'CO', type: 'CC', identification: '1001001010', documentImage, photo });

describe.each(dialects)('POST /veriface/validate compares a face with a document at once, on the machine (%s)', { timeout: 120_000 }, (dialect) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService(dialect, { FACE_MATCHER: 'local', FACE_WORKERS: '1', FACE_QUEUE_MAX: '1' });
  });
  afterAll(async () => svc.close());
  const validate = (payload: Record<string, unknown>, key = svc.orgA.privateKey) => call(svc.app, 'POST', '/veriface/validate', { key, body: payload });

  it('the same person: error false with the similarity, a 16-character code, and a document with a portrait (isFront)', async () => {
    const res = await validate(body(photos.card, photos.samePerson));
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json();
    expect(answer).toEqual({
      error: false,
      similarity: expect.any(Number),
      liveness: expect.any(Number),
      code: expect.stringMatching(/^[A-Z0-9]{16}$/),
      identificationCard: {
        error: false,
        isFront: true,
        data: { documentNumber: '1001001010' },
        numberCheck: { result: 'MATCH', readFrom: 'OCR', number: '1001001010' },
      },
    });
    expect(answer.similarity).toBeGreaterThanOrEqual(50);
  });

  it('another person: error true with FACE_MISMATCH and the similarity, for either organization', async () => {
    for (const key of [svc.orgA.privateKey, svc.orgB.privateKey]) {
      const answer = (await validate(body(photos.card, photos.otherPerson), key)).json();
      expect(answer).toMatchObject({ error: true, message: 'FACE_MISMATCH', identificationCard: { error: false, isFront: true } });
      expect(answer.similarity).toBeLessThan(50);
    }
  });

  it('a document without a portrait: error true, identificationCard.error with DOCUMENT_NO_FACE, no similarity', async () => {
    const answer = (await validate(body(photos.noFace, photos.samePerson))).json();
    expect(answer).toEqual({
      error: true,
      message: 'DOCUMENT_NO_FACE',
      code: expect.any(String),
      identificationCard: { error: true, message: 'DOCUMENT_NO_FACE', isFront: false, data: {}, numberCheck: { result: 'UNREAD', reason: 'IMAGE_BLURRY' } },
    });
  });

  it('images that are not JPEG or PNG are 415, an unknown document type 400, the public key 401', async () => {
    const text = Buffer.from('plain text, not an image').toString('base64');
    expect((await validate(body(text, photos.samePerson))).json()).toEqual({ message: 'IMAGE_NOT_JPEG_OR_PNG: documentImage' });
    expect((await validate({ ...body(photos.card, photos.samePerson), type: 'XX' })).json().message).toMatch(/^"type" must be a document type/);
    expect((await validate(body(photos.card, photos.samePerson), svc.orgA.publicKey)).statusCode).toBe(401);
  });

  it('a full queue is answered 503 FACE_MATCHER_BUSY with Retry-After at once', async () => {
    // Distinct documents, so that no descriptor is reused and each comparison needs both photos; two
    // organizations, as one holds a single comparison per worker (429 FACE_COMPARISON_UNDER_WAY beyond).
    const answers = await Promise.all([
      validate(body(photos.card, photos.samePerson), svc.orgA.privateKey),
      validate(body(jpeg().toString('base64'), photos.samePerson), svc.orgB.privateKey),
    ]);
    const busy = answers.find((res) => res.statusCode === 503);
    expect(busy?.json().message).toMatch(/^FACE_MATCHER_BUSY: /);
    expect(Number(busy?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(answers.map((res) => res.statusCode)).toContain(200);
  });
});

describe('with FACE_MATCHER=manual the service compares no faces', () => {
  it('POST /veriface/validate is 404 FACE_MATCHING_DISABLED', async () => {
    const svc = await startTestService('sqlite');
    try {
      const res = await call(svc.app, 'POST', '/veriface/validate', {
        key: svc.orgA.privateKey,
        body: body(jpeg().toString('base64'), jpeg().toString('base64')),
      });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'FACE_MATCHING_DISABLED' });
    } finally {
      await svc.close();
    }
  });
});
