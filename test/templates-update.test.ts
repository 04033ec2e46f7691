import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleTemplate } from './support/fixtures.js';
import { call, dialects, localPath, startTestService, type TestService } from './support/service.js';

describe.each(dialects)('PUT /template (%s)', (dialect) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService(dialect);
  });
  afterAll(async () => svc.close());

  const key = () => svc.orgA.privateKey;
  const put = (body: Record<string, unknown>, k = key()) => call(svc.app, 'PUT', '/template', { key: k, body });
  const get = async (id: string, k = key()) => (await call(svc.app, 'GET', `/template?id=${id}`, { key: k })).json();

  async function create(overrides: Record<string, unknown> = {}, k = key()): Promise<string> {
    const res = await call(svc.app, 'POST', '/template', { key: k, body: sampleTemplate(overrides) });
    expect(res.statusCode).toBe(200);
    return res.json().id;
  }

  describe('rule 1: when description is omitted, the template keeps its previous description', () => {
    it('keeps the description and every other omitted field', async () => {
      const id = await create();
      const before = await get(id);
      const res = await put({ id, name: 'Renamed' });
      expect(res.statusCode).toBe(200);
      const after = await get(id);
      expect(after.name).toBe('Renamed');
      expect(after.description).toBe('Sale of goods between two parties');
      expect(after.config).toEqual(before.config);
      expect(after.sign).toEqual(before.sign);
      expect(after.signatureProfile).toEqual(before.signatureProfile);
      expect(after.preBuild).toBe(false);
    });

    it('replaces the description when new text is sent', async () => {
      const id = await create();
      await put({ id, description: 'New text' });
      expect((await get(id)).description).toBe('New text');
    });
  });

  describe('rule 2: a description over 500 characters, empty or null is rejected with 400', () => {
    const cases: [string, unknown, string][] = [
      ['over 500 characters', 'x'.repeat(501), '"description" length must be less than or equal to 500 characters long'],
      ['an empty string', '', '"description" is not allowed to be empty'],
      ['null', null, '"description" must be a string'],
    ];
    for (const [label, description, message] of cases) {
      it(`${label}: 400 and nothing changes`, async () => {
        const id = await create();
        const before = await get(id);
        const res = await put({ id, description, name: 'Should not apply' });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ message });
        const after = await get(id);
        expect(after.description).toBe(before.description);
        expect(after.name).toBe(before.name);
        expect(after.build).toBe(before.build);
      });
    }

    it('exactly 500 characters is accepted', async () => {
      const id = await create();
      expect((await put({ id, description: 'y'.repeat(500) })).statusCode).toBe(200);
      expect((await get(id)).description).toHaveLength(500);
    });

    it('a description cannot be removed once set', async () => {
      const id = await create();
      for (const description of ['', null]) expect((await put({ id, description })).statusCode).toBe(400);
      expect((await get(id)).description).toBe('Sale of goods between two parties');
    });
  });

  describe('rule 3: when only config, sign or signatureProfile change, the previous HTML files are kept', () => {
    it('answers {id, urls: {mask, complete}} and keeps the uploaded HTML when the upload is skipped', async () => {
      const id = await create();
      const created = await get(id);
      expect(created.build).toBe(1);
      const first = await call(svc.app, 'PUT', '/template', { key: key(), body: { id, sign: ['buyer_name'] } });
      const { urls } = first.json();
      for (const [url, html] of [
        [urls.mask, '<p>mask</p>'],
        [urls.complete, '<p>complete</p>'],
      ] as const) {
        const up = await svc.app.inject({ method: 'PUT', url: localPath(url), headers: { 'content-type': 'text/html' }, payload: html });
        expect(up.statusCode).toBe(200);
      }

      const res = await put({
        id,
        config: [...(sampleTemplate().config as object[]), { name: 'notes', type: 'text', description: 'Notes' }],
        sign: ['buyer_name', 'notes'],
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().id).toBe(id);
      expect(Object.keys(res.json().urls).sort()).toEqual(['complete', 'mask']);
      expect(res.json().urls.mask).toMatch(/^http:\/\/service\.test\/files\/templates\/[0-9a-f]{24}\/mask\.html\?/);

      const after = await get(id);
      expect(after.sign).toEqual(['buyer_name', 'notes']);
      expect(after.build).toBe(3);
      const mask = await svc.app.inject({ method: 'GET', url: localPath(after.urls.mask) });
      const complete = await svc.app.inject({ method: 'GET', url: localPath(after.urls.complete) });
      expect(mask.body).toBe('<p>mask</p>');
      expect(complete.body).toBe('<p>complete</p>');
    });

    it('config, sign and signatureProfile given are replaced wholesale', async () => {
      const id = await create();
      const res = await put({
        id,
        config: [{ name: 'who', type: 'name', description: 'Who?' }],
        sign: ['who'],
        signatureProfile: [{ type: 'only', name: 'who' }],
      });
      expect(res.statusCode).toBe(200);
      const after = await get(id);
      expect(after.config).toEqual([{ name: 'who', type: 'name', description: 'Who?' }]);
      expect(after.signatureProfile).toEqual([{ type: 'only', name: 'who' }]);
    });
  });

  describe('a changed part is checked against the stored rest', () => {
    it('sign naming a question that the stored config lacks is 400', async () => {
      const id = await create();
      const res = await put({ id, sign: ['missing'] });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/^"sign\[0\]" must be one of \[buyer_name, /);
    });

    it('a config that drops a question still named by the stored sign is 400, nothing changes', async () => {
      const id = await create();
      const res = await put({ id, config: [{ name: 'buyer_name', type: 'name', description: 'Buyer' }] });
      expect(res.statusCode).toBe(400);
      expect((await get(id)).config).toHaveLength(8);
    });
  });

  describe('other errors', () => {
    it('400 "id" is required', async () => {
      const res = await put({ name: 'x' });
      expect(res.json()).toEqual({ message: '"id" is required' });
    });

    it('400 TEMPLATE_NOT_FOUND for an unknown id', async () => {
      const res = await put({ id: '64823dc5ce28a265e02d68f3', name: 'x' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: 'TEMPLATE_NOT_FOUND' });
    });

    it("400 TEMPLATE_NOT_FOUND for another organization's template, which is not changed", async () => {
      const theirs = await create({}, svc.orgB.privateKey);
      const res = await put({ id: theirs, name: 'Hijacked' });
      expect(res.json()).toEqual({ message: 'TEMPLATE_NOT_FOUND' });
      expect((await get(theirs, svc.orgB.privateKey)).name).toBe('Purchase agreement');
    });

    it('the server-managed build cannot be sent', async () => {
      const id = await create();
      const res = await put({ id, build: 7 });
      expect(res.json()).toEqual({ message: '"build" is not allowed' });
    });

    it('a body that is not JSON is a 400 with a message', async () => {
      const res = await svc.app.inject({
        method: 'PUT',
        url: '/v1.5/ext/template',
        headers: { authorization: key(), 'content-type': 'application/json' },
        payload: '{"id": ',
      });
      expect(res.statusCode).toBe(400);
      expect(typeof res.json().message).toBe('string');
    });
  });
});
