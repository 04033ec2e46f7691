import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleTemplate } from './support/fixtures.js';
import { call, dialects, startTestService, type TestService } from './support/service.js';

describe.each(dialects)('reference links (%s)', (dialect) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService(dialect);
  });
  afterAll(async () => svc.close());

  async function template(key = svc.orgA.privateKey): Promise<string> {
    return (await call(svc.app, 'POST', '/template', { key, body: sampleTemplate() })).json().id;
  }

  describe('POST /template/reference creates a reusable public link to a template', () => {
    it('answers {id, template, name, url, created_at} with an unguessable public URL', async () => {
      const id = await template();
      const res = await call(svc.app, 'POST', '/template/reference', { key: svc.orgA.privateKey, body: { template: id, name: 'Website' } });
      expect(res.statusCode).toBe(200);
      const link = res.json();
      expect(link).toMatchObject({ template: id, name: 'Website' });
      expect(link.id).toMatch(/^[0-9a-f]{24}$/);
      expect(link.url).toMatch(/^http:\/\/service\.test\/r\/[A-Za-z0-9_-]{32}$/);
    });

    it('the name is optional', async () => {
      const res = await call(svc.app, 'POST', '/template/reference', { key: svc.orgA.privateKey, body: { template: await template() } });
      expect(res.statusCode).toBe(200);
      expect(res.json()).not.toHaveProperty('name');
    });

    it('400 in Joi wording for a missing or malformed template id', async () => {
      const missing = await call(svc.app, 'POST', '/template/reference', { key: svc.orgA.privateKey, body: {} });
      expect(missing.json()).toEqual({ message: '"template" is required' });
      const bad = await call(svc.app, 'POST', '/template/reference', { key: svc.orgA.privateKey, body: { template: 'abc' } });
      expect(bad.json()).toEqual({ message: '"template" length must be 24 characters long' });
    });

    it("400 TEMPLATE_NOT_FOUND for another organization's template", async () => {
      const theirs = await template(svc.orgB.privateKey);
      const res = await call(svc.app, 'POST', '/template/reference', { key: svc.orgA.privateKey, body: { template: theirs } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: 'TEMPLATE_NOT_FOUND' });
    });

    it('the public key cannot create links', async () => {
      const res = await call(svc.app, 'POST', '/template/reference', { key: svc.orgA.publicKey, body: { template: await template() } });
      expect(res.statusCode).toBe(401);
    });
  });

  describe('GET /template/reference?template= lists the links of a template, newest first', () => {
    it('lists only that template and organization', async () => {
      const id = await template();
      const other = await template();
      const urls: string[] = [];
      for (const name of ['one', 'two']) {
        const res = await call(svc.app, 'POST', '/template/reference', { key: svc.orgA.privateKey, body: { template: id, name } });
        urls.unshift(res.json().url);
        svc.clock.advance(1);
      }
      await call(svc.app, 'POST', '/template/reference', { key: svc.orgA.privateKey, body: { template: other } });
      const res = await call(svc.app, 'GET', `/template/reference?template=${id}`, { key: svc.orgA.privateKey });
      expect(res.statusCode).toBe(200);
      expect(res.json().data.map((l: { url: string }) => l.url)).toEqual(urls);

      const foreign = await call(svc.app, 'GET', `/template/reference?template=${id}`, { key: svc.orgB.privateKey });
      expect(foreign.json()).toEqual({ message: 'TEMPLATE_NOT_FOUND' });
    });
  });

  describe('DELETE /template/reference?id= removes one link', () => {
    it('removes it, and another organization cannot', async () => {
      const id = await template();
      const link = (await call(svc.app, 'POST', '/template/reference', { key: svc.orgA.privateKey, body: { template: id } })).json();
      const foreign = await call(svc.app, 'DELETE', `/template/reference?id=${link.id}`, { key: svc.orgB.privateKey });
      expect(foreign.json()).toEqual({ message: 'REFERENCE_NOT_FOUND' });
      const res = await call(svc.app, 'DELETE', `/template/reference?id=${link.id}`, { key: svc.orgA.privateKey });
      expect(res.json()).toEqual({ id: link.id, deleted: true });
      expect((await call(svc.app, 'GET', `/template/reference?template=${id}`, { key: svc.orgA.privateKey })).json().data).toEqual([]);
      expect((await call(svc.app, 'DELETE', `/template?id=${id}`, { key: svc.orgA.privateKey })).json().references).toBe(0);
    });
  });
});
