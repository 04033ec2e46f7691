import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSigning, submitPhoto } from '../src/documents/participant/signer-flow.js';
import { listParticipants, listProcessEvents } from '../src/documents/queries.js';
import { finishVeriface, submitDocumentPhoto, submitFacePhoto } from '../src/veriface/person-flow.js';
import { identityCard, imagesWithoutFaces, notAnImage, selfie } from './support/face-photos.js';
import { verifaceBody } from './support/fixtures.js';
import { refusal } from './support/refusal.js';
import { call, dialects, startTestService, type TestOrganization, type TestService } from './support/service.js';
import { identifiedSigner, readAndSign } from './support/signing.js';

/**
 * The two flows with the real matcher (FACE_MATCHER=local, one worker thread) and real
 * photographs: the document is an ID card made from one photo of a person, the matching face
 * another photo of that person, the others different people.
 */
const photos: { card: Buffer; samePerson: Buffer; others: Buffer[]; noFace: Buffer } = {
  card: Buffer.alloc(0),
  samePerson: Buffer.alloc(0),
  others: [],
  noFace: Buffer.alloc(0),
};

beforeAll(async () => {
  photos.card = await identityCard('authorSelected');
  photos.samePerson = await selfie('authorPhoto');
  photos.others = [await selfie('womanBlonde'), await selfie('womanDarkHair'), await selfie('womanBrownHair')];
  const [flat] = await imagesWithoutFaces();
  if (!flat) throw new Error('no image without a face');
  photos.noFace = flat.image;
});

