import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../src/clock.js';
import { listDocuments } from '../src/documents/queries.js';
import { readBlobBytes } from '../src/files/blob-bytes.js';
import { LocalBlobStore } from '../src/files/local-blob-store.js';
import { UrlSigner } from '../src/files/url-signer.js';
import { embeddedIpv4, isPrivateAddress } from '../src/webhooks/url-guard.js';
import { sampleTemplate } from './support/fixtures.js';
import { onePagePdf } from './support/pdf-files.js';
import { call, dialects, listenOnLoopback, localPath, startTestService, type TestService } from './support/service.js';
import { pdfProcess, stored } from './support/signing.js';

/** A PDF of its own content, so two uploads can be told apart by their hash. */
const pdf = (label: string) => onePagePdf(label, { comment: 'x'.repeat(64 * 1024) });
const sha256 = (bytes: Buffer) => crypto.createHash('sha256').update(bytes).digest('hex');

interface Upload {
  /** Sends the rest of the body. */
  finish(): void;
  answer: Promise<{ status: number; body: unknown }>;
}

/** A PUT over a real socket that sends the first half of its body now and the rest on finish(). */
function startUpload(port: number, pathAndQuery: string, bytes: Buffer): Upload {
  let answerResolve: (value: { status: number; body: unknown }) => void = () => undefined;
  const answer = new Promise<{ status: number; body: unknown }>((resolve) => {
    answerResolve = resolve;
  });
  const request = http.request(
    { host: '127.0.0.1', port, method: 'PUT', path: pathAndQuery, headers: { 'content-type': 'application/pdf', 'content-length': bytes.length } },
    (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => answerResolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
    },
  );
  const half = Math.floor(bytes.length / 2);
  request.write(bytes.subarray(0, half));
  return { finish: () => request.end(bytes.subarray(half)), answer };
}

function filesUnder(folder: string): string[] {
  return fs.readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((name) => fs.statSync(path.join(folder, name)).isFile());
}

const openDescriptors = () => fs.readdirSync('/proc/self/fd').length;

describe.each(dialects)('stored files (%s)', (dialect) => {
  let svc: TestService;
  let port: number;
  beforeAll(async () => {
    svc = await startTestService(dialect);
    port = await listenOnLoopback(svc);
  });
  afterAll(async () => svc.close());

  const filesFolder = () => path.join(svc.config.dataDir, 'files');

  describe('concurrent uploads to one PDF upload URL keep exactly one complete file, matching the recorded hash', () => {
    for (const order of ['the later upload finishes first', 'the first upload finishes first'] as const) {
      it(order, async () => {
        const created = await call(svc.app, 'POST', '/document/upload', {
          key: svc.orgA.privateKey,
          body: pdfProcess(svc.orgA, { file: undefined, compress: true }),
        });
        const { code, url } = created.json();
        const first = startUpload(port, localPath(url), pdf('first'));
        const second = startUpload(port, localPath(url), pdf('second'));
        await new Promise((resolve) => setTimeout(resolve, 50));
        const [winner, loser] = order === 'the later upload finishes first' ? [second, first] : [first, second];
        winner.finish();
        expect(await winner.answer).toMatchObject({ status: 200 });
        loser.finish();
        const refused = await loser.answer;
        expect(refused.status).toBe(409);
        expect(refused.body).toEqual({ message: 'DOCUMENT_ALREADY_UPLOADED' });

        const { process, participants } = await stored(svc, svc.orgA, code);
        const [document] = await listDocuments(svc.deps.db, process.id);
        const bytes = await readBlobBytes(svc.deps.blobs, document!.file_key!);
        expect(bytes).toBeDefined();
        expect(document!.sha256).toBe(sha256(bytes!));
        expect(bytes!.equals(pdf(order === 'the later upload finishes first' ? 'second' : 'first'))).toBe(true);
        expect(participants.map((p) => p.status)).toEqual(['NOTIFICATION', 'NOTIFICATION']);
        expect(filesUnder(filesFolder()).filter((name) => name.endsWith('.part'))).toEqual([]);
        // The other organization cannot read it.
        expect((await call(svc.app, 'GET', '/document', { key: svc.orgB.privateKey, query: { code } })).statusCode).toBe(400);
      });
    }
  });

  describe('stored HTML is served so that it can never run script on the service origin', () => {
    const evil = '<!doctype html><p>Hi</p><script>document.title = "owned"</script>';

    it('template Mask and Complete downloads carry a sandbox policy, nosniff and a file name', async () => {
      const created = (await call(svc.app, 'POST', '/template', { key: svc.orgA.privateKey, body: sampleTemplate() })).json();
      for (const url of [created.urls.mask, created.urls.complete]) {
        await svc.app.inject({ method: 'PUT', url: localPath(url), headers: { 'content-type': 'text/html' }, payload: evil });
      }
      const detail = (await call(svc.app, 'GET', '/template', { key: svc.orgA.privateKey, query: { id: created.id } })).json();
      for (const [name, url] of Object.entries(detail.urls as Record<string, string>)) {
        const res = await svc.app.inject({ method: 'GET', url: localPath(url) });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(String(res.headers['content-security-policy'])).toMatch(/^sandbox;/);
        expect(String(res.headers['content-security-policy'])).not.toContain('allow-scripts');
        expect(res.headers['content-disposition']).toBe(`inline; filename="${name}.html"`);
      }
    });

    it('a PDF download carries nosniff and its name, and no sandbox (PDF viewers need their own script)', async () => {
      const created = await call(svc.app, 'POST', '/document/upload', { key: svc.orgA.privateKey, body: pdfProcess(svc.orgA) });
      const view = (await call(svc.app, 'GET', '/document', { key: svc.orgA.privateKey, query: { code: created.json().code } })).json();
      const url: string = view.documents[0].url;
      const res = await svc.app.inject({ method: 'GET', url: localPath(url) });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toBeUndefined();
      expect(String(res.headers['content-disposition'])).toMatch(/^inline; filename="[A-Za-z0-9._-]+\.pdf"$/);
    });
  });
});

