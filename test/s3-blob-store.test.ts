import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Clock, ManualClock, systemClock } from '../src/clock.js';
import { BlobEmptyError, BlobTooLargeError } from '../src/files/blob-store.js';
import { S3BlobStore } from '../src/files/s3-blob-store.js';
import { type LocalS3, S3RVER_CREDENTIALS, startLocalS3 } from './support/s3.js';
import { call, startTestService, type TestService } from './support/service.js';

/*
 * Against s3rver, a real S3-compatible server on 127.0.0.1. It checks presigned URLs' expiry and
 * access key id, but not their SigV4 signature (its V4 verification is unimplemented): refusal of a
 * tampered URL is shown by recomputing the signature as AWS specifies it, independently of the SDK.
 */

const REGION = 'us-east-1';
const LIFETIME_SECONDS = 300;

let s3: LocalS3;
const stores: S3BlobStore[] = [];

beforeAll(async () => {
  s3 = await startLocalS3();
});

afterAll(async () => {
  for (const store of stores) store.destroy();
  await s3.close();
});

function storeAt(clock: Clock = systemClock): S3BlobStore {
  const store = new S3BlobStore({ bucket: s3.bucket, region: REGION, endpoint: s3.endpoint, forcePathStyle: true, ...S3RVER_CREDENTIALS }, clock);
  stores.push(store);
  return store;
}

const newKey = () => `templates/${crypto.randomBytes(12).toString('hex')}/mask.html`;

const html = (text: string) => Buffer.from(`<html><body>${text}</body></html>`, 'utf8');

async function readBack(store: S3BlobStore, key: string): Promise<{ bytes: Buffer; size: number; contentType: string } | undefined> {
  const blob = await store.read(key);
  return blob && { bytes: await buffer(blob.body), size: blob.size, contentType: blob.contentType };
}

function upload(url: string, body: Buffer, contentType = 'text/html'): Promise<Response> {
  // A copy on a plain ArrayBuffer, the only kind fetch's body type admits.
  return fetch(url, { method: 'PUT', headers: { 'content-type': contentType }, body: new Uint8Array(body) });
}

function withParam(url: string, name: string, value: string): string {
  const changed = new URL(url);
  changed.searchParams.set(name, value);
  return changed.toString();
}

const rfc3986 = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const hmac = (key: Buffer, data: string) => crypto.createHmac('sha256', key).update(data).digest();

/** Whether a presigned URL carries the SigV4 signature AWS would expect for this method and secret. */
function sigV4Verifies(method: 'PUT' | 'GET', url: string, secretAccessKey: string): boolean {
  const parsed = new URL(url);
  const param = (name: string) => parsed.searchParams.get(name) ?? '';
  // These URLs sign the host header alone; any other set would need its values from the request.
  if (param('X-Amz-SignedHeaders') !== 'host') return false;
  const query = [...parsed.searchParams]
    .filter(([name]) => name !== 'X-Amz-Signature')
    .map(([name, value]) => `${rfc3986(name)}=${rfc3986(value)}`)
    .sort()
    .join('&');
  const canonicalRequest = [method, parsed.pathname, query, `host:${parsed.host}\n`, 'host', 'UNSIGNED-PAYLOAD'].join('\n');
  const scope = param('X-Amz-Credential').split('/').slice(1).join('/');
  const stringToSign = ['AWS4-HMAC-SHA256', param('X-Amz-Date'), scope, crypto.createHash('sha256').update(canonicalRequest).digest('hex')].join('\n');
  const signingKey = scope.split('/').reduce((key, part) => hmac(key, part), Buffer.from(`AWS4${secretAccessKey}`));
  return hmac(signingKey, stringToSign).toString('hex') === param('X-Amz-Signature');
}

/** X-Amz-Date's format: the signing time to the second. */
const amzDate = (date: Date) =>
  date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

