import zlib from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { submitPhoto } from '../src/documents/participant/signer-photos.js';
import { PHOTO_ATTEMPTS_PER_DAY } from '../src/photos/photo-attempts.js';
import { finishVeriface, submitDocumentPhoto, submitFacePhoto } from '../src/veriface/person-flow.js';
import { verifaceBody } from './support/fixtures.js';
import { jpeg, matcher, png } from './support/images.js';
import { call, dialects, startTestService, type TestOrganization, type TestService } from './support/service.js';
import { pdfProcess, stored } from './support/signing.js';

const DAY = 24 * 60 * 60 * 1000;

/** One PNG chunk: length, type, data, CRC. */
function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(zlib.crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A whole PNG of 30000 × 30000 black pixels in a few hundred bytes (its pixel data cut short): a decompression bomb. */
function bomb(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(30_000, 0);
  header.writeUInt32BE(30_000, 4);
  header.set([1, 0, 0, 0, 0], 8);
  return Buffer.concat([PNG_SIGNATURE, chunk('IHDR', header), chunk('IDAT', zlib.deflateSync(Buffer.alloc(100_000))), chunk('IEND', Buffer.alloc(0))]);
}

/** What was accepted as identity evidence before: bytes that only start like an image, or are one and something else too. */
async function notPhotos(): Promise<[string, Buffer, number, RegExp][]> {
  const tiny = await sharp({ create: { width: 50, height: 50, channels: 3, background: '#808080' } })
    .png()
    .toBuffer();
  return [
    ['9 bytes of PNG magic', Buffer.concat([PNG_SIGNATURE, Buffer.from([0])]), 422, /^IMAGE_UNREADABLE: /],
    ['a PNG/HTML polyglot', Buffer.concat([png(), Buffer.from('<html><script>alert(1)</script></html>')]), 422, /^IMAGE_UNREADABLE: /],
    ['a JPEG cut short', jpeg().subarray(0, 900), 422, /^IMAGE_UNREADABLE: /],
    ['a 30000 × 30000 bomb', bomb(), 413, /^IMAGE_TOO_LARGE: at most 80000000 pixels$/],
    ['a 50 × 50 image', tiny, 422, /^IMAGE_TOO_SMALL: /],
  ];
}

describe.each(dialects)('identity photos at intake (%s)', (dialect) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService(dialect);
  });
  afterAll(async () => svc.close());

  const sendPhoto = (path: '/signing/photo' | '/validation/photo', token: string, kind: string, image: Buffer): Promise<LightMyRequestResponse> =>
    svc.app.inject({ method: 'POST', url: `/people${path}`, headers: { 'x-link-token': token }, payload: { kind, image: image.toString('base64') } });

  async function signer(org: TestOrganization, camera: 'photo' | 'identification'): Promise<{ code: string; token: string; processId: string }> {
    const profile = {
      name: 'Ana Gómez',
      email: 'ana@people.test',
      identification: '1001001010',
      identificationType: 'CC',
      country: 'CO',
      camera: true,
      options: { camera },
    };
    const res = await call(svc.app, 'POST', '/document/upload', { key: org.privateKey, body: pdfProcess(org, { signProfile: [profile] }) });
    expect(res.statusCode, res.body).toBe(200);
    const { code } = res.json();
    const { process, participants } = await stored(svc, org, code);
    return { code, token: participants[0]!.link_token, processId: process.id };
  }

  async function veriface(org: TestOrganization): Promise<{ code: string; token: string; id: string }> {
    const created = await call(svc.app, 'POST', '/veriface', { key: org.privateKey, body: verifaceBody(org.email, { platform: 'web' }) });
    const { code } = created.json();
    const row = await svc.deps.db.selectFrom('veriface_processes').select(['id', 'link_token']).where('code', '=', code).executeTakeFirstOrThrow();
    return { code, token: row.link_token, id: row.id };
  }

  const photoRows = (ownerId: string) =>
    svc.deps.db.selectFrom('photo_blobs').select(['key', 'decided_at']).where('owner_id', '=', ownerId).orderBy('created_at').execute();
  const storedBytes = async (keys: string[]) => (await Promise.all(keys.map((key) => svc.deps.photos.read(key)))).filter((b) => b !== undefined).length;

  describe('photos are decoded and checked in every mode before they count, photo mode included', () => {
    it("camera 'photo': non-images, polyglots, truncated data, bombs and tiny images are refused with {message}; nothing is stored or verified", async () => {
      const a = await signer(svc.orgA, 'photo');
      for (const [label, image, status, message] of await notPhotos()) {
        const res = await sendPhoto('/signing/photo', a.token, 'face', image);
        expect(res.statusCode, label).toBe(status);
        expect(Object.keys(res.json()), label).toEqual(['message']);
        expect(res.json().message, label).toMatch(message);
      }
      const { participants } = await stored(svc, svc.orgA, a.code);
      expect(participants[0]).toMatchObject({ face_key: null, camera_verified_at: null });
      expect(await photoRows(a.processId)).toEqual([]);
      const accepted = await sendPhoto('/signing/photo', a.token, 'face', png());
      expect(accepted.statusCode, accepted.body).toBe(200);
      expect((await stored(svc, svc.orgA, a.code)).participants[0]!.camera_verified_at).not.toBeNull();
      // Organization B's key does not reach A's process or its photos.
      expect((await call(svc.app, 'GET', '/document', { key: svc.orgB.privateKey, query: { code: a.code, image: 'true' } })).statusCode).toBe(400);
    });

    it('a face validation refuses the same, on every kind of photo', async () => {
      const v = await veriface(svc.orgB);
      for (const kind of ['documentFront', 'face']) {
        for (const [label, image, status, message] of await notPhotos()) {
          const res = await sendPhoto('/validation/photo', v.token, kind, image);
          expect(res.statusCode, `${kind}: ${label}`).toBe(status);
          expect(res.json().message, label).toMatch(message);
        }
      }
      expect(await photoRows(v.id)).toEqual([]);
      expect((await call(svc.app, 'GET', '/veriface', { key: svc.orgA.privateKey, query: { code: v.code } })).statusCode).toBe(400);
    });
  });

  describe("a retake replaces the earlier photo of its kind: photos replaced before any check are deleted, every check keeps its photos as its attempt's evidence", () => {
    const attemptKeys = async (ownerId: string) => {
      const rows = await svc.deps.db.selectFrom('identity_attempts').selectAll().where('owner_id', '=', ownerId).execute();
      return [...new Set(rows.flatMap((row) => [row.document_front_key, row.document_back_key, row.face_key]).filter((key) => key !== null))].sort();
    };

    it('a signer: a face retaken before the check is deleted; the photos of the mismatch, of the unusable face and of the match are kept, marked as decided', async () => {
      const a = await signer(svc.orgA, 'identification');
      await submitPhoto({ ...svc.deps, faceMatcher: matcher(10) }, { token: a.token, kind: 'face', image: png() });
      const unchecked = await photoRows(a.processId);
      await submitPhoto({ ...svc.deps, faceMatcher: matcher(10) }, { token: a.token, kind: 'face', image: png() });
      await submitPhoto({ ...svc.deps, faceMatcher: matcher(10) }, { token: a.token, kind: 'documentFront', image: jpeg() });
      await submitPhoto({ ...svc.deps, faceMatcher: matcher({ unusable: 'NO_FACE', photo: 'face' }) }, { token: a.token, kind: 'face', image: png() }).catch(
        () => undefined,
      );
      await submitPhoto({ ...svc.deps, faceMatcher: matcher(95) }, { token: a.token, kind: 'face', image: png() });
      const kept = await photoRows(a.processId);
      expect(kept.map((row) => row.key).sort()).toEqual(await attemptKeys(a.processId));
      expect(kept).toHaveLength(4);
      expect(kept.every((row) => row.decided_at !== null)).toBe(true);
      expect(await storedBytes(unchecked.map((row) => row.key))).toBe(0);
      expect(await storedBytes(kept.map((row) => row.key))).toBe(4);
    });

    it('a face validation: a document retaken before the check is deleted; the photos of every failed attempt and of the block are kept', async () => {
      const v = await veriface(svc.orgA);
      const deps = { ...svc.deps, faceMatcher: matcher(10) };
      await submitDocumentPhoto(deps, { token: v.token, side: 'front', image: jpeg() });
      const unchecked = await photoRows(v.id);
      for (let round = 1; round <= 3; round++) {
        await submitDocumentPhoto(deps, { token: v.token, side: 'front', image: jpeg() });
        await submitFacePhoto(svc.deps, { token: v.token, image: png() });
        expect(await photoRows(v.id)).toHaveLength(2 * round);
        expect((await finishVeriface(deps, { token: v.token })).status).toBe(round < 3 ? 'INPROGRESS' : 'BLOCKED');
      }
      const kept = await photoRows(v.id);
      expect(kept.map((r) => r.key).sort()).toEqual(await attemptKeys(v.id));
      expect(kept.every((r) => r.decided_at !== null)).toBe(true);
      expect(await storedBytes(unchecked.map((row) => row.key))).toBe(0);
      expect(await storedBytes(kept.map((row) => row.key))).toBe(6);
    });
  });

  describe(`at most ${PHOTO_ATTEMPTS_PER_DAY} photo attempts a day per participant and per face validation, counted in the database`, () => {
    it('the next one is a 429 {message}, for that participant only; the next day counts again', async () => {
      const a = await signer(svc.orgA, 'photo');
      const b = await signer(svc.orgB, 'photo');
      const v = await veriface(svc.orgA);
      const junk = Buffer.concat([PNG_SIGNATURE, Buffer.from('not an image')]);
      for (let i = 0; i < PHOTO_ATTEMPTS_PER_DAY; i++) {
        expect((await sendPhoto('/signing/photo', a.token, 'face', junk)).statusCode).toBe(422);
        expect((await sendPhoto('/validation/photo', v.token, 'face', junk)).statusCode).toBe(422);
      }
      const over = await sendPhoto('/signing/photo', a.token, 'face', png());
      expect(over.statusCode).toBe(429);
      expect(over.json()).toEqual({ message: `PHOTO_ATTEMPTS_EXCEEDED: at most ${PHOTO_ATTEMPTS_PER_DAY} photos a day; try again tomorrow` });
      expect((await sendPhoto('/validation/photo', v.token, 'face', png())).statusCode).toBe(429);
      expect((await sendPhoto('/signing/photo', b.token, 'face', png())).statusCode).toBe(200);
      const counted = await svc.deps.db.selectFrom('photo_attempts').select(['owner_id', 'attempts']).execute();
      expect(counted).toEqual(expect.arrayContaining([{ owner_id: v.id, attempts: PHOTO_ATTEMPTS_PER_DAY + 1 }]));
      svc.clock.advance(DAY);
      expect((await sendPhoto('/signing/photo', a.token, 'face', png())).statusCode).toBe(200);
    });
  });
});
