import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_FACE_MATCH_THRESHOLD, DEFAULT_LIVENESS_THRESHOLD, loadConfig } from '../src/config.js';
import { createDeps } from '../src/deps.js';
import { DomainError } from '../src/domain-error.js';
import { errorAnswer } from '../src/http/errors.js';
import { similarityOf } from '../src/veriface/face/compare-faces.js';
import { decodeImage } from '../src/veriface/face/decode-image.js';
import { LocalFaceMatcher } from '../src/veriface/face/local-matcher.js';
import { faceSharpness } from '../src/veriface/face/sharpness.js';
import { FaceWorkerPool } from '../src/veriface/face/worker-pool.js';
import type { FaceComparison, MatcherFlow } from '../src/veriface/face-matcher.js';
import { distantFace, identityCard, imagesWithoutFaces, notAnImage, type Person, selfie, twoPeople } from './support/face-photos.js';

/** The real matcher, in its worker thread, as FACE_MATCHER=local runs it. */
let matcher: LocalFaceMatcher;
beforeAll(() => {
  matcher = new LocalFaceMatcher({
    size: 1,
    queueMax: 20,
    jobTimeoutMs: 60_000,
    threshold: DEFAULT_FACE_MATCH_THRESHOLD,
    livenessThreshold: DEFAULT_LIVENESS_THRESHOLD,
  });
});
afterAll(async () => matcher.close());

/** Whose photos: one person's link, whose comparisons here come one after the other. */
const flow = (id: string): MatcherFlow => ({ kind: 'person', id });
const compare = async (documentPhoto: Buffer, facePhoto: Buffer): Promise<FaceComparison> => matcher.compare({ documentPhoto, facePhoto, flow: flow('one') });
const matches = (comparison: FaceComparison) => ('matches' in comparison ? comparison.matches : comparison);

describe('the same person is approved, different people are a FACE_MISMATCH', () => {
  it('two photographs of the same person taken at different times match', async () => {
    expect(matches(await compare(await selfie('authorSelected'), await selfie('authorPhoto')))).toBe(true);
  });

  it.each<[Person, Person]>([
    ['authorSelected', 'womanBlonde'],
    ['authorPhoto', 'womanDarkHair'],
    ['womanDarkHair', 'womanBrownHair'],
  ])('%s and %s do not match', async (first, second) => {
    const comparison = await compare(await selfie(first), await selfie(second));
    expect(comparison).toMatchObject({ matches: false });
    expect('similarity' in comparison && comparison.similarity).toBeLessThan(DEFAULT_FACE_MATCH_THRESHOLD);
  });

  it('an ID card made from a real portrait (askew, out of focus, JPEG) matches another photo of that person, not someone else', async () => {
    const card = await identityCard('authorSelected');
    expect(matches(await compare(card, await selfie('authorPhoto')))).toBe(true);
    expect(matches(await compare(card, await selfie('womanBrownHair')))).toBe(false);
    expect(matches(await compare(await identityCard('womanBlonde'), await selfie('authorPhoto')))).toBe(false);
    // A document photo is searched in four turns and described from a close-up: seconds each on a loaded machine.
  }, 120_000);

  it('the similarity is 100 × (1 − descriptor distance), from 0 to 100 with two decimals', () => {
    expect(similarityOf(0)).toBe(100);
    expect(similarityOf(0.4)).toBe(60);
    expect(similarityOf(0.123456)).toBe(87.65);
    expect(similarityOf(1.3)).toBe(0);
  });
});

