import crypto from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { createDeps } from '../src/deps.js';
import { readBlobBytes, writeBlobBytes } from '../src/files/blob-bytes.js';
import { decryptPhoto, encryptPhoto, isEncryptedPhoto, PhotoDecryptionError } from '../src/photos/photo-cipher.js';
import { finishVeriface } from '../src/veriface/person-flow.js';
import { jpeg } from './support/images.js';
import { photographedProcess, photographedVeriface, type StoreKind, storeEnv } from './support/photos.js';
import { type LocalS3, startLocalS3 } from './support/s3.js';
import { call, dialects, localPath, startTestService, type TestService } from './support/service.js';

const FIVE_MINUTES = 5 * 60 * 1000;
const cases = dialects.flatMap((dialect) => (['local', 's3'] as const).map((store): [string, StoreKind] => [dialect, store]));

let s3: LocalS3 | undefined;
beforeAll(async () => {
  s3 = await startLocalS3();
});
afterAll(async () => s3?.close());

describe.each(cases)('identity photos are encrypted at rest and served only through short-lived URLs (%s, %s store)', (dialect, store) => {
  let svc: TestService;
  beforeEach(async () => {
    svc = await startTestService(dialect === 'postgres' ? 'postgres' : 'sqlite', storeEnv(store, s3));
  });
  afterEach(async () => svc.close());

  const readVeriface = async (code: string, key = svc.orgA.privateKey) => call(svc.app, 'GET', '/veriface', { key, query: { code } });
  const verifaceRow = (code: string) => svc.deps.db.selectFrom('veriface_processes').selectAll().where('code', '=', code).executeTakeFirstOrThrow();
  const fetchPhoto = (url: string) => svc.app.inject({ method: 'GET', url: localPath(url) });

  it('the bytes in the store are not the image; the URL GET /veriface shows gives the image back, uncached, for 5 minutes', async () => {
    const { code, images } = await photographedVeriface(svc, svc.orgA);
    const row = await verifaceRow(code);
    const stored = await readBlobBytes(svc.deps.blobs, row.face!);
    expect(isEncryptedPhoto(stored!)).toBe(true);
    expect(stored!.includes(images.face.subarray(8, 40))).toBe(false);
    expect(stored!.length).toBe(images.face.length + 4 + 12 + 16);

    const { photos } = (await readVeriface(code)).json();
    expect(Object.keys(photos).sort()).toEqual(['documentFront', 'face']);
    expect(new URL(photos.face).pathname).toBe(`/photos/${row.face}`);
    const served = await fetchPhoto(photos.face);
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(images.face)).toBe(true);
    expect(served.headers).toMatchObject({ 'content-type': 'image/png', 'cache-control': 'private, no-store', 'x-content-type-options': 'nosniff' });
    const front = await fetchPhoto(photos.documentFront);
    expect(front.rawPayload.equals(images.documentFront)).toBe(true);
    expect(front.headers['content-type']).toBe('image/jpeg');

    svc.clock.advance(FIVE_MINUTES - 1000);
    expect((await fetchPhoto(photos.face)).statusCode).toBe(200);
    svc.clock.advance(1001);
    expect((await fetchPhoto(photos.face)).json()).toEqual({ message: 'URL_EXPIRED' });
  });

  it('an altered URL is 403 URL_SIGNATURE_INVALID, a photo no longer stored 404, and the store URL of the same key never serves the image', async () => {
    const { code, images } = await photographedVeriface(svc, svc.orgA);
    const { photos } = (await readVeriface(code)).json();
    const altered = new URL(photos.face);
    altered.searchParams.set('expires', String(Number(altered.searchParams.get('expires')) + 60_000));
    const refused = await fetchPhoto(altered.toString());
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: 'URL_SIGNATURE_INVALID' });
    const otherPhoto = new URL(photos.face);
    otherPhoto.pathname = new URL(photos.documentFront).pathname;
    expect((await fetchPhoto(otherPhoto.toString())).statusCode).toBe(403);
    expect((await svc.app.inject({ method: 'GET', url: `/photos/veriface/x/face.png?expires=1&signature=00` })).statusCode).toBe(403);

    const row = await verifaceRow(code);
    // What the store itself would hand out for the key is the ciphertext, never the photo.
    const direct = await svc.deps.blobs.presign(row.face!, { method: 'GET', expiresInSeconds: 300 });
    const body = store === 'local' ? (await fetchPhoto(direct)).rawPayload : Buffer.from(await (await fetch(direct)).arrayBuffer());
    expect(isEncryptedPhoto(body)).toBe(true);
    expect(body.equals(images.face)).toBe(false);

    await svc.deps.blobs.delete([row.face!]);
    const gone = await fetchPhoto(photos.face);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ message: 'FILE_NOT_FOUND' });
  });

  it("a signer's photos are stored encrypted and shown by GET /document?image=true as 5-minute URLs; organization B sees none", async () => {
    const { code, images } = await photographedProcess(svc, svc.orgA);
    const participant = await svc.deps.db
      .selectFrom('participants')
      .innerJoin('processes', 'processes.id', 'participants.process_id')
      .selectAll('participants')
      .where('processes.code', '=', code)
      .executeTakeFirstOrThrow();
    for (const key of [participant.face_key!, participant.document_front_key!]) {
      expect(isEncryptedPhoto((await readBlobBytes(svc.deps.blobs, key))!)).toBe(true);
    }
    const plain = await call(svc.app, 'GET', '/document', { key: svc.orgA.privateKey, query: { code } });
    expect(plain.json().signProfile[0]).not.toHaveProperty('photo');
    const read = await call(svc.app, 'GET', '/document', { key: svc.orgA.privateKey, query: { code, image: 'true' } });
    const [signer] = read.json().signProfile;
    expect(signer.photo).toEqual({ type: 'presigned', data: expect.stringContaining(`/photos/${participant.face_key}?`) });
    expect((await fetchPhoto(signer.photo.data)).rawPayload.equals(images[2]!)).toBe(true);
    expect((await fetchPhoto(signer.identificationCard.data)).rawPayload.equals(images[1]!)).toBe(true);
    expect(signer).not.toHaveProperty('identificationCardBack');
    svc.clock.advance(FIVE_MINUTES + 1);
    expect((await fetchPhoto(signer.photo.data)).statusCode).toBe(403);

    const fromB = await call(svc.app, 'GET', '/document', { key: svc.orgB.privateKey, query: { code, image: 'true' } });
    expect(fromB.json()).toEqual({ message: 'DOCUMENT_NOT_FOUND' });
    expect((await call(svc.app, 'GET', '/document', { key: svc.orgA.privateKey, query: { image: 'true' } })).statusCode).toBe(400);
  });

  it('photos stored before encryption (plain JPEG) are still read, compared and served', async () => {
    const { code, token } = await photographedVeriface(svc, svc.orgA);
    const row = await verifaceRow(code);
    const old = jpeg();
    await writeBlobBytes(svc.deps.blobs, row.document_front!, old, 'image/jpeg');
    expect(await svc.deps.photos.read(row.document_front!)).toEqual(old);
    const seen: Buffer[] = [];
    const recording = {
      async compare(photos: { documentPhoto: Buffer; facePhoto: Buffer }) {
        seen.push(photos.documentPhoto, photos.facePhoto);
        return { similarity: 95, matches: true };
      },
      async close() {},
    };
    await finishVeriface({ ...svc.deps, faceMatcher: recording }, { token });
    expect(seen[0]!.equals(old)).toBe(true);
    expect(isEncryptedPhoto(seen[1]!)).toBe(false);
    const { photos } = (await readVeriface(code)).json();
    expect((await fetchPhoto(photos.documentFront)).rawPayload.equals(old)).toBe(true);
  });

  it('a deletion on request removes the bytes from the store, and the URL shown before answers 404', async () => {
    const { code } = await photographedVeriface(svc, svc.orgA, { finish: true });
    const row = await verifaceRow(code);
    const { photos } = (await readVeriface(code)).json();
    const res = await call(svc.app, 'DELETE', '/veriface/photos', { key: svc.orgA.privateKey, query: { code } });
    expect(res.json()).toEqual({ code, deleted: 2 });
    for (const key of [row.face!, row.document_front!]) expect(await svc.deps.blobs.exists(key)).toBe(false);
    expect((await fetchPhoto(photos.face)).json()).toEqual({ message: 'FILE_NOT_FOUND' });
  });

  it("a ciphertext moved to another photo's key does not open", async () => {
    const first = await photographedVeriface(svc, svc.orgA);
    const second = await photographedVeriface(svc, svc.orgB);
    const [a, b] = [await verifaceRow(first.code), await verifaceRow(second.code)];
    const stolen = await readBlobBytes(svc.deps.blobs, a.face!);
    await writeBlobBytes(svc.deps.blobs, b.face!, stolen!, 'application/octet-stream');
    await expect(svc.deps.photos.read(b.face!)).rejects.toThrow('PHOTO_UNREADABLE');
    const served = await fetchPhoto((await readVeriface(second.code, svc.orgB.privateKey)).json().photos.face);
    expect(served.statusCode).toBe(409);
    expect(served.json()).toEqual({ message: 'PHOTO_UNREADABLE' });
    expect((await svc.deps.photos.read(a.face!))!.equals(first.images.face)).toBe(true);
  });
});