describe('the private-address guard judges the IPv4 address an IPv6 address carries', () => {
  it.each([
    ['64:ff9b::10.0.0.1', '10.0.0.1', true],
    ['64:ff9b::a00:1', '10.0.0.1', true],
    ['64:ff9b::8.8.8.8', '8.8.8.8', false],
    ['2002:a00:1::', '10.0.0.1', true],
    ['2002:7f00:1::1', '127.0.0.1', true],
    ['2002:808:808::1', '8.8.8.8', false],
    ['::10.0.0.1', '10.0.0.1', true],
    ['::a9fe:a9fe', '169.254.169.254', true],
    ['::ffff:0:10.0.0.1', '10.0.0.1', true],
    ['::ffff:0:c0a8:101', '192.168.1.1', true],
    ['::ffff:127.0.0.1', '127.0.0.1', true],
    ['::ffff:7f00:1', '127.0.0.1', true],
    ['2001:0:4136:e378:8000:63bf:f5ff:fffe', '10.0.0.1', true],
  ])('%s carries %s: private %s', (address, ipv4, refused) => {
    expect(embeddedIpv4(address)).toBe(ipv4);
    expect(isPrivateAddress(address)).toBe(refused);
  });

  it('plain addresses keep their verdicts', () => {
    expect(isPrivateAddress('2606:4700::1111')).toBe(false);
    expect(isPrivateAddress('64:ff9b:1::1')).toBe(true);
    expect(isPrivateAddress('fe80::1%eth0')).toBe(true);
    expect(isPrivateAddress('8.8.8.8')).toBe(false);
    expect(isPrivateAddress('not an address')).toBe(true);
  });
});

describe.each(dialects)('IPv6 forms that embed a private IPv4 are refused as webhook URLs (%s)', (dialect) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService(dialect);
  });
  afterAll(async () => svc.close());

  it.each(['http://[64:ff9b::a00:1]/hook', 'http://[2002:a00:1::1]/hook', 'http://[::a00:1]/hook', 'http://[::ffff:0:a00:1]/hook'])('%s', async (url) => {
    const res = await call(svc.app, 'POST', '/webhooks', { key: svc.orgA.privateKey, body: { name: 'inside', url } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'WEBHOOK_URL_NOT_ALLOWED: it resolves to a private, loopback or link-local address' });
    expect((await call(svc.app, 'GET', '/webhooks', { key: svc.orgA.privateKey })).json().data).toEqual([]);
  });
});

describe('the local store leaves no file handle to the garbage collector', () => {
  it('exists() opens nothing, and a read body destroyed unread closes its file', async () => {
    const root = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'blobs-'));
    const store = new LocalBlobStore(root, 'http://service.test', new UrlSigner('s'.repeat(32), systemClock));
    try {
      await store.write('templates/a/mask.html', Readable.from([Buffer.from('<p>x</p>')]), { contentType: 'text/html', maxBytes: 100 });
      const before = openDescriptors();
      for (let i = 0; i < 20; i++) expect(await store.exists('templates/a/mask.html')).toBe(true);
      expect(await store.exists('templates/a/none.html')).toBe(false);
      expect(openDescriptors()).toBe(before);
      const blob = await store.read('templates/a/mask.html');
      blob!.body.destroy();
      await new Promise((resolve) => blob!.body.once('close', resolve));
      expect(openDescriptors()).toBe(before);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