describe('a photo that cannot be used is answered with its reason, never as a mismatch', () => {
  it('an image without a face is NO_FACE as the face photo and DOCUMENT_NO_FACE as the document', async () => {
    const portrait = await selfie('authorPhoto');
    for (const { name, image } of await imagesWithoutFaces()) {
      expect(await compare(portrait, image), name).toEqual({ unusable: 'NO_FACE', photo: 'face' });
      expect(await compare(image, portrait), name).toEqual({ unusable: 'DOCUMENT_NO_FACE', photo: 'document' });
    }
    // A document with no face is searched in every turn and skew before it is DOCUMENT_NO_FACE.
  }, 120_000);

  it('two people in the face photo is MULTIPLE_FACES', async () => {
    expect(await compare(await selfie('authorSelected'), await twoPeople('authorSelected', 'womanBrownHair'))).toEqual({
      unusable: 'MULTIPLE_FACES',
      photo: 'face',
    });
  });

  it('a face a few dozen pixels wide is FACE_TOO_SMALL', async () => {
    expect(await compare(await selfie('authorSelected'), await distantFace('authorWebcam'))).toEqual({ unusable: 'FACE_TOO_SMALL', photo: 'face' });
  });

  it('bytes that are not an image are IMAGE_UNREADABLE, for either photo', async () => {
    const portrait = await selfie('authorPhoto');
    expect(await compare(portrait, notAnImage())).toEqual({ unusable: 'IMAGE_UNREADABLE', photo: 'face' });
    expect(await compare(notAnImage(), portrait)).toEqual({ unusable: 'IMAGE_UNREADABLE', photo: 'document' });
  });

  it('sharpness (variance of the Laplacian) falls as the same face is blurred', async () => {
    const sharpnessOf = async (image: Buffer) => {
      const decoded = await decodeImage(image);
      if (!decoded) throw new Error('the fixture must decode');
      // Inside the face, which sits in the middle of the frame (see face-photos.ts), away from its edges.
      return faceSharpness(decoded, { x: 170, y: 230, width: 140, height: 140 });
    };
    const portrait = await selfie('authorSelected');
    const values = [await sharpnessOf(portrait)];
    for (const sigma of [1, 2, 4]) values.push(await sharpnessOf(await sharp(portrait).blur(sigma).jpeg().toBuffer()));
    expect(values).toEqual([...values].sort((a, b) => b - a));
    expect(values[3]).toBeLessThan((values[0] ?? 0) / 4);
  });
});

describe('comparisons run in a bounded pool of worker threads', () => {
  it('a full queue is refused at once with 503 FACE_MATCHER_BUSY and Retry-After, never kept waiting', async () => {
    const pool = new FaceWorkerPool({ size: 1, queueMax: 1, jobTimeoutMs: 60_000 });
    try {
      const photo = await selfie('authorPhoto');
      const accepted = [pool.describe('face', photo, flow('first')), pool.describe('face', photo, flow('second'))];
      const refused = await pool.describe('face', photo, flow('third')).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(DomainError);
      const answer = refused instanceof DomainError ? errorAnswer(refused) : undefined;
      expect(answer?.status).toBe(503);
      expect(answer?.message).toMatch(/^FACE_MATCHER_BUSY: /);
      expect(Number(answer?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      const described = await Promise.all(accepted);
      expect(described.every((d) => 'descriptor' in d)).toBe(true);
    } finally {
      await pool.close();
    }
  });

  it('a photo whose worker stops is answered with FACE_MATCHER_FAILED, and a new worker takes the next one', async () => {
    const events: string[] = [];
    const pool = new FaceWorkerPool({ size: 1, queueMax: 4, jobTimeoutMs: 1, onWorkerEvent: (e) => events.push(e.kind) });
    try {
      const photo = await selfie('authorPhoto');
      await expect(pool.describe('face', photo, flow('one'))).rejects.toThrow(/^FACE_MATCHER_FAILED: /);
      expect(pool.state.workers).toBe(0);
      await expect(pool.describe('face', photo, flow('one'))).rejects.toThrow(/^FACE_MATCHER_FAILED: /);
      expect(events).toEqual(['ready', 'died', 'ready', 'died']);
    } finally {
      await pool.close();
    }
  });

  it('closing the service terminates the workers', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'face-close-'));
    const deps = await createDeps(loadConfig({ DATA_DIR: dataDir, FACE_MATCHER: 'local', FACE_WORKERS: '1' }));
    const local = deps.faceMatcher;
    expect(local).toBeInstanceOf(LocalFaceMatcher);
    if (!(local instanceof LocalFaceMatcher)) return;
    await local.compare({ documentPhoto: await selfie('authorSelected'), facePhoto: await selfie('authorPhoto'), flow: flow('one') });
    expect(local.pool.state.workers).toBe(1);
    await deps.close();
    expect(local.pool.state.workers).toBe(0);
    await expect(local.compare({ documentPhoto: notAnImage(), facePhoto: notAnImage(), flow: flow('one') })).rejects.toThrow(/^FACE_MATCHER_FAILED: /);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});