describe('the photo key: PHOTO_ENCRYPTION_KEY, or made at first start and kept in the database', () => {
  const hex = crypto.randomBytes(32).toString('hex');

  it('takes 64 hex characters or the base64 of 32 bytes, and refuses anything else at start', () => {
    const bytes = crypto.randomBytes(32);
    expect(loadConfig({ PHOTO_ENCRYPTION_KEY: bytes.toString('hex') }).photoEncryptionKey).toEqual(bytes);
    expect(loadConfig({ PHOTO_ENCRYPTION_KEY: bytes.toString('base64') }).photoEncryptionKey).toEqual(bytes);
    for (const wrong of ['short', crypto.randomBytes(16).toString('hex'), crypto.randomBytes(31).toString('base64'), `${hex.slice(0, 63)}g`]) {
      expect(() => loadConfig({ PHOTO_ENCRYPTION_KEY: wrong })).toThrow(ConfigError);
    }
  });

  it.each(dialects)('without it, one key is made and kept: another instance on the same store reads the photos (%s)', async (dialect) => {
    const svc = await startTestService(dialect);
    try {
      const { code, images } = await photographedVeriface(svc, svc.orgA);
      const row = await svc.deps.db.selectFrom('veriface_processes').select('face').where('code', '=', code).executeTakeFirstOrThrow();
      const other = await createDeps(svc.config, { clock: svc.clock });
      try {
        expect((await other.photos.read(row.face!))!.equals(images.face)).toBe(true);
      } finally {
        await other.close();
      }
      const kept = await svc.deps.db.selectFrom('settings').select('value').where('key', '=', 'photo_encryption_key').execute();
      expect(kept).toHaveLength(1);
      expect(decryptPhoto(Buffer.from(kept[0]!.value, 'hex'), row.face!, (await readBlobBytes(svc.deps.blobs, row.face!))!).equals(images.face)).toBe(true);
    } finally {
      await svc.close();
    }
  });

  it.each(dialects)('with it, photos are encrypted with that key and no other, and nothing is kept in the database (%s)', async (dialect) => {
    const svc = await startTestService(dialect, { PHOTO_ENCRYPTION_KEY: hex });
    try {
      const { code, images } = await photographedVeriface(svc, svc.orgA);
      const row = await svc.deps.db.selectFrom('veriface_processes').select('face').where('code', '=', code).executeTakeFirstOrThrow();
      const stored = (await readBlobBytes(svc.deps.blobs, row.face!))!;
      expect(decryptPhoto(Buffer.from(hex, 'hex'), row.face!, stored).equals(images.face)).toBe(true);
      expect(() => decryptPhoto(crypto.randomBytes(32), row.face!, stored)).toThrow(PhotoDecryptionError);
      expect(await svc.deps.db.selectFrom('settings').select('key').where('key', '=', 'photo_encryption_key').execute()).toEqual([]);
    } finally {
      await svc.close();
    }
  });

  it('a sealed photo is the header, a fresh nonce each time, the ciphertext and its tag', () => {
    const key = crypto.randomBytes(32);
    const image = jpeg();
    const [one, two] = [encryptPhoto(key, 'veriface/a/face.jpg', image), encryptPhoto(key, 'veriface/a/face.jpg', image)];
    expect(one.subarray(0, 4)).toEqual(Buffer.from('PHV\x01', 'latin1'));
    expect(one.subarray(4, 16).equals(two.subarray(4, 16))).toBe(false);
    expect(decryptPhoto(key, 'veriface/a/face.jpg', one).equals(image)).toBe(true);
    const flipped = Buffer.from(one);
    flipped[20] = (flipped[20] ?? 0) ^ 1;
    expect(() => decryptPhoto(key, 'veriface/a/face.jpg', flipped)).toThrow(PhotoDecryptionError);
    const relabelled = Buffer.from(one);
    relabelled[3] = 2;
    expect(() => decryptPhoto(key, 'veriface/a/face.jpg', relabelled)).toThrow(PhotoDecryptionError);
  });
});