describe('write then read returns the same bytes byte for byte, with content type', () => {
  it('every byte value, multi-byte UTF-8 and a body written in several chunks come back byte for byte', async () => {
    const store = storeAt();
    const key = newKey();
    const bytes = Buffer.concat([html('Señor — ✓'), crypto.randomBytes(70_000), Buffer.from(Array.from({ length: 256 }, (_, i) => i))]);
    const chunks = [bytes.subarray(0, 10), bytes.subarray(10, 40_000), bytes.subarray(40_000)];
    const written = await store.write(key, Readable.from(chunks), { contentType: 'text/html; charset=utf-8', maxBytes: 1_000_000 });
    expect(written).toEqual({ size: bytes.length });
    const read = await readBack(store, key);
    expect(read?.bytes.equals(bytes)).toBe(true);
    expect(read?.size).toBe(bytes.length);
    expect(read?.contentType).toBe('text/html; charset=utf-8');
  });

  it('writeBytes stores bytes in memory as write does: replaced whole, with their content type', async () => {
    const store = storeAt();
    const key = newKey();
    await store.writeBytes(key, html('first, longer version'), 'text/html');
    await store.writeBytes(key, html('second'), 'text/html');
    const read = await readBack(store, key);
    expect(read?.bytes.equals(html('second'))).toBe(true);
    expect(read?.contentType).toBe('text/html');
  });

  it('a second write replaces the first', async () => {
    const store = storeAt();
    const key = newKey();
    await store.write(key, Readable.from([html('v1 is longer than v2')]), { contentType: 'text/html', maxBytes: 1000 });
    await store.write(key, Readable.from([html('v2')]), { contentType: 'text/html', maxBytes: 1000 });
    expect((await readBack(store, key))?.bytes.equals(html('v2'))).toBe(true);
  });
});

describe('read of a missing key returns undefined', () => {
  it('undefined, not an error', async () => {
    expect(await storeAt().read(newKey())).toBeUndefined();
  });
});

describe('delete removes keys, and deleting nothing is fine', () => {
  it('both keys are gone after one delete', async () => {
    const store = storeAt();
    const keys = [newKey(), newKey()];
    for (const key of keys) await store.write(key, Readable.from([html(key)]), { contentType: 'text/html', maxBytes: 1000 });
    await store.delete(keys);
    for (const key of keys) expect(await store.read(key)).toBeUndefined();
  });

  it('an empty list and keys that do not exist are no error', async () => {
    const store = storeAt();
    await expect(store.delete([])).resolves.toBeUndefined();
    await expect(store.delete([newKey(), newKey()])).resolves.toBeUndefined();
  });
});

describe('write refuses an empty body (BlobEmptyError) and a body over maxBytes (BlobTooLargeError), leaving the previous object whole', () => {
  it('empty and oversized bodies are refused; exactly maxBytes is accepted; the previous object stays whole', async () => {
    const store = storeAt();
    const key = newKey();
    const previous = Buffer.alloc(100, 'p');
    await store.write(key, Readable.from([previous]), { contentType: 'text/html', maxBytes: 100 });

    await expect(store.write(key, Readable.from([]), { contentType: 'text/html', maxBytes: 100 })).rejects.toBeInstanceOf(BlobEmptyError);
    expect((await readBack(store, key))?.bytes.equals(previous)).toBe(true);

    const tooLarge = store.write(key, Readable.from([Buffer.alloc(60, 'x'), Buffer.alloc(41, 'x')]), { contentType: 'text/html', maxBytes: 100 });
    await expect(tooLarge).rejects.toBeInstanceOf(BlobTooLargeError);
    await expect(tooLarge).rejects.toMatchObject({ maxBytes: 100 });
    expect((await readBack(store, key))?.bytes.equals(previous)).toBe(true);

    const exact = Buffer.alloc(100, 'e');
    expect(await store.write(key, Readable.from([exact]), { contentType: 'text/html', maxBytes: 100 })).toEqual({ size: 100 });
    expect((await readBack(store, key))?.bytes.equals(exact)).toBe(true);
  });
});

