import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordStoredPhotos } from '../src/db/migrations/011_photo_vault.js';
import { RECURRING_JOBS } from '../src/deps.js';
import { readBlobBytes, writeBlobBytes } from '../src/files/blob-bytes.js';
import { updateSettings } from '../src/organizations/settings.js';
import { scheduleRecurringJobs } from '../src/outbox/jobs.js';
import { PURGE_BATCH, purgeDuePhotos } from '../src/photos/deletion/purge-photos.js';
import { jpeg } from './support/images.js';
import { photographedProcess, photographedVeriface } from './support/photos.js';
import { call, dialects, localPath, startTestService, type TestOrganization, type TestService } from './support/service.js';
import { outbox, stored as storedProcess } from './support/signing.js';

const DAY = 24 * 60 * 60 * 1000;

describe.each(dialects)('identity photos are deleted when their retention ends, or on request (%s)', (dialect) => {
  let svc: TestService;
  beforeEach(async () => {
    svc = await startTestService(dialect);
    for (const org of [svc.orgA, svc.orgB]) {
      await call(svc.app, 'POST', '/webhooks', { key: org.privateKey, body: { name: 'default', url: 'https://hooks.example.test/photos' } });
    }
  });
  afterEach(async () => svc.close());

  /** Every photo key written for the process, from the vault's records and the rows. */
  async function photoKeys(code: string): Promise<string[]> {
    const process = await svc.deps.db.selectFrom('processes').select('id').where('code', '=', code).executeTakeFirst();
    const veriface = await svc.deps.db.selectFrom('veriface_processes').select('id').where('code', '=', code).executeTakeFirst();
    const id = process?.id ?? veriface?.id ?? '';
    const rows = await svc.deps.db.selectFrom('photo_blobs').select('key').where('owner_id', '=', id).execute();
    return rows.map((r) => r.key);
  }
  const stored = async (keys: string[]) => (await Promise.all(keys.map((key) => readBlobBytes(svc.deps.blobs, key)))).filter((b) => b !== undefined).length;
  const readDocument = (code: string, key = svc.orgA.privateKey) => call(svc.app, 'GET', '/document', { key, query: { code, image: 'true' } });
  const readVeriface = (code: string, key = svc.orgA.privateKey) => call(svc.app, 'GET', '/veriface', { key, query: { code } });
  const roadmap = async (code: string) =>
    (await call(svc.app, 'GET', '/document/roadmap', { key: svc.orgA.privateKey, query: { code } })).json().activityLog as {
      action: string;
      message?: string;
    }[];
  const webhooks = async (type: string) =>
    (await outbox(svc, 'webhook')).filter((row) => row.event_type === type).map((row) => row.body.event as { data: Record<string, unknown> });
  const deletePhotos = (kind: 'document' | 'veriface', code: string, key: string) => call(svc.app, 'DELETE', `/${kind}/photos`, { key, query: { code } });

  interface Fixture {
    ended: { process: string; veriface: string };
    running: { process: string; veriface: string };
    keys: Record<string, string[]>;
  }

  /** For one organization: a signing process and a face validation that ended now, and one of each still in progress. */
  async function photographed(org: TestOrganization): Promise<Fixture> {
    const ended = {
      process: (await photographedProcess(svc, org, { end: 'FINISH' })).code,
      veriface: (await photographedVeriface(svc, org, { finish: true })).code,
    };
    const running = { process: (await photographedProcess(svc, org)).code, veriface: (await photographedVeriface(svc, org)).code };
    const keys: Record<string, string[]> = {};
    for (const code of [...Object.values(ended), ...Object.values(running)]) keys[code] = await photoKeys(code);
    return { ended, running, keys };
  }

  describe('the retention job deletes the photos of processes ended more than photo_retention_days ago, and only those', () => {
    it('at 180 days by default: due ones go, the audit trail and webhooks say so, the rest stays; running again changes nothing', async () => {
      await updateSettings(svc.deps.db, { organizationId: svc.orgB.id, changes: { photoRetentionDays: 365 } });
      const a = await photographed(svc.orgA);
      const b = await photographed(svc.orgB);
      // The signer's refused first face is kept as its attempt's evidence, beside the two on the row.
      expect(a.keys[a.ended.process]).toHaveLength(3);
      expect(a.keys[a.ended.veriface]).toHaveLength(2);

      svc.clock.advance(180 * DAY - 60_000);
      expect(await purgeDuePhotos(svc.deps)).toEqual({ processes: 0, verifaces: 0 });
      expect(await stored(a.keys[a.ended.process]!)).toBe(3);

      svc.clock.advance(2 * 60_000);
      expect(await purgeDuePhotos(svc.deps)).toEqual({ processes: 1, verifaces: 1 });
      for (const code of Object.values(a.ended)) {
        expect(await stored(a.keys[code]!)).toBe(0);
        expect(await photoKeys(code)).toEqual([]);
      }
      const document = (await readDocument(a.ended.process)).json();
      expect(document.photosDeletedAt).toBe(svc.clock.now().toISOString());
      expect(document.signProfile[0]).not.toHaveProperty('photo');
      expect(document.signProfile[0]).not.toHaveProperty('identificationCard');
      const veriface = (await readVeriface(a.ended.veriface)).json();
      expect(veriface).toMatchObject({ photos: {}, photosDeletedAt: svc.clock.now().toISOString() });
      expect(veriface.stages.at(-1)).toMatchObject({ stage: 'photos_deleted', detail: { deleted: 2, reason: 'retention' } });
      expect((await roadmap(a.ended.process)).at(-1)).toMatchObject({ action: 'PHOTOS_DELETED', message: 'retention' });
      expect((await webhooks('document.photos_deleted')).map((e) => e.data)).toEqual([
        expect.objectContaining({ code: a.ended.process, status: 'PHOTOS_DELETED', deleted: 3, reason: 'retention' }),
      ]);
      expect((await webhooks('veriface.photos_deleted')).map((e) => e.data)).toEqual([
        expect.objectContaining({ code: a.ended.veriface, stage: 'photos_deleted', deleted: 2, reason: 'retention' }),
      ]);

      // Still in progress, or of an organization keeping photos longer: untouched.
      for (const code of [...Object.values(a.running), ...Object.values(b.ended), ...Object.values(b.running)]) {
        const keys = a.keys[code] ?? b.keys[code]!;
        expect(await stored(keys)).toBe(keys.length);
      }
      expect((await readVeriface(b.ended.veriface, svc.orgB.privateKey)).json()).not.toHaveProperty('photosDeletedAt');

      expect(await purgeDuePhotos(svc.deps)).toEqual({ processes: 0, verifaces: 0 });
      expect(await webhooks('document.photos_deleted')).toHaveLength(1);
      expect((await roadmap(a.ended.process)).filter((line) => line.action === 'PHOTOS_DELETED')).toHaveLength(1);

      svc.clock.advance(185 * DAY);
      expect(await purgeDuePhotos(svc.deps)).toEqual({ processes: 1, verifaces: 1 });
      for (const code of Object.values(b.ended)) expect(await stored(b.keys[code]!)).toBe(0);
      for (const code of [...Object.values(a.running), ...Object.values(b.running)]) {
        const keys = a.keys[code] ?? b.keys[code]!;
        expect(await stored(keys)).toBe(keys.length);
      }
    });

    it("counts from the end of the process, by each organization's own setting", async () => {
      await updateSettings(svc.deps.db, { organizationId: svc.orgA.id, changes: { photoRetentionDays: 1 } });
      const running = await photographedProcess(svc, svc.orgA);
      const ended = await photographedVeriface(svc, svc.orgB, { finish: true });
      svc.clock.advance(30 * DAY);
      expect((await storedProcess(svc, svc.orgA, running.code)).process.status).toBe('CREATED');
      await call(svc.app, 'POST', '/document/cancel', { key: svc.orgA.privateKey, body: { codes: [running.code], message: 'Stop', email: svc.orgA.email } });
      const keys = await photoKeys(running.code);
      svc.clock.advance(DAY - 60_000);
      expect(await purgeDuePhotos(svc.deps)).toEqual({ processes: 0, verifaces: 0 });
      svc.clock.advance(2 * 60_000);
      expect(await purgeDuePhotos(svc.deps)).toEqual({ processes: 1, verifaces: 0 });
      expect(await stored(keys)).toBe(0);
      expect(await stored(await photoKeys(ended.code))).toBe(2);
    });

    it('works in bounded batches: more due than one batch are all deleted by one run', async () => {
      const codes: string[] = [];
      for (let i = 0; i <= PURGE_BATCH; i++) codes.push((await photographedVeriface(svc, svc.orgA, { finish: true })).code);
      svc.clock.advance(181 * DAY);
      expect(await purgeDuePhotos(svc.deps)).toEqual({ processes: 0, verifaces: PURGE_BATCH + 1 });
      expect(await svc.deps.db.selectFrom('photo_blobs').select('key').execute()).toEqual([]);
      expect(await purgeDuePhotos(svc.deps)).toEqual({ processes: 0, verifaces: 0 });
    });

    it('photos stored before the vault (plain, named only by the rows) are recorded by migration 011 and deleted like the others', async () => {
      await photographedProcess(svc, svc.orgA, { end: 'FINISH' });
      await photographedVeriface(svc, svc.orgA, { finish: true });
      const participants = await svc.deps.db.selectFrom('participants').select(['face_key', 'document_front_key', 'document_back_key']).execute();
      const verifaces = await svc.deps.db.selectFrom('veriface_processes').select(['document_front', 'document_back', 'face']).execute();
      const named = [...participants, ...verifaces].flatMap((row) => Object.values(row)).filter((key): key is string => key !== null);
      expect(named).toHaveLength(4);
      await svc.deps.db.deleteFrom('photo_blobs').execute();
      for (const key of named) await writeBlobBytes(svc.deps.blobs, key, jpeg(), 'image/jpeg');
      await recordStoredPhotos(svc.deps.db);
      expect((await svc.deps.db.selectFrom('photo_blobs').select('key').execute()).map((r) => r.key).sort()).toEqual([...named].sort());
      svc.clock.advance(181 * DAY);
      expect(await purgeDuePhotos(svc.deps)).toEqual({ processes: 1, verifaces: 1 });
      expect(await stored(named)).toBe(0);
    });

    it('is a recurring job of the outbox', async () => {
      const { code } = await photographedVeriface(svc, svc.orgA, { finish: true });
      await scheduleRecurringJobs(svc.deps.db, svc.clock, RECURRING_JOBS);
      expect(RECURRING_JOBS.map((job) => job.name)).toContain('photo-retention');
      svc.clock.advance(181 * DAY);
      await svc.deps.worker.deliverDue();
      expect((await readVeriface(code)).json().photosDeletedAt).toBe(svc.clock.now().toISOString());
      const job = await svc.deps.db.selectFrom('outbox').selectAll().where('dedupe_key', '=', 'recurring:photo-retention').execute();
      expect(job).toEqual([expect.objectContaining({ status: 'pending', next_attempt_at: new Date(svc.clock.now().getTime() + 60 * 60_000).toISOString() })]);
    });
  });

  describe('DELETE /document/photos and DELETE /veriface/photos delete a process’s photos on request', () => {
    it('once the process has ended: {code, deleted}, written in the audit trail "on request", the URLs stop working', async () => {
      const process = await photographedProcess(svc, svc.orgA, { end: 'CANCELLED' });
      const veriface = await photographedVeriface(svc, svc.orgA, { finish: true });
      const [processKeys, verifaceKeys] = [await photoKeys(process.code), await photoKeys(veriface.code)];
      const photoUrl = (await readDocument(process.code)).json().signProfile[0].photo.data;
      const faceUrl = (await readVeriface(veriface.code)).json().photos.face;

      const deleted = await deletePhotos('document', process.code, svc.orgA.privateKey);
      expect(deleted.statusCode).toBe(200);
      expect(deleted.json()).toEqual({ code: process.code, deleted: 3 });
      expect(await stored(processKeys)).toBe(0);
      expect((await svc.app.inject({ method: 'GET', url: localPath(photoUrl) })).json()).toEqual({ message: 'FILE_NOT_FOUND' });
      expect((await readDocument(process.code)).json()).toMatchObject({ photosDeletedAt: svc.clock.now().toISOString() });
      expect((await roadmap(process.code)).at(-1)).toMatchObject({ action: 'PHOTOS_DELETED', platform: 'API', message: 'on request' });
      expect((await webhooks('document.photos_deleted'))[0]?.data).toMatchObject({ code: process.code, deleted: 3, reason: 'on request' });

      expect((await deletePhotos('veriface', veriface.code, svc.orgA.privateKey)).json()).toEqual({ code: veriface.code, deleted: 2 });
      expect(await stored(verifaceKeys)).toBe(0);
      expect((await svc.app.inject({ method: 'GET', url: localPath(faceUrl) })).statusCode).toBe(404);
      const read = (await readVeriface(veriface.code)).json();
      expect(read).toMatchObject({ photos: {}, photosDeletedAt: svc.clock.now().toISOString() });
      expect(read.stages.at(-1)).toMatchObject({ stage: 'photos_deleted', detail: { deleted: 2, reason: 'on request' } });
      expect((await webhooks('veriface.photos_deleted'))[0]?.data).toMatchObject({ code: veriface.code, reason: 'on request' });

      expect((await deletePhotos('document', process.code, svc.orgA.privateKey)).json()).toEqual({ code: process.code, deleted: 0 });
      expect((await deletePhotos('veriface', veriface.code, svc.orgA.privateKey)).json()).toEqual({ code: veriface.code, deleted: 0 });
    });

    it('refused with PHOTOS_IN_USE while the process is in progress; nothing is deleted', async () => {
      const process = await photographedProcess(svc, svc.orgA);
      const veriface = await photographedVeriface(svc, svc.orgA);
      for (const [kind, code] of [
        ['document', process.code],
        ['veriface', veriface.code],
      ] as const) {
        const res = await deletePhotos(kind, code, svc.orgA.privateKey);
        expect(res.statusCode).toBe(400);
        expect(res.json().message).toMatch(/^PHOTOS_IN_USE: /);
        expect(await stored(await photoKeys(code))).toBeGreaterThan(0);
      }
    });

    it("organization B cannot delete or read A's photos: the same answer as an unknown code", async () => {
      const process = await photographedProcess(svc, svc.orgA, { end: 'FINISH' });
      const veriface = await photographedVeriface(svc, svc.orgA, { finish: true });
      expect((await deletePhotos('document', process.code, svc.orgB.privateKey)).json()).toEqual({ message: 'DOCUMENT_NOT_FOUND' });
      expect((await deletePhotos('document', 'ZZZZZZZZZZ', svc.orgB.privateKey)).json()).toEqual({ message: 'DOCUMENT_NOT_FOUND' });
      expect((await deletePhotos('veriface', veriface.code, svc.orgB.privateKey)).json()).toEqual({ message: 'VERIFACE_NOT_FOUND' });
      expect((await readDocument(process.code, svc.orgB.privateKey)).json()).toEqual({ message: 'DOCUMENT_NOT_FOUND' });
      expect((await readVeriface(veriface.code, svc.orgB.privateKey)).json()).toEqual({ message: 'VERIFACE_NOT_FOUND' });
      expect((await deletePhotos('document', process.code, svc.orgA.publicKey)).statusCode).toBe(401);
      expect(await stored(await photoKeys(process.code))).toBe(3);
      expect(await stored(await photoKeys(veriface.code))).toBe(2);
      expect(await webhooks('document.photos_deleted')).toEqual([]);
    });
  });
});
