import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newObjectId } from '../src/ids.js';
import { DOWNLOAD_URLS_REUSED_MS } from '../src/templates/read-templates.js';
import { TEMPLATE_URL_LIFETIME_SECONDS } from '../src/templates/template-files.js';
import { sampleTemplate } from './support/fixtures.js';
import { call, dialects, localPath, startTestService, type TestService } from './support/service.js';

describe.each(dialects)('POST /template and GET /template (%s)', (dialect) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService(dialect);
  });
  afterAll(async () => svc.close());

  const key = () => svc.orgA.privateKey;

  describe('POST /template creates a template and answers {id, urls: {mask, complete}}', () => {
    it('the id is a 24-hex ObjectId and both upload URLs are outside /v1.5/ext', async () => {
      const res = await call(svc.app, 'POST', '/template', { key: key(), body: sampleTemplate() });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual(['id', 'urls']);
      expect(body.id).toMatch(/^[0-9a-f]{24}$/);
      expect(body.urls.mask).toMatch(new RegExp(`^http://service\\.test/files/templates/${body.id}/mask\\.html\\?`));
      expect(body.urls.complete).toMatch(new RegExp(`^http://service\\.test/files/templates/${body.id}/complete\\.html\\?`));
    });

    it('name, config, signatureProfile and sign are required; description and preBuild are optional', async () => {
      for (const field of ['name', 'config', 'signatureProfile', 'sign']) {
        const body = sampleTemplate();
        delete body[field];
        const res = await call(svc.app, 'POST', '/template', { key: key(), body });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ message: `"${field}" is required` });
      }
      const body = sampleTemplate();
      delete body.description;
      delete body.preBuild;
      const res = await call(svc.app, 'POST', '/template', { key: key(), body });
      expect(res.statusCode).toBe(200);
      const detail = (await call(svc.app, 'GET', `/template?id=${res.json().id}`, { key: key() })).json();
      expect(detail).not.toHaveProperty('description');
      expect(detail.preBuild).toBe(false);
    });

    it('a description over 500 characters is 400 and nothing is created', async () => {
      const res = await call(svc.app, 'POST', '/template', { key: key(), body: sampleTemplate({ description: 'd'.repeat(501) }) });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: '"description" length must be less than or equal to 500 characters long' });
      const list = await call(svc.app, 'GET', '/template?limit=500', { key: key() });
      expect(list.json().data.some((t: { description?: string }) => t.description?.length === 501)).toBe(false);
    });
  });

  describe('GET /template?id= returns the configuration and download URLs of both HTML files', () => {
    it('returns every stored field', async () => {
      const created = await call(svc.app, 'POST', '/template', { key: key(), body: sampleTemplate({ preBuild: true }) });
      const res = await call(svc.app, 'GET', `/template?id=${created.json().id}`, { key: svc.orgA.publicKey });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      const sample = sampleTemplate({ preBuild: true });
      expect(body).toMatchObject({
        id: created.json().id,
        name: sample.name,
        description: sample.description,
        status: 'active',
        build: 1,
        config: sample.config,
        sign: sample.sign,
        signatureProfile: sample.signatureProfile,
        preBuild: true,
      });
      expect(body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(body.urls.mask).toContain(`/files/templates/${body.id}/mask.html?`);
      expect(body.urls.complete).toContain(`/files/templates/${body.id}/complete.html?`);
    });

    it('the answer splices the stored body into its text: valid JSON with every key once, the same on every read and after a change', async () => {
      const created = await call(svc.app, 'POST', '/template', { key: key(), body: sampleTemplate({ description: 'Línea "uno"\n\u2028 ✓' }) });
      const id = created.json().id;
      const reads = [await call(svc.app, 'GET', `/template?id=${id}`, { key: key() }), await call(svc.app, 'GET', `/template?id=${id}`, { key: key() })];
      await call(svc.app, 'PUT', '/template', { key: key(), body: { id, name: 'Renamed', preBuild: true } });
      reads.push(await call(svc.app, 'GET', `/template?id=${id}`, { key: key() }));
      for (const res of reads) {
        // A key written twice would be dropped by the parse, so the text written again would be shorter.
        expect(JSON.stringify(JSON.parse(res.body)).length).toBe(res.body.length);
        expect(res.json().urls.complete).toContain(`/files/templates/${id}/complete.html?`);
      }
      expect(reads[0]?.json()).toEqual({ ...reads[1]?.json(), urls: reads[0]?.json().urls });
      expect(reads[0]?.json().description).toBe('Línea "uno"\n\u2028 ✓');
      expect(reads[2]?.json()).toMatchObject({ id, name: 'Renamed', build: 2, preBuild: true, description: 'Línea "uno"\n\u2028 ✓' });
    });

    it('download URLs signed for one read are answered again for at most a second, each with at least its lifetime less that second left, and open their files', async () => {
      const created = await call(svc.app, 'POST', '/template', { key: key(), body: sampleTemplate() });
      const id = created.json().id;
      const html = '<html><body>Contrato</body></html>';
      const uploaded = await svc.app.inject({
        method: 'PUT',
        url: localPath(created.json().urls.complete),
        headers: { 'content-type': 'text/html' },
        payload: html,
      });
      expect(uploaded.statusCode).toBe(200);
      const expiresOf = (url: string) => Number(new URL(url).searchParams.get('expires'));
      const lifetime = TEMPLATE_URL_LIFETIME_SECONDS * 1000;
      const answered: string[] = [];
      for (const step of [0, DOWNLOAD_URLS_REUSED_MS / 2, DOWNLOAD_URLS_REUSED_MS / 2, 1]) {
        svc.clock.advance(step);
        const res = await call(svc.app, 'GET', `/template?id=${id}`, { key: key() });
        const { mask, complete } = res.json().urls;
        const left = expiresOf(complete) - svc.clock.now().getTime();
        expect(left).toBeGreaterThan(lifetime - DOWNLOAD_URLS_REUSED_MS);
        expect(left).toBeLessThanOrEqual(lifetime);
        expect(expiresOf(mask)).toBe(expiresOf(complete));
        const download = await svc.app.inject({ method: 'GET', url: localPath(complete) });
        expect(download.statusCode).toBe(200);
        expect(download.body).toBe(html);
        answered.push(complete);
      }
      // On SQLite the template cache keeps the row, and the URLs beside it: half a second later they
      // are answered again; a second after they were signed, the next read signs its own.
      if (dialect === 'sqlite') expect(answered[1]).toBe(answered[0]);
      expect(answered[2]).not.toBe(answered[0]);
    });

    it("another organization reading the id while its URLs are kept is TEMPLATE_NOT_FOUND, and its own template's URLs are its own", async () => {
      const ours = (await call(svc.app, 'POST', '/template', { key: key(), body: sampleTemplate() })).json().id;
      const theirs = (await call(svc.app, 'POST', '/template', { key: svc.orgB.privateKey, body: sampleTemplate() })).json().id;
      expect((await call(svc.app, 'GET', `/template?id=${ours}`, { key: key() })).statusCode).toBe(200);
      const refused = await call(svc.app, 'GET', `/template?id=${ours}`, { key: svc.orgB.privateKey });
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toEqual({ message: 'TEMPLATE_NOT_FOUND' });
      const own = (await call(svc.app, 'GET', `/template?id=${theirs}`, { key: svc.orgB.privateKey })).json();
      expect(own.urls.mask).toContain(`/files/templates/${theirs}/mask.html?`);
      expect(own.urls.complete).not.toContain(ours);
    });

    it("404 TEMPLATE_NOT_FOUND for an unknown id or another organization's", async () => {
      const theirs = await call(svc.app, 'POST', '/template', { key: svc.orgB.privateKey, body: sampleTemplate() });
      for (const id of [newObjectId(new Date()), theirs.json().id]) {
        const res = await call(svc.app, 'GET', `/template?id=${id}`, { key: key() });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ message: 'TEMPLATE_NOT_FOUND' });
      }
    });

    it('a malformed id is 400 in Joi wording', async () => {
      const res = await call(svc.app, 'GET', '/template?id=xyz', { key: key() });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/^"id" /);
    });
  });
});

