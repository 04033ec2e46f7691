import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RECURRING_JOBS } from '../src/deps.js';
import { scheduleRecurringJobs } from '../src/outbox/jobs.js';
import { expireDueVerifaces } from '../src/veriface/expire-verifaces.js';
import { finishVeriface, openVeriface, submitDocumentPhoto, submitFacePhoto } from '../src/veriface/person-flow.js';
import { jpeg, matcher, png } from './support/images.js';
import { refusal } from './support/refusal.js';
import { call, dialects, localPath, startTestService, type TestService } from './support/service.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

const DAY = 24 * 60 * 60 * 1000;

describe.each(dialects)('the face-validation process (%s)', (dialect) => {
  let svc: TestService;
  const receiver = new WebhookReceiver();
  let url: string;
  beforeAll(async () => {
    url = await receiver.start();
  });
  afterAll(async () => receiver.close());
  beforeEach(async () => {
    svc = await startTestService(dialect, { WEBHOOK_ALLOW_PRIVATE: 'true' });
    receiver.received.length = 0;
    receiver.now = () => svc.clock.now();
    receiver.secret = (await call(svc.app, 'POST', '/webhooks', { key: svc.orgA.privateKey, body: { name: 'default', url } })).json().secret;
  });
  afterEach(async () => svc.close());

  async function start(overrides: Record<string, unknown> = {}): Promise<{ code: string; token: string }> {
    const res = await call(svc.app, 'POST', '/veriface', {
      key: svc.orgA.privateKey,
      body: {
        email: 'owner@acme.test',
        platform: 'web',
        name: 'Juan Pérez',
        phone: '+573001234567',
        country: 'CO',
        type: 'CC',
        identification: '1001001010',
        custom: { reference: 'RF-9' },
        tags: ['kyc'],
        ...overrides,
      },
    });
    expect(res.statusCode).toBe(200);
    const { code, url: link } = res.json();
    return { code, token: String(link).split('/v/')[1]! };
  }
  const read = async (code: string, key = svc.orgA.privateKey) => (await call(svc.app, 'GET', `/veriface?code=${code}`, { key })).json();
  const webhooks = async () => {
    await svc.deps.worker.deliverDue();
    return receiver.received.map((r) => r.body);
  };

  describe('the person opens the link, photographs the document and the face, and finishes', () => {
    it('each stage is stored with its time and sent as a webhook carrying custom and tags', async () => {
      const { code, token } = await start();
      await openVeriface(svc.deps, { token });
      await openVeriface(svc.deps, { token });
      await submitDocumentPhoto(svc.deps, { token, side: 'front', image: jpeg() });
      await submitDocumentPhoto(svc.deps, { token, side: 'back', image: png() });
      await submitFacePhoto(svc.deps, { token, image: jpeg() });
      const result = await finishVeriface({ ...svc.deps, faceMatcher: matcher(91.31) }, { token });
      expect(result).toEqual({ code, status: 'APPROVED', failures: 0, similarity: 91.31 });

      const process = await read(code);
      expect(process.status).toBe('APPROVED');
      expect(process.similarity).toBe(91.31);
      expect(process.stages.map((s: { stage: string }) => s.stage)).toEqual([
        'created',
        'opened',
        'document_captured',
        'document_captured',
        'face_captured',
        'approved',
      ]);
      const events = await webhooks();
      expect(events.map((e) => e.type).sort()).toEqual(
        [
          'veriface.created',
          'veriface.opened',
          'veriface.document_captured',
          'veriface.document_captured',
          'veriface.face_captured',
          'veriface.approved',
        ].sort(),
      );
      for (const event of events) expect(event.data).toMatchObject({ code, custom: { reference: 'RF-9' }, tags: ['kyc'] });
      expect(events.find((e) => e.type === 'veriface.approved')!.data).toMatchObject({ status: 'APPROVED', similarity: 91.31 });
      expect(receiver.received.every((r) => r.verified)).toBe(true);
    });

    it('photos are kept in the file store and shown only through short-lived URLs', async () => {
      const { code, token } = await start();
      const front = jpeg();
      await submitDocumentPhoto(svc.deps, { token, side: 'front', image: front });
      const process = await read(code);
      expect(Object.keys(process.photos)).toEqual(['documentFront']);
      const download = await svc.app.inject({ method: 'GET', url: localPath(process.photos.documentFront) });
      expect(download.rawPayload.equals(front)).toBe(true);
      expect(download.headers['content-type']).toBe('image/jpeg');
      svc.clock.advance(5 * 60 * 1000 + 1);
      expect((await svc.app.inject({ method: 'GET', url: localPath(process.photos.documentFront) })).statusCode).toBe(403);
    });

    it('a face below the threshold is a failed attempt (veriface.rejected) and the process stays open; the third BLOCKS it', async () => {
      const { code, token } = await start();
      await submitDocumentPhoto(svc.deps, { token, side: 'front', image: jpeg() });
      await submitFacePhoto(svc.deps, { token, image: jpeg() });
      const mismatch = { ...svc.deps, faceMatcher: matcher(49.42) };
      expect(await finishVeriface(mismatch, { token })).toEqual({ code, status: 'INPROGRESS', failures: 1, similarity: 49.42 });
      expect(await read(code)).toMatchObject({ status: 'INPROGRESS', similarity: 49.42 });
      const rejected = (await webhooks()).find((e) => e.type === 'veriface.rejected');
      expect(rejected!.data).toMatchObject({ status: 'INPROGRESS', similarity: 49.42, reason: 'FACE_MISMATCH', failures: 1 });
      await submitFacePhoto(svc.deps, { token, image: jpeg() });
      expect(await finishVeriface(mismatch, { token })).toEqual({ code, status: 'INPROGRESS', failures: 2, similarity: 49.42 });
      expect(await finishVeriface(mismatch, { token })).toEqual({ code, status: 'BLOCKED', failures: 3, similarity: 49.42 });
      expect(await read(code)).toMatchObject({ status: 'BLOCKED', similarity: 49.42, reason: 'FACE_MISMATCH' });
      const blocked = (await webhooks()).find((e) => e.type === 'veriface.blocked');
      expect(blocked!.data).toMatchObject({ status: 'BLOCKED', reason: 'FACE_MISMATCH', failures: 3 });
    });

    it('a photo that cannot be used is answered 422 with its reason, recorded as photo_unusable, and counts no attempt', async () => {
      const { code, token } = await start();
      await submitDocumentPhoto(svc.deps, { token, side: 'front', image: jpeg() });
      await submitFacePhoto(svc.deps, { token, image: jpeg() });
      const unusable = { ...svc.deps, faceMatcher: matcher({ unusable: 'NO_FACE', photo: 'face' }) };
      for (let i = 0; i < 4; i++)
        expect(await refusal(finishVeriface(unusable, { token }))).toEqual({ statusCode: 422, message: expect.stringMatching(/^NO_FACE: /) });
      expect(await read(code)).toMatchObject({ status: 'INPROGRESS' });
      const recorded = (await webhooks()).filter((e) => e.type === 'veriface.photo_unusable');
      expect(recorded.map((e) => e.data)).toEqual(Array(4).fill(expect.objectContaining({ status: 'INPROGRESS', reason: 'NO_FACE', photo: 'face' })));
      expect(await finishVeriface({ ...svc.deps, faceMatcher: matcher(90) }, { token })).toEqual({ code, status: 'APPROVED', failures: 0, similarity: 90 });
    });

    it('without an automatic matcher, the process is BLOCKED for manual review', async () => {
      const { code, token } = await start();
      await submitDocumentPhoto(svc.deps, { token, side: 'front', image: jpeg() });
      await submitFacePhoto(svc.deps, { token, image: jpeg() });
      expect(await finishVeriface(svc.deps, { token })).toEqual({ code, status: 'BLOCKED', failures: 0 });
      expect(await read(code)).toMatchObject({ status: 'BLOCKED', reason: 'MANUAL_REVIEW_REQUIRED' });
    });
  });

  describe('the steps are checked', () => {
    it('finishing needs the document front and the face', async () => {
      const { token } = await start();
      const m = matcher(99);
      await expect(finishVeriface({ ...svc.deps, faceMatcher: m }, { token })).rejects.toThrow('DOCUMENT_PHOTO_REQUIRED');
      await submitDocumentPhoto(svc.deps, { token, side: 'front', image: jpeg() });
      await expect(finishVeriface({ ...svc.deps, faceMatcher: m }, { token })).rejects.toThrow('FACE_PHOTO_REQUIRED');
      expect(m.calls).toBe(0);
    });

    it('photos must be JPEG or PNG, not empty', async () => {
      const { token } = await start();
      await expect(submitFacePhoto(svc.deps, { token, image: Buffer.from('<html>not a photo</html>') })).rejects.toThrow('IMAGE_NOT_JPEG_OR_PNG');
      await expect(submitFacePhoto(svc.deps, { token, image: Buffer.alloc(0) })).rejects.toThrow('IMAGE_EMPTY');
    });

    it('an unknown link is VERIFACE_NOT_FOUND', async () => {
      await expect(openVeriface(svc.deps, { token: 'nope' })).rejects.toThrow('VERIFACE_NOT_FOUND');
    });

    it('a finished process accepts nothing more', async () => {
      const { token } = await start();
      await submitDocumentPhoto(svc.deps, { token, side: 'front', image: jpeg() });
      await submitFacePhoto(svc.deps, { token, image: jpeg() });
      await finishVeriface({ ...svc.deps, faceMatcher: matcher(95) }, { token });
      await expect(submitFacePhoto(svc.deps, { token, image: jpeg() })).rejects.toThrow('VERIFACE_CLOSED');
      await expect(finishVeriface({ ...svc.deps, faceMatcher: matcher(10) }, { token })).rejects.toThrow('VERIFACE_CLOSED');
    });

    it('another organization never sees the process', async () => {
      const { code } = await start();
      expect(await read(code, svc.orgB.publicKey)).toEqual({ message: 'VERIFACE_NOT_FOUND' });
    });
  });

  describe('expiry at expiredDate through the scheduled sweep; an expired process accepts nothing more', () => {
    it('refused as soon as the date passes, marked EXPIRED by the sweep with its webhook', async () => {
      const expiredDate = new Date(svc.clock.now().getTime() + 4 * DAY);
      const { code, token } = await start({ expiredDate: expiredDate.toISOString() });
      const other = await start();
      svc.clock.advance(4 * DAY);
      await expect(openVeriface(svc.deps, { token })).rejects.toThrow('VERIFACE_EXPIRED');
      expect(await expireDueVerifaces(svc.deps.db, svc.clock)).toBe(1);
      expect(await expireDueVerifaces(svc.deps.db, svc.clock)).toBe(0);
      expect((await read(code)).status).toBe('EXPIRED');
      expect((await read(other.code)).status).toBe('INPROGRESS');
      const expired = (await webhooks()).find((e) => e.type === 'veriface.expired');
      expect(expired!.data).toMatchObject({ code, status: 'EXPIRED', custom: { reference: 'RF-9' }, tags: ['kyc'] });
    });

    it('the sweep is a recurring job of the outbox', async () => {
      const { code } = await start({ expiredDate: new Date(svc.clock.now().getTime() + 4 * DAY).toISOString() });
      await scheduleRecurringJobs(svc.deps.db, svc.clock, RECURRING_JOBS);
      await scheduleRecurringJobs(svc.deps.db, svc.clock, RECURRING_JOBS);
      svc.clock.advance(4 * DAY);
      await svc.deps.worker.deliverDue();
      expect((await read(code)).status).toBe('EXPIRED');
      const jobs = await svc.deps.db.selectFrom('outbox').selectAll().where('kind', '=', 'job').execute();
      const sweeps = jobs.filter((job) => job.dedupe_key === 'recurring:veriface-expiry');
      expect(jobs).toHaveLength(RECURRING_JOBS.length);
      expect(sweeps).toHaveLength(1);
      expect(sweeps[0]).toMatchObject({ status: 'pending', next_attempt_at: new Date(svc.clock.now().getTime() + 60_000).toISOString() });
    });

    it('a process that finished before its date never expires', async () => {
      const { code, token } = await start({ expiredDate: new Date(svc.clock.now().getTime() + 4 * DAY).toISOString() });
      await submitDocumentPhoto(svc.deps, { token, side: 'front', image: jpeg() });
      await submitFacePhoto(svc.deps, { token, image: jpeg() });
      await finishVeriface({ ...svc.deps, faceMatcher: matcher(88) }, { token });
      svc.clock.advance(5 * DAY);
      expect(await expireDueVerifaces(svc.deps.db, svc.clock)).toBe(0);
      expect((await read(code)).status).toBe('APPROVED');
    });
  });
});
