import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentFileKey, isDocumentPdfKey } from '../src/documents/document-files.js';
import { sampleTemplate } from './support/fixtures.js';
import { call, localPath, startTestService, type TestService } from './support/service.js';

const FIVE_MINUTES = 5 * 60 * 1000;

describe('upload and download URLs of template HTML', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService('sqlite', { UPLOAD_MAX_BYTES: '4096' });
  });
  afterAll(async () => svc.close());

  async function newTemplate(key = svc.orgA.privateKey): Promise<{ id: string; urls: { mask: string; complete: string } }> {
    const res = await call(svc.app, 'POST', '/template', { key, body: sampleTemplate() });
    expect(res.statusCode).toBe(200);
    return res.json();
  }

  const upload = (url: string, payload: string | Buffer, contentType: string | null = 'text/html') =>
    svc.app.inject({ method: 'PUT', url: localPath(url), headers: contentType ? { 'content-type': contentType } : {}, payload });

  async function download(id: string, kind: 'mask' | 'complete'): Promise<Buffer | undefined> {
    const detail = await call(svc.app, 'GET', `/template?id=${id}`, { key: svc.orgA.privateKey });
    const res = await svc.app.inject({ method: 'GET', url: localPath(detail.json().urls[kind]) });
    return res.statusCode === 200 ? res.rawPayload : undefined;
  }

  describe('PUT with Content-Type text/html and the raw bytes stores the Mask or the Complete file', () => {
    it('urls.mask receives the Mask, urls.complete the Complete; they download back byte for byte', async () => {
      const { id, urls } = await newTemplate();
      const mask = Buffer.from('<html><body>Señor <span name="buyer_name">…</span> — ✓</body></html>', 'utf8');
      const complete = Buffer.concat([Buffer.from('<html>'), crypto.randomBytes(2000), Buffer.from('</html>')]);
      expect((await upload(urls.mask, mask)).json()).toEqual({ message: 'OK', size: mask.length });
      expect((await upload(urls.complete, complete, 'text/html; charset=utf-8')).statusCode).toBe(200);
      expect((await download(id, 'mask'))?.equals(mask)).toBe(true);
      expect((await download(id, 'complete'))?.equals(complete)).toBe(true);
    });

    it('downloads are served as HTML', async () => {
      const { id, urls } = await newTemplate();
      await upload(urls.mask, '<p>m</p>');
      const detail = await call(svc.app, 'GET', `/template?id=${id}`, { key: svc.orgA.privateKey });
      const res = await svc.app.inject({ method: 'GET', url: localPath(detail.json().urls.mask) });
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    });

    it('the binary/octet-stream type the real service signs for is accepted too', async () => {
      const { id, urls } = await newTemplate();
      expect((await upload(urls.mask, '<p>bin</p>', 'binary/octet-stream')).statusCode).toBe(200);
      expect((await download(id, 'mask'))?.toString()).toBe('<p>bin</p>');
    });

    it('a template without uploaded HTML downloads as 404 FILE_NOT_FOUND', async () => {
      const { id } = await newTemplate();
      const detail = await call(svc.app, 'GET', `/template?id=${id}`, { key: svc.orgA.privateKey });
      const res = await svc.app.inject({ method: 'GET', url: localPath(detail.json().urls.complete) });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'FILE_NOT_FOUND' });
    });
  });

  describe('valid exactly 5 minutes from the response that issued them', () => {
    it('works at 5 minutes, is refused 1 ms later with a message, and nothing changes', async () => {
      const { id, urls } = await newTemplate();
      await upload(urls.mask, '<p>v1</p>');
      const put = await call(svc.app, 'PUT', '/template', { key: svc.orgA.privateKey, body: { id, name: 'v2' } });
      const fresh = put.json().urls;
      svc.clock.advance(FIVE_MINUTES);
      expect((await upload(fresh.mask, '<p>v2</p>')).statusCode).toBe(200);
      svc.clock.advance(1);
      const late = await upload(fresh.mask, '<p>v3</p>');
      expect(late.statusCode).toBe(403);
      expect(late.json()).toEqual({ message: 'URL_EXPIRED' });
      expect((await download(id, 'mask'))?.toString()).toBe('<p>v2</p>');
    });

    it('download URLs expire after 5 minutes as well', async () => {
      const { id, urls } = await newTemplate();
      await upload(urls.complete, '<p>c</p>');
      const detail = await call(svc.app, 'GET', `/template?id=${id}`, { key: svc.orgA.privateKey });
      svc.clock.advance(FIVE_MINUTES + 1);
      const res = await svc.app.inject({ method: 'GET', url: localPath(detail.json().urls.complete) });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: 'URL_EXPIRED' });
    });
  });

  describe('any tampered part is refused with a message, and nothing changes', () => {
    function tamper(url: string, change: (u: URL) => void): string {
      const parsed = new URL(url);
      change(parsed);
      return parsed.toString();
    }

    it('signature, expiry, file kind, template id, or method changed: 403 URL_SIGNATURE_INVALID', async () => {
      const { id, urls } = await newTemplate();
      const other = await newTemplate();
      await upload(urls.mask, '<p>original</p>');
      const flip = (s: string) => (s[0] === 'a' ? 'b' : 'a') + s.slice(1);
      const tampered = [
        tamper(urls.mask, (u) => u.searchParams.set('signature', flip(u.searchParams.get('signature') ?? ''))),
        tamper(urls.mask, (u) => u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 60_000))),
        tamper(urls.mask, (u) => u.searchParams.delete('signature')),
        tamper(urls.mask, (u) => (u.pathname = u.pathname.replace('mask.html', 'complete.html'))),
        tamper(other.urls.mask, (u) => (u.pathname = u.pathname.replace(other.id, id))),
        tamper(urls.mask, (u) => (u.pathname = u.pathname.replace('mask.html', '../mask.html'))),
        // The two files share one HMAC, but each URL carries its own half: neither opens the other.
        tamper(urls.mask, (u) => u.searchParams.set('signature', new URL(urls.complete).searchParams.get('signature') ?? '')),
        tamper(urls.complete, (u) => (u.pathname = u.pathname.replace('complete.html', 'mask.html'))),
        tamper(urls.mask, (u) => u.searchParams.set('files', 'complete.html,mask.html')),
        tamper(urls.mask, (u) => u.searchParams.set('files', 'mask.html,other.html')),
        tamper(urls.mask, (u) => u.searchParams.set('files', 'mask.html')),
        tamper(urls.mask, (u) => u.searchParams.delete('files')),
        tamper(urls.mask, (u) => u.searchParams.append('files', 'mask.html,complete.html')),
      ];
      for (const url of tampered) {
        const res = await upload(url, '<p>evil</p>');
        expect(res.statusCode, url).toBe(403);
        expect(res.json()).toEqual({ message: 'URL_SIGNATURE_INVALID' });
      }
      const detail = await call(svc.app, 'GET', `/template?id=${id}`, { key: svc.orgA.privateKey });
      const asUpload = await upload(detail.json().urls.mask, '<p>evil</p>');
      expect(asUpload.statusCode).toBe(403);
      expect((await download(id, 'mask'))?.toString()).toBe('<p>original</p>');
      expect(await download(id, 'complete')).toBeUndefined();
    });
  });

  describe('a wrong content type, an empty body or one over the size limit is refused; the old file stays whole', () => {
    const cases: [string, string | Buffer, string | null, number, string][] = [
      ['wrong content type', '<p>x</p>', 'application/json', 415, 'FILE_WRONG_TYPE: Content-Type must be text/html or binary/octet-stream'],
      ['no content type', '<p>x</p>', null, 415, 'FILE_WRONG_TYPE: Content-Type must be text/html or binary/octet-stream'],
      ['empty body', '', 'text/html', 400, 'FILE_EMPTY'],
      ['over the size limit', Buffer.alloc(4097, 'a'), 'text/html', 413, 'FILE_TOO_LARGE: at most 4096 bytes'],
    ];
    for (const [label, payload, type, status, message] of cases) {
      it(`${label}: ${status}`, async () => {
        const { id, urls } = await newTemplate();
        await upload(urls.mask, '<p>keep</p>');
        const res = await upload(urls.mask, payload, type);
        expect(res.statusCode).toBe(status);
        expect(res.json()).toEqual({ message });
        expect((await download(id, 'mask'))?.toString()).toBe('<p>keep</p>');
      });
    }

    it('exactly the size limit is accepted', async () => {
      const { id, urls } = await newTemplate();
      expect((await upload(urls.mask, Buffer.alloc(4096, 'b'))).statusCode).toBe(200);
      expect((await download(id, 'mask'))?.length).toBe(4096);
    });
  });

  describe('an upload replaces the previous file atomically', () => {
    it('a cut-off upload over a real socket leaves the old file whole and no partial file behind', async () => {
      const { id, urls } = await newTemplate();
      await upload(urls.mask, '<p>whole</p>');
      await svc.app.listen({ port: 0, host: '127.0.0.1' });
      const address = svc.app.server.address();
      if (!address || typeof address === 'string') throw new Error('no address');
      const socket = net.connect(address.port, '127.0.0.1');
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      socket.write(`PUT ${localPath(urls.mask)} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/html\r\nContent-Length: 3000\r\n\r\n<p>half`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      socket.destroy();
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect((await download(id, 'mask'))?.toString()).toBe('<p>whole</p>');
      const folder = path.join(svc.config.dataDir, 'files', 'templates', id);
      expect(fs.readdirSync(folder)).toEqual(['mask.html']);
    });

    it('readers during many replacements always see one whole version', async () => {
      const { id, urls } = await newTemplate();
      const versions = Array.from({ length: 20 }, (_, i) => `<p>${String(i).repeat(1000)}</p>`);
      await upload(urls.mask, versions[0]!);
      const reads: Promise<Buffer | undefined>[] = [];
      const writes = versions.map(async (v) => {
        reads.push(download(id, 'mask'));
        return upload(urls.mask, v);
      });
      await Promise.all(writes);
      for (const read of await Promise.all(reads)) expect(versions).toContain(read?.toString());
    });
  });

  it("an organization's upload URL only ever touches its own template", async () => {
    const mine = await newTemplate(svc.orgA.privateKey);
    const theirs = await newTemplate(svc.orgB.privateKey);
    await upload(theirs.urls.mask, '<p>theirs</p>');
    await upload(mine.urls.mask, '<p>mine</p>');
    const detailB = await call(svc.app, 'GET', `/template?id=${theirs.id}`, { key: svc.orgB.privateKey });
    const res = await svc.app.inject({ method: 'GET', url: localPath(detailB.json().urls.mask) });
    expect(res.body).toBe('<p>theirs</p>');
  });
});

describe("a process's document is stored under one of 256 shared folders, and keys of the layout before still name uploadable PDFs", () => {
  it('a new key sits in the folder named by the end of the process id; old and new PDF keys both accept an upload', () => {
    const processId = '6b0641579d5259173e5cff19';
    expect(documentFileKey(processId, 0, 'pdf')).toBe('documents/19/6b0641579d5259173e5cff19-0.pdf');
    expect(documentFileKey(processId, 2, 'template')).toBe('documents/19/6b0641579d5259173e5cff19-2.html');
    expect(isDocumentPdfKey(documentFileKey(processId, 0, 'pdf'))).toBe(true);
    expect(isDocumentPdfKey(`processes/${processId}/documents/0.pdf`)).toBe(true);
    for (const key of [
      documentFileKey(processId, 0, 'template'),
      `processes/${processId}/documents/0.html`,
      'documents/19/other-0.pdf',
      'templates/x/mask.html',
    ]) {
      expect(isDocumentPdfKey(key)).toBe(false);
    }
  });
});