describe('presign PUT returns a real URL that accepts an HTTP PUT with Content-Type text/html and raw bytes; presign GET downloads them back byte for byte', () => {
  it('PUT by fetch, then read and a presigned GET both return the same bytes', async () => {
    const store = storeAt();
    const key = newKey();
    const bytes = Buffer.concat([html('Señor'), crypto.randomBytes(5000)]);
    const putUrl = await store.presign(key, { method: 'PUT', expiresInSeconds: LIFETIME_SECONDS, contentType: 'text/html' });
    expect(new URL(putUrl).origin).toBe(s3.endpoint);

    const put = await upload(putUrl, bytes);
    expect(put.status).toBe(200);
    expect((await readBack(store, key))?.bytes.equals(bytes)).toBe(true);

    const get = await fetch(await store.presign(key, { method: 'GET', expiresInSeconds: LIFETIME_SECONDS }));
    expect(get.status).toBe(200);
    expect(Buffer.from(await get.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('downloads are served as text/html; charset=utf-8 whatever type the uploader sent, as with the local store', async () => {
    const store = storeAt();
    const key = newKey();
    const putUrl = await store.presign(key, { method: 'PUT', expiresInSeconds: LIFETIME_SECONDS, contentType: 'text/html' });
    expect((await upload(putUrl, html('bin'), 'binary/octet-stream')).status).toBe(200);
    const get = await fetch(await store.presign(key, { method: 'GET', expiresInSeconds: LIFETIME_SECONDS }));
    expect(get.headers.get('content-type')).toBe('text/html; charset=utf-8');
  });

  it('the PUT URL signs no checksum: the SDK would sign that of an empty body, which stores that check it hold every upload against', async () => {
    const putUrl = await storeAt().presign(newKey(), { method: 'PUT', expiresInSeconds: LIFETIME_SECONDS, contentType: 'text/html' });
    const names = [...new URL(putUrl).searchParams.keys()].map((name) => name.toLowerCase());
    expect(names.filter((name) => name.includes('checksum'))).toEqual([]);
  });

  it('a GET of a key never uploaded is 404 NoSuchKey', async () => {
    const get = await fetch(await storeAt().presign(newKey(), { method: 'GET', expiresInSeconds: LIFETIME_SECONDS }));
    expect(get.status).toBe(404);
    expect(await get.text()).toContain('<Code>NoSuchKey</Code>');
  });
});

describe('the presigned URL expires: URLs last exactly 5 minutes from the service clock', () => {
  it("the URL is signed at the service clock's time and says 300 seconds", async () => {
    const clock = new ManualClock(new Date('2026-01-01T00:00:00.000Z'));
    const url = new URL(await storeAt(clock).presign(newKey(), { method: 'PUT', expiresInSeconds: LIFETIME_SECONDS, contentType: 'text/html' }));
    expect(url.searchParams.get('X-Amz-Date')).toBe('20260101T000000Z');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('300');
  });

  it('signed 301 s ago, s3rver refuses the PUT and the GET with 403 "Request has expired", and the object is unchanged', async () => {
    const key = newKey();
    await storeAt().write(key, Readable.from([html('v1')]), { contentType: 'text/html', maxBytes: 1000 });
    // X-Amz-Date keeps whole seconds; starting from a whole second keeps the margin exact.
    const past = storeAt(new ManualClock(new Date(Math.floor(Date.now() / 1000) * 1000 - 301_000)));

    const put = await upload(await past.presign(key, { method: 'PUT', expiresInSeconds: LIFETIME_SECONDS, contentType: 'text/html' }), html('v2'));
    expect(put.status).toBe(403);
    expect(await put.text()).toContain('<Message>Request has expired</Message>');
    const get = await fetch(await past.presign(key, { method: 'GET', expiresInSeconds: LIFETIME_SECONDS }));
    expect(get.status).toBe(403);
    expect(await get.text()).toContain('<Message>Request has expired</Message>');
    expect((await readBack(storeAt(), key))?.bytes.equals(html('v1'))).toBe(true);
  });

  it('signed 298 s ago, the same URLs still work', async () => {
    const key = newKey();
    const recent = storeAt(new ManualClock(new Date(Math.floor(Date.now() / 1000) * 1000 - 298_000)));
    const put = await upload(await recent.presign(key, { method: 'PUT', expiresInSeconds: LIFETIME_SECONDS, contentType: 'text/html' }), html('late'));
    expect(put.status).toBe(200);
    const get = await fetch(await recent.presign(key, { method: 'GET', expiresInSeconds: LIFETIME_SECONDS }));
    expect(Buffer.from(await get.arrayBuffer()).equals(html('late'))).toBe(true);
  });
});

describe('a tampered URL (changed signature or key) is refused', () => {
  it('the signature binds method, key, signing time and lifetime: any change no longer verifies (recomputed per SigV4)', async () => {
    const key = newKey();
    const { secretAccessKey } = S3RVER_CREDENTIALS;
    const store = storeAt();
    const putUrl = await store.presign(key, { method: 'PUT', expiresInSeconds: LIFETIME_SECONDS, contentType: 'text/html' });
    const getUrl = await store.presign(key, { method: 'GET', expiresInSeconds: LIFETIME_SECONDS });
    expect(sigV4Verifies('PUT', putUrl, secretAccessKey)).toBe(true);
    expect(sigV4Verifies('GET', getUrl, secretAccessKey)).toBe(true);

    const signature = new URL(putUrl).searchParams.get('X-Amz-Signature') ?? '';
    const flipped = signature.slice(0, -1) + (signature.endsWith('0') ? '1' : '0');
    expect(sigV4Verifies('PUT', withParam(putUrl, 'X-Amz-Signature', flipped), secretAccessKey)).toBe(false);
    expect(sigV4Verifies('PUT', putUrl.replace('/mask.html?', '/complete.html?'), secretAccessKey)).toBe(false);
    expect(sigV4Verifies('GET', putUrl, secretAccessKey)).toBe(false);
    expect(sigV4Verifies('PUT', withParam(putUrl, 'X-Amz-Expires', '3600'), secretAccessKey)).toBe(false);
    expect(sigV4Verifies('PUT', withParam(putUrl, 'X-Amz-Date', amzDate(new Date(Date.now() + 60_000))), secretAccessKey)).toBe(false);
    expect(sigV4Verifies('PUT', putUrl, 'another secret')).toBe(false);
  });

  it('s3rver refuses an access key id it does not know with 403 InvalidAccessKeyId', async () => {
    const putUrl = await storeAt().presign(newKey(), { method: 'PUT', expiresInSeconds: LIFETIME_SECONDS, contentType: 'text/html' });
    const credential = new URL(putUrl).searchParams.get('X-Amz-Credential') ?? '';
    const res = await upload(withParam(putUrl, 'X-Amz-Credential', credential.replace(/^S3RVER\//, 'INTRUDER/')), html('x'));
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('<Code>InvalidAccessKeyId</Code>');
  });

  it('s3rver itself does not check SigV4 signatures: it accepts a changed signature or key, so only the recomputation above shows the refusal', async () => {
    const key = newKey();
    const putUrl = await storeAt().presign(key, { method: 'PUT', expiresInSeconds: LIFETIME_SECONDS, contentType: 'text/html' });
    const forged = withParam(putUrl, 'X-Amz-Signature', '0'.repeat(64)).replace('/mask.html?', '/complete.html?');
    expect((await upload(forged, html('forged'))).status).toBe(200);
  });
});

describe('end to end through the app: the template URLs upload to and download from S3, and DELETE /template removes the objects', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService('sqlite', {
      S3_BUCKET: s3.bucket,
      S3_ENDPOINT: s3.endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
      AWS_REGION: REGION,
    });
  });
  afterAll(async () => svc.close());

  const template = { name: 'T', config: [{ name: 'n', type: 'name', description: 'Name?' }], sign: ['n'], signatureProfile: [{ type: 'buyer', name: 'n' }] };

  it('PUT to urls.mask and urls.complete, GET /template urls download the same bytes, DELETE /template empties the bucket of them', async () => {
    const created = await call(svc.app, 'POST', '/template', { key: svc.orgA.privateKey, body: template });
    expect(created.statusCode).toBe(200);
    const { id, urls } = created.json<{ id: string; urls: { mask: string; complete: string } }>();
    expect(new URL(urls.mask).origin).toBe(s3.endpoint);
    expect(new URL(urls.mask).searchParams.get('X-Amz-Date')).toBe(amzDate(svc.clock.now()));
    expect(new URL(urls.mask).searchParams.get('X-Amz-Expires')).toBe('300');

    const mask = Buffer.concat([html('Señor <span name="n">…</span>'), crypto.randomBytes(3000)]);
    const complete = html('complete ✓');
    expect((await upload(urls.mask, mask)).status).toBe(200);
    expect((await upload(urls.complete, complete)).status).toBe(200);

    const detail = await call(svc.app, 'GET', `/template?id=${id}`, { key: svc.orgA.privateKey });
    expect(detail.statusCode).toBe(200);
    const downloads = detail.json<{ urls: { mask: string; complete: string } }>().urls;
    const maskDownload = await fetch(downloads.mask);
    expect(maskDownload.status).toBe(200);
    expect(maskDownload.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(Buffer.from(await maskDownload.arrayBuffer()).equals(mask)).toBe(true);
    expect(Buffer.from(await (await fetch(downloads.complete)).arrayBuffer()).equals(complete)).toBe(true);

    const removed = await call(svc.app, 'DELETE', `/template?id=${id}`, { key: svc.orgA.privateKey });
    expect(removed.statusCode).toBe(200);
    const bucket = storeAt();
    expect(await bucket.read(`templates/${id}/mask.html`)).toBeUndefined();
    expect(await bucket.read(`templates/${id}/complete.html`)).toBeUndefined();
  });

  it('the app signs at its own clock: set 301 s back, the upload URL it issues is refused as expired', async () => {
    svc.clock.advance(-301_000);
    try {
      const created = await call(svc.app, 'POST', '/template', { key: svc.orgA.privateKey, body: template });
      const res = await upload(created.json<{ urls: { mask: string } }>().urls.mask, html('late'));
      expect(res.status).toBe(403);
      expect(await res.text()).toContain('<Message>Request has expired</Message>');
    } finally {
      svc.clock.advance(301_000);
    }
  });
});

describe('the S3 store tells whether a blob exists without opening it', () => {
  it('exists answers true for a written key and false for another', async () => {
    const store = storeAt();
    const key = newKey();
    await store.write(key, Readable.from([html('here')]), { contentType: 'text/html', maxBytes: 1000 });
    expect(await store.exists(key)).toBe(true);
    expect(await store.exists(newKey())).toBe(false);
  });

  it('a presigned download names the file and never shows stored HTML inline', async () => {
    const store = storeAt();
    const key = newKey();
    await store.write(key, Readable.from([html('<script>1</script>')]), { contentType: 'text/html', maxBytes: 1000 });
    const res = await fetch(await store.presign(key, { method: 'GET', expiresInSeconds: 60 }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="mask.html"');
  });

  it('a presigned download given a name is saved under it: ASCII in filename, UTF-8 in filename*', async () => {
    const store = storeAt();
    const key = `processes/${crypto.randomBytes(12).toString('hex')}/final/0.pdf`;
    await store.write(key, Readable.from([Buffer.from('%PDF-1.7')]), { contentType: 'application/pdf', maxBytes: 1000 });
    const res = await fetch(await store.presign(key, { method: 'GET', expiresInSeconds: 60, downloadName: 'Contrato Ñuñoa - firmado.pdf' }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(
      `inline; filename="Contrato Nunoa - firmado.pdf"; filename*=UTF-8''Contrato%20%C3%91u%C3%B1oa%20-%20firmado.pdf`,
    );
  });
});
