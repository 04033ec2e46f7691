import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIVENESS_THRESHOLD } from '../src/config.js';
import { listParticipants } from '../src/documents/queries.js';
import { identityCard, selfie } from './support/face-photos.js';
import { verifaceBody } from './support/fixtures.js';
import { peopleCalls } from './support/people-calls.js';
import { call, dialects, startTestService, type TestOrganization, type TestService } from './support/service.js';
import { identifiedSigner } from './support/signing.js';
import { printedPhoto } from './support/spoof-photos.js';

/**
 * The liveness signal with the real matcher (FACE_MATCHER=local) and real photographs: the
 * document is the ID card of the face tests; the genuine selfie another photo of its holder; the
 * printed one a third photo of the holder printed on paper, held up to the camera and
 * photographed (test/support/spoof-photos.ts), whose face still matches the card.
 */
const photos: Record<'card' | 'genuine' | 'printed', Buffer> = { card: Buffer.alloc(0), genuine: Buffer.alloc(0), printed: Buffer.alloc(0) };
beforeAll(async () => {
  photos.card = await identityCard('authorSelected');
  photos.genuine = await selfie('authorPhoto');
  photos.printed = await printedPhoto(await selfie('authorWebcam'), 2);
});

describe.each(dialects)('a selfie below the liveness line is never approved automatically (%s)', { timeout: 120_000 }, (dialect) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService(dialect, { FACE_MATCHER: 'local', FACE_WORKERS: '1' });
  });
  afterAll(async () => svc.close());

  const { people, photo } = peopleCalls(() => svc);
  const readVeriface = (code: string, org: TestOrganization) => call(svc.app, 'GET', '/veriface', { key: org.privateKey, query: { code } });
  const readDocument = (code: string, org: TestOrganization) => call(svc.app, 'GET', '/document', { key: org.privateKey, query: { code, image: 'true' } });

  async function validation(org: TestOrganization): Promise<{ code: string; token: string }> {
    const created = await call(svc.app, 'POST', '/veriface', { key: org.privateKey, body: verifaceBody(org.email, { platform: 'web' }) });
    expect(created.statusCode, created.body).toBe(200);
    const code = String(created.json().code);
    const row = await svc.deps.db.selectFrom('veriface_processes').select('link_token').where('code', '=', code).executeTakeFirstOrThrow();
    expect((await photo(row.link_token, 'validation', 'documentFront', photos.card)).statusCode).toBe(200);
    return { code, token: row.link_token };
  }

  it('a printed-photo selfie in a face validation goes to review (BLOCKED, LIVENESS_SUSPECT); the person is told only that it is under review', async () => {
    const { code, token } = await validation(svc.orgA);
    expect((await photo(token, 'validation', 'face', photos.printed)).statusCode).toBe(200);
    const finished = await people(token, 'POST', '/validation/finish');
    expect(finished.json()).toEqual({ code, status: 'BLOCKED', similarity: expect.any(Number) });
    const page = await people(token, 'GET', '/validation');
    expect(page.json().state).toBe('review');
    for (const seen of [finished.body, page.body]) expect(seen.toLowerCase()).not.toContain('liveness');
    const read = (await readVeriface(code, svc.orgA)).json();
    expect(read).toMatchObject({ status: 'BLOCKED', reason: 'LIVENESS_SUSPECT' });
    const [attempt] = read.attempts;
    expect(attempt).toMatchObject({ successful: false, errorMessages: [{ key: 'PHOTO', error: 'LIVENESS_SUSPECT' }] });
    expect(attempt.liveness).toBeLessThan(DEFAULT_LIVENESS_THRESHOLD);
    expect(attempt.similarity).toBeGreaterThanOrEqual(50);
    expect((await readVeriface(code, svc.orgB)).statusCode).not.toBe(200);
  });

  it('a genuine selfie in a face validation is approved, its liveness score recorded in the attempt', async () => {
    const { code, token } = await validation(svc.orgB);
    expect((await photo(token, 'validation', 'face', photos.genuine)).statusCode).toBe(200);
    expect((await people(token, 'POST', '/validation/finish')).json()).toEqual({ code, status: 'APPROVED', similarity: expect.any(Number) });
    expect((await people(token, 'GET', '/validation')).json().state).toBe('approved');
    const read = (await readVeriface(code, svc.orgB)).json();
    expect(read.status).toBe('APPROVED');
    expect(read.attempts[0]).toMatchObject({ successful: true, errorMessages: [] });
    expect(read.attempts[0].liveness).toBeGreaterThanOrEqual(DEFAULT_LIVENESS_THRESHOLD);
    expect((await readVeriface(code, svc.orgA)).statusCode).not.toBe(200);
  });

  it('a printed-photo selfie blocks a signer with identification for review (LIVENESS_SUSPECT); the page says it is under review, never why', async () => {
    const { code, token, processId } = await identifiedSigner(svc, svc.orgB);
    expect((await photo(token, 'signing', 'documentFront', photos.card)).statusCode).toBe(200);
    const refused = await photo(token, 'signing', 'face', photos.printed);
    expect(refused.json()).toEqual({ message: 'PARTICIPANT_BLOCKED' });
    const page = await people(token, 'GET', '/signing');
    expect(page.json().state).toBe('review');
    expect(page.body.toLowerCase()).not.toContain('liveness');
    const [row] = await listParticipants(svc.deps.db, processId);
    expect(row).toMatchObject({ status: 'BLOCK', block_reason: 'LIVENESS_SUSPECT', camera_failures: 0, camera_verified_at: null });
    const participant = (await readDocument(code, svc.orgB)).json().signProfile[0];
    expect(participant.blockReason).toBe('LIVENESS_SUSPECT');
    expect(participant.attempts[0].liveness).toBeLessThan(DEFAULT_LIVENESS_THRESHOLD);
    expect((await readDocument(code, svc.orgA)).statusCode).not.toBe(200);
  });

  it('a genuine selfie verifies a signer with identification', async () => {
    const { code, token } = await identifiedSigner(svc, svc.orgA);
    expect((await photo(token, 'signing', 'documentFront', photos.card)).statusCode).toBe(200);
    const verified = await photo(token, 'signing', 'face', photos.genuine);
    expect(verified.json().requirements.camera).toMatchObject({ verified: true, failures: 0 });
    const participant = (await readDocument(code, svc.orgA)).json().signProfile[0];
    expect(participant.attempts[0].liveness).toBeGreaterThanOrEqual(DEFAULT_LIVENESS_THRESHOLD);
  });

  it('POST /veriface/validate answers LIVENESS_SUSPECT with the score for a printed face that matches, and the score for a genuine one', async () => {
    const validate = (face: Buffer, org: TestOrganization) =>
      call(svc.app, 'POST', '/veriface/validate', {
        key: org.privateKey,
        body: { country: 'CO', type: 'CC', identification: '1001001010', documentImage: photos.card.toString('base64'), photo: face.toString('base64') },
      });
    const printed = (await validate(photos.printed, svc.orgA)).json();
    expect(printed).toMatchObject({ error: true, message: 'LIVENESS_SUSPECT', identificationCard: { error: false } });
    expect(printed.similarity).toBeGreaterThanOrEqual(50);
    expect(printed.liveness).toBeLessThan(DEFAULT_LIVENESS_THRESHOLD);
    const genuine = (await validate(photos.genuine, svc.orgB)).json();
    expect(genuine).not.toHaveProperty('message');
    expect(genuine.error).toBe(false);
    expect(genuine.liveness).toBeGreaterThanOrEqual(DEFAULT_LIVENESS_THRESHOLD);
  });
});