describe.each(dialects)('faces compared on the machine decide both flows (%s)', (dialect) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService(dialect, { FACE_MATCHER: 'local', FACE_WORKERS: '1' });
  });
  afterAll(async () => svc.close());

  const signer = (org: TestOrganization) => identifiedSigner(svc, org);

  const readDocument = (code: string, org: TestOrganization) => call(svc.app, 'GET', '/document', { key: org.privateKey, query: { code } });

  it('a signer with identification whose face matches the document is verified and signs', async () => {
    const { code, token } = await signer(svc.orgA);
    await submitPhoto(svc.deps, { token, kind: 'documentFront', image: photos.card });
    const view = await submitPhoto(svc.deps, { token, kind: 'face', image: photos.samePerson });
    expect(view.requirements.camera).toMatchObject({ verified: true, failures: 0 });
    expect(JSON.stringify(view)).not.toContain('similarity');
    expect(await readAndSign(svc.deps, { token })).toEqual({ status: 'FINISH', processStatus: 'FINISH' });
    const read = (await readDocument(code, svc.orgA)).json();
    expect(read.signProfile[0].similarity).toBeGreaterThanOrEqual(svc.config.faceMatcher.kind === 'local' ? svc.config.faceMatcher.threshold : 0);
    expect((await readDocument(code, svc.orgB)).statusCode).not.toBe(200);
  });

  it('three faces of other people block the signer with FACE_MISMATCH; the page is told the failures, never the similarity', async () => {
    const { token, processId } = await signer(svc.orgB);
    await submitPhoto(svc.deps, { token, kind: 'documentFront', image: photos.card });
    const [first, second, third] = photos.others;
    if (!first || !second || !third) throw new Error('three other people expected');
    const once = await submitPhoto(svc.deps, { token, kind: 'face', image: first });
    expect(once.requirements.camera).toEqual(expect.objectContaining({ verified: false, failures: 1, lastFailure: 'FACE_MISMATCH' }));
    expect(JSON.stringify(once)).not.toContain('similarity');
    expect((await submitPhoto(svc.deps, { token, kind: 'face', image: second })).requirements.camera.failures).toBe(2);
    expect(await refusal(submitPhoto(svc.deps, { token, kind: 'face', image: third }))).toEqual({ statusCode: 400, message: 'PARTICIPANT_BLOCKED' });
    const [row] = await listParticipants(svc.deps.db, processId);
    expect(row).toMatchObject({ status: 'BLOCK', block_reason: 'FACE_MISMATCH', camera_failures: 3 });
  });

  it('photos that cannot be used are answered 422 with their reason and never block, however many', async () => {
    const { token, processId } = await signer(svc.orgA);
    await submitPhoto(svc.deps, { token, kind: 'documentFront', image: photos.card });
    for (const image of [photos.noFace, notAnImage(), photos.noFace, photos.noFace]) {
      const refused = await refusal(submitPhoto(svc.deps, { token, kind: 'face', image }));
      expect(refused.statusCode).toBe(422);
      expect(refused.message).toMatch(/^(NO_FACE|IMAGE_UNREADABLE): /);
    }
    const view = await openSigning(svc.deps, { token });
    expect(view.participant.status).toBe('NOTIFICATION');
    expect(view.requirements.camera).toMatchObject({ verified: false, failures: 0, lastFailure: 'NO_FACE' });
    const unusable = (await listProcessEvents(svc.deps.db, processId)).filter((e) => e.action === 'PHOTO_UNUSABLE');
    // Bytes that are no image are refused when they arrive, before any comparison: never on the trail.
    expect(unusable.map((e) => e.message)).toEqual(['NO_FACE', 'NO_FACE', 'NO_FACE']);
    const verified = await submitPhoto(svc.deps, { token, kind: 'face', image: photos.samePerson });
    expect(verified.requirements.camera).toEqual(expect.objectContaining({ verified: true, failures: 0 }));
    expect(verified.requirements.camera.lastFailure).toBeUndefined();
  });

  it('a face validation is APPROVED for the same person and counts a failed attempt for someone else, each organization seeing only its own', async () => {
    const start = async (org: TestOrganization) => {
      const created = await call(svc.app, 'POST', '/veriface', { key: org.privateKey, body: verifaceBody(org.email, { platform: 'web' }) });
      const { code } = created.json();
      const row = await svc.deps.db.selectFrom('veriface_processes').select('link_token').where('code', '=', code).executeTakeFirstOrThrow();
      await submitDocumentPhoto(svc.deps, { token: row.link_token, side: 'front', image: photos.card });
      return { code: String(code), token: row.link_token };
    };
    const a = await start(svc.orgA);
    await submitFacePhoto(svc.deps, { token: a.token, image: photos.samePerson });
    expect(await finishVeriface(svc.deps, { token: a.token })).toEqual({ code: a.code, status: 'APPROVED', failures: 0, similarity: expect.any(Number) });
    const b = await start(svc.orgB);
    await submitFacePhoto(svc.deps, { token: b.token, image: photos.others[0] ?? Buffer.alloc(0) });
    expect(await finishVeriface(svc.deps, { token: b.token })).toEqual({ code: b.code, status: 'INPROGRESS', failures: 1, similarity: expect.any(Number) });
    const read = (code: string, org: TestOrganization) => call(svc.app, 'GET', '/veriface', { key: org.privateKey, query: { code } });
    expect((await read(a.code, svc.orgA)).json()).toMatchObject({ status: 'APPROVED' });
    expect((await read(b.code, svc.orgB)).json()).toMatchObject({ status: 'INPROGRESS' });
    expect((await read(a.code, svc.orgB)).statusCode).not.toBe(200);
    expect((await read(b.code, svc.orgA)).statusCode).not.toBe(200);
  });

  it("the person's page learns the similarity only once the validation is over; while tries remain, how many are left", async () => {
    const people = (token: string, method: 'GET' | 'POST', path: string, body?: Record<string, unknown>) =>
      svc.app.inject({ method, url: `/people${path}`, headers: { 'x-link-token': token }, ...(body ? { payload: body } : {}) });
    const photo = (token: string, kind: string, image: Buffer) => people(token, 'POST', '/validation/photo', { kind, image: image.toString('base64') });
    const start = async (org: TestOrganization) => {
      const { code } = (await call(svc.app, 'POST', '/veriface', { key: org.privateKey, body: verifaceBody(org.email, { platform: 'web' }) })).json();
      const row = await svc.deps.db.selectFrom('veriface_processes').select('link_token').where('code', '=', code).executeTakeFirstOrThrow();
      expect((await photo(row.link_token, 'documentFront', photos.card)).statusCode).toBe(200);
      return { code: String(code), token: row.link_token };
    };
    const a = await start(svc.orgA);
    for (const [i, other] of photos.others.entries()) {
      expect((await photo(a.token, 'face', other)).statusCode).toBe(200);
      const finished = (await people(a.token, 'POST', '/validation/finish')).json();
      if (i < 2) {
        expect(finished).toEqual({ code: a.code, status: 'INPROGRESS', attemptsLeft: 2 - i });
        expect((await people(a.token, 'GET', '/validation')).json()).not.toHaveProperty('outcome');
      } else {
        expect(finished).toEqual({ code: a.code, status: 'BLOCKED', similarity: expect.any(Number) });
      }
    }
    const b = await start(svc.orgB);
    expect((await photo(b.token, 'face', photos.samePerson)).statusCode).toBe(200);
    const approved = (await people(b.token, 'POST', '/validation/finish')).json();
    expect(approved).toEqual({ code: b.code, status: 'APPROVED', similarity: expect.any(Number) });
    expect((await people(b.token, 'GET', '/validation')).json().outcome).toEqual({ status: 'APPROVED', similarity: approved.similarity });
    const read = (code: string, org: TestOrganization) => call(svc.app, 'GET', '/veriface', { key: org.privateKey, query: { code } });
    expect((await read(b.code, svc.orgB)).json().similarity).toBe(approved.similarity);
    expect((await read(b.code, svc.orgA)).statusCode).not.toBe(200);
    expect((await people(a.token, 'GET', '/validation')).json().outcome).toEqual({ status: 'BLOCKED', similarity: expect.any(Number) });
  });
});