describe.each(dialects)('GET /template lists the templates, newest first, page by page (%s)', (dialect) => {
  let svc: TestService;
  const idsA: string[] = [];
  beforeAll(async () => {
    svc = await startTestService(dialect);
    for (let i = 0; i < 25; i++) {
      const res = await call(svc.app, 'POST', '/template', {
        key: svc.orgA.privateKey,
        body: sampleTemplate({ name: `A${i}`, ...(i % 2 ? {} : { description: undefined }) }),
      });
      idsA.unshift(res.json().id);
      // Same-millisecond creations are ordered by id; moving the clock makes created_at differ too.
      if (i % 3 === 0) svc.clock.advance(1);
    }
    await call(svc.app, 'POST', '/template', { key: svc.orgB.privateKey, body: sampleTemplate({ name: 'B0' }) });
  });
  afterAll(async () => svc.close());

  it('a plain call answers {data, next} without HTML, newest first', async () => {
    const res = await call(svc.app, 'GET', '/template', { key: svc.orgA.privateKey });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.next).toBeNull();
    expect(body.data.map((t: { id: string }) => t.id)).toEqual(idsA);
    for (const t of body.data) {
      expect(Object.keys(t).sort()).toEqual(expect.arrayContaining(['created_at', 'id', 'name', 'status', 'updated_at']));
      expect(t).not.toHaveProperty('config');
      expect(t).not.toHaveProperty('urls');
    }
    expect(body.data.find((t: { name: string }) => t.name === 'A0')).not.toHaveProperty('description');
  });

  it('limit and cursor walk every template exactly once', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: Record<string, string> = { limit: '7', ...(cursor ? { cursor } : {}) };
      const res = await call(svc.app, 'GET', '/template', { key: svc.orgA.privateKey, query });
      expect(res.statusCode).toBe(200);
      const body: { data: { id: string }[]; next: string | null } = res.json();
      expect(body.data.length).toBeLessThanOrEqual(7);
      seen.push(...body.data.map((t) => t.id));
      cursor = body.next;
      pages++;
    } while (cursor);
    expect(pages).toBe(4);
    expect(seen).toEqual(idsA);
  });

  it('never lists the other organization', async () => {
    const res = await call(svc.app, 'GET', '/template', { key: svc.orgB.privateKey });
    expect(res.json().data.map((t: { name: string }) => t.name)).toEqual(['B0']);
  });

  it('bad paging parameters are 400 with a message', async () => {
    for (const [query, message] of [
      [{ limit: '0' }, '"limit" must be greater than or equal to 1'],
      [{ limit: '501' }, '"limit" must be less than or equal to 500'],
      [{ cursor: 'not-a-cursor' }, '"cursor" is invalid'],
      [{ color: 'red' }, '"color" is not allowed'],
    ] as const) {
      const res = await call(svc.app, 'GET', '/template', { key: svc.orgA.privateKey, query: { ...query } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message });
    }
  });
});
