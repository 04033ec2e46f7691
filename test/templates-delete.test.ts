import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newObjectId } from '../src/ids.js';
import { sampleTemplate } from './support/fixtures.js';
import { call, dialects, localPath, startTestService, type TestOrganization, type TestService } from './support/service.js';
import { ANSWERS, createProcess, endProcess } from './support/signing.js';

describe.each(dialects)('DELETE /template (%s)', (dialect) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService(dialect);
  });
  afterAll(async () => svc.close());

  async function createTemplate(key = svc.orgA.privateKey, html = true): Promise<string> {
    const res = await call(svc.app, 'POST', '/template', { key, body: sampleTemplate() });
    expect(res.statusCode).toBe(200);
    const { id, urls } = res.json();
    if (html) {
      for (const url of [urls.mask, urls.complete]) {
        const up = await svc.app.inject({ method: 'PUT', url: localPath(url), headers: { 'content-type': 'text/html' }, payload: '<p>x</p>' });
        expect(up.statusCode).toBe(200);
      }
    }
    return id;
  }

  const remove = (id: string, key = svc.orgA.privateKey) => call(svc.app, 'DELETE', `/template?id=${id}`, { key });
  const processFrom = (templateId: string, org: TestOrganization = svc.orgA, extra: Record<string, unknown> = {}) =>
    createProcess(svc, org, '/document/save', { email: org.email, name: 'Contract', document: templateId, data: ANSWERS, ...extra });

  describe('errors of the contract table', () => {
    it('400 "id" is required when id is missing', async () => {
      const res = await call(svc.app, 'DELETE', '/template', { key: svc.orgA.privateKey });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: '"id" is required' });
    });

    it('400 "id" length must be 24 characters long', async () => {
      for (const id of ['64823dc5ce28a265e02d68f', '64823dc5ce28a265e02d68f3a']) {
        const res = await remove(id);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ message: '"id" length must be 24 characters long' });
      }
    });

    it('400 "id" must only contain hexadecimal characters', async () => {
      const res = await remove('64823dc5ce28a265e02d68zz');
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: '"id" must only contain hexadecimal characters' });
    });

    it('400 TEMPLATE_NOT_FOUND when the id matches no template of the organization', async () => {
      const res = await remove('64823dc5ce28a265e02d68f3');
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: 'TEMPLATE_NOT_FOUND' });
    });

    it("400 TEMPLATE_NOT_FOUND for another organization's template, which stays whole", async () => {
      const id = await createTemplate(svc.orgB.privateKey);
      const res = await remove(id, svc.orgA.privateKey);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: 'TEMPLATE_NOT_FOUND' });
      expect((await call(svc.app, 'GET', `/template?id=${id}`, { key: svc.orgB.privateKey })).statusCode).toBe(200);
    });

    it('401 with invalid or missing authentication', async () => {
      const id = await createTemplate();
      expect((await call(svc.app, 'DELETE', `/template?id=${id}`)).statusCode).toBe(401);
      expect((await remove(id, 'prk_ffffffffffffffffffffffffffffffff')).statusCode).toBe(401);
      expect((await remove(id, svc.orgA.publicKey)).statusCode).toBe(401);
      expect((await call(svc.app, 'GET', `/template?id=${id}`, { key: svc.orgA.privateKey })).statusCode).toBe(200);
    });
  });

  describe('a process created from the template still in signature blocks it: TEMPLATE_IN_USE', () => {
    it('400 TEMPLATE_IN_USE while in signature, and the template is untouched', async () => {
      const id = await createTemplate();
      await processFrom(id);
      const res = await remove(id);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: 'TEMPLATE_IN_USE' });
      const detail = await call(svc.app, 'GET', `/template?id=${id}`, { key: svc.orgA.privateKey });
      expect(detail.statusCode).toBe(200);
      const mask = await svc.app.inject({ method: 'GET', url: localPath(detail.json().urls.mask) });
      expect(mask.body).toBe('<p>x</p>');
    });

    for (const to of ['FINISH', 'EXPIRED', 'REJECTED', 'CANCELLED'] as const) {
      it(`succeeds once every process is finished, expired, rejected or cancelled (${to})`, async () => {
        const id = await createTemplate();
        const first = await processFrom(id);
        const second = await processFrom(id, svc.orgA, to === 'EXPIRED' ? { expiredDate: new Date(svc.clock.now().getTime() + 4 * 86_400_000) } : {});
        await endProcess(svc, svc.orgA, first, 'FINISH');
        expect((await remove(id)).json()).toEqual({ message: 'TEMPLATE_IN_USE' });
        await endProcess(svc, svc.orgA, second, to);
        const res = await remove(id);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ id, deleted: true, references: 0 });
      });
    }

    it("processes of another organization's template never block this one", async () => {
      const mine = await createTemplate();
      const theirs = await createTemplate(svc.orgB.privateKey);
      await processFrom(theirs, svc.orgB);
      expect((await remove(mine)).statusCode).toBe(200);
      expect((await remove(theirs, svc.orgB.privateKey)).json()).toEqual({ message: 'TEMPLATE_IN_USE' });
    });
  });

  describe('success erases configuration, both HTML files and every reference link, with no way back', () => {
    it('answers {id, deleted, references} counting the reference links', async () => {
      const id = await createTemplate();
      for (const name of ['Web', 'Kiosk', 'Partner']) {
        const ref = await call(svc.app, 'POST', '/template/reference', { key: svc.orgA.privateKey, body: { template: id, name } });
        expect(ref.statusCode).toBe(200);
      }
      const res = await remove(id);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ id, deleted: true, references: 3 });
      const refs = await svc.deps.db.selectFrom('reference_links').selectAll().where('template_id', '=', id).execute();
      expect(refs).toEqual([]);
    });

    it('answers references 0 when there were none', async () => {
      const id = await createTemplate(svc.orgA.privateKey, false);
      expect((await remove(id)).json()).toEqual({ id, deleted: true, references: 0 });
    });

    it('the id is gone for every later call', async () => {
      const id = await createTemplate();
      const before = await call(svc.app, 'GET', `/template?id=${id}`, { key: svc.orgA.privateKey });
      const { mask } = before.json().urls;
      expect((await remove(id)).statusCode).toBe(200);

      const key = svc.orgA.privateKey;
      expect((await call(svc.app, 'GET', `/template?id=${id}`, { key })).statusCode).toBe(404);
      expect((await call(svc.app, 'GET', '/template', { key })).json().data.map((t: { id: string }) => t.id)).not.toContain(id);
      const put = await call(svc.app, 'PUT', '/template', { key, body: { id, name: 'Again' } });
      expect(put.json()).toEqual({ message: 'TEMPLATE_NOT_FOUND' });
      expect((await remove(id)).json()).toEqual({ message: 'TEMPLATE_NOT_FOUND' });
      const ref = await call(svc.app, 'POST', '/template/reference', { key, body: { template: id } });
      expect(ref.json()).toEqual({ message: 'TEMPLATE_NOT_FOUND' });
      const process = await call(svc.app, 'POST', '/document/save', { key, body: { email: svc.orgA.email, name: 'x', document: id, data: ANSWERS } });
      expect(process.json()).toEqual({ message: 'TEMPLATE_NOT_FOUND' });
      expect((await svc.app.inject({ method: 'GET', url: localPath(mask) })).statusCode).toBe(404);
    });

    it('both HTML files are erased from the store', async () => {
      const id = await createTemplate();
      expect(await svc.deps.blobs.exists(`templates/${id}/mask.html`)).toBe(true);
      await remove(id);
      expect(await svc.deps.blobs.exists(`templates/${id}/mask.html`)).toBe(false);
      expect(await svc.deps.blobs.exists(`templates/${id}/complete.html`)).toBe(false);
      expect(fs.existsSync(path.join(svc.config.dataDir, 'files', 'templates', id))).toBe(false);
    });

    it('an upload URL issued before the delete cannot bring the file back', async () => {
      const res = await call(svc.app, 'POST', '/template', { key: svc.orgA.privateKey, body: sampleTemplate() });
      const { id, urls } = res.json();
      await remove(id);
      const up = await svc.app.inject({ method: 'PUT', url: localPath(urls.mask), headers: { 'content-type': 'text/html' }, payload: '<p>late</p>' });
      expect(up.statusCode).toBe(404);
      expect(up.json()).toEqual({ message: 'TEMPLATE_NOT_FOUND' });
      expect(await svc.deps.blobs.exists(`templates/${id}/mask.html`)).toBe(false);
    });

    it('creating the same template again yields a new id', async () => {
      const id = await createTemplate();
      await remove(id);
      const again = await createTemplate();
      expect(again).not.toBe(id);
    });
  });
  describe('the file store is asked to erase only files that may be stored', () => {
    /** The keys the file store was asked to delete while `run` ran. */
    async function storeDeletes(run: () => Promise<unknown>): Promise<string[][]> {
      const blobs = svc.deps.blobs;
      const erase = blobs.delete;
      const asked: string[][] = [];
      blobs.delete = async (keys) => {
        asked.push(keys);
        return erase.call(blobs, keys);
      };
      try {
        await run();
      } finally {
        Reflect.deleteProperty(blobs, 'delete');
      }
      return asked;
    }

    it('a template whose HTML never arrived is deleted without asking the file store', async () => {
      const id = await createTemplate(svc.orgA.privateKey, false);
      const ofB = await createTemplate(svc.orgB.privateKey);
      expect(await storeDeletes(async () => expect((await remove(id)).json()).toEqual({ id, deleted: true, references: 0 }))).toEqual([]);
      expect(await svc.deps.blobs.exists(`templates/${ofB}/mask.html`)).toBe(true);
    });

    it('one file uploaded is enough for both to be erased', async () => {
      const res = await call(svc.app, 'POST', '/template', { key: svc.orgA.privateKey, body: sampleTemplate() });
      const { id, urls } = res.json();
      const up = await svc.app.inject({ method: 'PUT', url: localPath(urls.complete), headers: { 'content-type': 'text/html' }, payload: '<p>x</p>' });
      expect(up.statusCode).toBe(200);
      expect(await storeDeletes(() => remove(id))).toEqual([[`templates/${id}/mask.html`, `templates/${id}/complete.html`]]);
      expect(await svc.deps.blobs.exists(`templates/${id}/complete.html`)).toBe(false);
      expect(fs.existsSync(path.join(svc.config.dataDir, 'files', 'templates', id))).toBe(false);
    });

    it('a delete between an upload writing its bytes and recording them: the upload removes them and answers 404 TEMPLATE_NOT_FOUND', async () => {
      const res = await call(svc.app, 'POST', '/template', { key: svc.orgA.privateKey, body: sampleTemplate() });
      const { id, urls } = res.json();
      const blobs = svc.deps.blobs;
      const write = blobs.write;
      blobs.write = async (key, body, options) => {
        const written = await write.call(blobs, key, body, options);
        expect((await remove(id)).json()).toEqual({ id, deleted: true, references: 0 });
        return written;
      };
      let up: Awaited<ReturnType<typeof svc.app.inject>> | undefined;
      try {
        up = await svc.app.inject({ method: 'PUT', url: localPath(urls.mask), headers: { 'content-type': 'text/html' }, payload: '<p>x</p>' });
      } finally {
        Reflect.deleteProperty(blobs, 'write');
      }
      expect(up.statusCode).toBe(404);
      expect(up.json()).toEqual({ message: 'TEMPLATE_NOT_FOUND' });
      expect(await blobs.exists(`templates/${id}/mask.html`)).toBe(false);
      expect(fs.existsSync(path.join(svc.config.dataDir, 'files', 'templates', id))).toBe(false);
    });

    it('a template stored without the record (made before it existed) is taken to have files', async () => {
      const id = newObjectId(svc.clock.now());
      const now = svc.clock.now().toISOString();
      await svc.deps.db
        .insertInto('templates')
        .values({
          id,
          organization_id: svc.orgA.id,
          name: 'Older',
          description: null,
          body: '{}',
          build: 1,
          status: 'active',
          created_at: now,
          updated_at: now,
        })
        .execute();
      expect(await storeDeletes(() => remove(id))).toEqual([[`templates/${id}/mask.html`, `templates/${id}/complete.html`]]);
    });
  });
});
