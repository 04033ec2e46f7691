import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, parseJsonBody } from '../src/http/json-body.js';
import { sampleTemplate, verifaceBody } from './support/fixtures.js';
import { answerOf } from './support/refusal.js';
import { call, dialects, listenOnLoopback, startTestService, type TestService } from './support/service.js';
import { pdfProcess } from './support/signing.js';

/** `{ custom: { a: { a: ... } } }` with `levels` objects under custom. */
function nested(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: true };
  for (let i = 1; i < levels; i++) value = { a: value };
  return value;
}

/** Stands for `custom` in a body until deepJson puts the nested objects in its place. */
const DEEP_PLACEHOLDER = 'custom nested here';

/**
 * `body` as JSON text with `levels` nested objects in place of DEEP_PLACEHOLDER, written without
 * recursion: JSON.stringify of thousands of levels can itself run out of stack, depending on how deep
 * the caller's stack already is, and the test is of the service's parsing, not of the test's own.
 */
function deepJson(body: object, levels: number): string {
  const inner = `${'{"a":'.repeat(levels - 1)}{"leaf":true}${'}'.repeat(levels - 1)}`;
  return JSON.stringify(body).replace(JSON.stringify(DEEP_PLACEHOLDER), inner);
}

/** Sends raw bytes over a socket and answers everything the server wrote before closing. */
function rawExchange(port: number, request: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.on('error', reject);
    socket.setTimeout(5000, () => reject(new Error('no answer within 5 s')));
    socket.write(request);
  });
}

function parseRaw(answer: string): { status: number; headers: string; body: unknown } {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), headers: head.toLowerCase(), body: JSON.parse(body) };
}

describe.each(dialects)('request hardening (%s)', (dialect) => {
  let svc: TestService;
  let port: number;
  beforeAll(async () => {
    svc = await startTestService(dialect);
    port = await listenOnLoopback(svc);
  });
  afterAll(async () => svc.close());

  const keyA = () => svc.orgA.privateKey;

  describe(`free-form objects nest at most ${MAX_JSON_DEPTH} levels: deeper bodies are a 400, never a 500`, () => {
    const creations = (custom: unknown) =>
      [
        ['/veriface', verifaceBody(svc.orgA.email, { custom })],
        ['/document/upload', pdfProcess(svc.orgA, { custom })],
        ['/template', sampleTemplate({ custom })],
        ['/webhooks', { name: 'deep', url: 'https://hooks.example.test/deep', description: 'x', custom }],
      ] as const;

    it('custom nested 4,107 levels is refused on every creation route, and the organization keeps working', async () => {
      for (const [url, body] of creations(DEEP_PLACEHOLDER)) {
        const res = await call(svc.app, 'POST', url, { key: keyA(), body: deepJson(body, 4107), headers: { 'content-type': 'application/json' } });
        expect(res.statusCode, url).toBe(400);
        expect(res.json(), url).toEqual({ message: `BODY_TOO_DEEP: objects and arrays may nest at most ${MAX_JSON_DEPTH} levels` });
      }
      const deliveries = await call(svc.app, 'GET', '/webhooks/deliveries', { key: keyA() });
      expect(deliveries.statusCode).toBe(200);
    });

    it('a body exactly at the limit is accepted, one level more is refused', async () => {
      // The body is level 1 and custom level 2: custom may hold objects down to the limit.
      const atLimit = await call(svc.app, 'POST', '/veriface', { key: keyA(), body: verifaceBody(svc.orgA.email, { custom: nested(MAX_JSON_DEPTH - 1) }) });
      expect(atLimit.statusCode).toBe(200);
      const over = await call(svc.app, 'POST', '/veriface', { key: keyA(), body: verifaceBody(svc.orgA.email, { custom: nested(MAX_JSON_DEPTH) }) });
      expect(over.statusCode).toBe(400);
      const read = await call(svc.app, 'GET', '/veriface', { key: keyA(), query: { code: atLimit.json().code } });
      expect(read.statusCode).toBe(200);
      expect((await call(svc.app, 'GET', '/veriface', { key: svc.orgB.privateKey, query: { code: atLimit.json().code } })).statusCode).toBe(400);
    });
  });

  describe('every URL field is parsed with the WHATWG parser during validation', () => {
    it('a webhook URL with port 99999 is a 400 in Joi words, on create and update', async () => {
      const created = await call(svc.app, 'POST', '/webhooks', { key: keyA(), body: { name: 'port', url: 'http://127.0.0.1:99999/' } });
      expect(created.statusCode).toBe(400);
      expect(created.json()).toEqual({ message: '"url" must be a valid uri' });
      await call(svc.app, 'POST', '/webhooks', { key: keyA(), body: { name: 'fine', url: 'https://hooks.example.test/x' } });
      const updated = await call(svc.app, 'PUT', '/webhooks', { key: keyA(), body: { name: 'fine', url: 'https://hooks.example.test:70000/' } });
      expect(updated.statusCode).toBe(400);
    });

    it("a template question's endpoint must parse too", async () => {
      const config = [
        ...(sampleTemplate().config as Record<string, unknown>[]),
        { name: 'lookup', type: 'request', description: 'Lookup', endpoint: 'https://api.example.test:123456/x' },
      ];
      const res = await call(svc.app, 'POST', '/template', { key: keyA(), body: sampleTemplate({ config }) });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/^"config\[8\]\.endpoint" must be a valid uri/);
    });
  });

  describe('U+0000 in any text field is the same 400 on both stores', () => {
    const NUL = 'Ana\u0000Gómez';
    it('template name and description, webhook description, face-validation name, process and participant names', async () => {
      const cases: [string, string, Record<string, unknown>][] = [
        ['POST', '/template', sampleTemplate({ name: NUL })],
        ['POST', '/template', sampleTemplate({ description: NUL })],
        ['POST', '/webhooks', { name: 'nul', url: 'https://hooks.example.test/nul', description: NUL }],
        ['POST', '/veriface', verifaceBody(svc.orgA.email, { name: NUL })],
        ['POST', '/document/upload', pdfProcess(svc.orgA, { name: NUL })],
        ['POST', '/document/upload', pdfProcess(svc.orgA, { signProfile: [{ name: NUL, email: 'a@people.test' }] })],
        ['POST', '/document/cancel', { email: svc.orgA.email, documents: ['TR99AQMY31'], message: NUL }],
      ];
      for (const [method, url, body] of cases) {
        const res = await call(svc.app, method as 'POST', url, { key: keyA(), body });
        expect(res.statusCode, `${url} ${JSON.stringify(Object.keys(body))}`).toBe(400);
        expect(res.json()).toEqual({ message: 'TEXT_HAS_NUL: text may not contain the character U+0000' });
      }
    });

    it('reference link names, and query strings', async () => {
      const template = (await call(svc.app, 'POST', '/template', { key: keyA(), body: sampleTemplate() })).json().id;
      const link = await call(svc.app, 'POST', '/template/reference', { key: keyA(), body: { template, name: NUL } });
      expect(link.statusCode).toBe(400);
      const list = await call(svc.app, 'GET', '/template', { key: keyA(), query: { cursor: 'a\u0000b' } });
      expect(list.statusCode).toBe(400);
      expect(list.json()).toEqual({ message: 'TEXT_HAS_NUL: text may not contain the character U+0000' });
      const rows = await svc.deps.db.selectFrom('templates').select('name').execute();
      expect(rows.some((row) => row.name.includes('\u0000'))).toBe(false);
    });
  });

  describe('a lone UTF-16 surrogate in any text is the same 400 on both stores, like U+0000', () => {
    const LONE = 'Ana \ud800 Gómez';
    const REFUSED = { message: 'TEXT_NOT_WELL_FORMED: text may not contain a lone UTF-16 surrogate (U+D800 to U+DFFF)' };
    it('in values and keys of bodies: nothing is stored', async () => {
      const cases: [string, string, Record<string, unknown>][] = [
        ['POST', '/template', sampleTemplate({ name: LONE })],
        ['POST', '/webhooks', { name: 'lone', url: 'https://hooks.example.test/lone', description: LONE }],
        ['POST', '/veriface', verifaceBody(svc.orgA.email, { name: LONE })],
        ['POST', '/veriface', verifaceBody(svc.orgA.email, { custom: { 'key \udfff': 'value' } })],
        ['POST', '/document/upload', pdfProcess(svc.orgA, { signProfile: [{ name: 'Ana \udc00', email: 'a@people.test' }] })],
      ];
      for (const [method, url, body] of cases) {
        const res = await call(svc.app, method as 'POST', url, { key: keyA(), body });
        expect(res.statusCode, url).toBe(400);
        expect(res.json(), url).toEqual(REFUSED);
      }
      const names = (await svc.deps.db.selectFrom('veriface_processes').select('name').execute()).map((row) => row.name);
      expect(names.filter((name) => name.includes('Gómez') || name.includes('\ufffd'))).toEqual([]);
    });

    it('a well-formed pair of surrogates (an emoji) is kept as sent, and only by its organization', async () => {
      const created = await call(svc.app, 'POST', '/veriface', { key: keyA(), body: verifaceBody(svc.orgA.email, { name: 'Ana 😀 Pérez' }) });
      expect(created.statusCode).toBe(200);
      const code = created.json().code;
      const read = await call(svc.app, 'GET', '/veriface', { key: keyA(), query: { code } });
      expect(read.json().name).toBe('Ana 😀 Pérez');
      expect((await call(svc.app, 'GET', '/veriface', { key: svc.orgB.privateKey, query: { code } })).statusCode).toBe(400);
    });
  });

  describe('every 4xx is exactly {"message": ...}', () => {
    it('headers too large: 431 {message} and Connection: close', async () => {
      const answer = parseRaw(await rawExchange(port, `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`));
      expect(answer.status).toBe(431);
      expect(answer.headers).toContain('connection: close');
      expect(answer.body).toEqual({ message: 'HEADERS_TOO_LARGE: the request headers are too large' });
    });

    it('malformed framing: 400 {message}', async () => {
      const answer = parseRaw(await rawExchange(port, 'POST /v1.5/ext/template HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n'));
      expect(answer.status).toBe(400);
      expect(answer.headers).toContain('connection: close');
      expect(answer.body).toEqual({ message: 'BAD_REQUEST: the request is not valid HTTP' });
    });

    it('a URL that cannot be decoded: 400 {message}', async () => {
      const res = await svc.app.inject({ method: 'GET', url: '/v1.5/ext/template/%E0%A4%A', headers: { authorization: keyA() } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: 'BAD_REQUEST: the URL is not valid' });
    });

    it('a text/plain body on a JSON route: 415 {message}', async () => {
      const res = await call(svc.app, 'POST', '/template', { key: keyA(), body: JSON.stringify(sampleTemplate()), headers: { 'content-type': 'text/plain' } });
      expect(res.statusCode).toBe(415);
      expect(res.json()).toEqual({ message: 'UNSUPPORTED_MEDIA_TYPE: send the body as application/json' });
    });

    it('a __proto__ key is named as such, not as invalid JSON', async () => {
      const body = `{"name":"x","__proto__":{"polluted":true}}`;
      const res = await call(svc.app, 'POST', '/webhooks', { key: keyA(), body, headers: { 'content-type': 'application/json' } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: 'BODY_FORBIDDEN_KEY: the key "__proto__" is not accepted' });
    });

    it('invalid and empty JSON bodies', async () => {
      const broken = await call(svc.app, 'POST', '/webhooks', { key: keyA(), body: '{"name":', headers: { 'content-type': 'application/json' } });
      expect(broken.json()).toEqual({ message: 'BODY_NOT_JSON: the body is not valid JSON' });
      const empty = await call(svc.app, 'POST', '/webhooks', { key: keyA(), body: '', headers: { 'content-type': 'application/json' } });
      expect(empty.json()).toEqual({ message: 'BODY_REQUIRED: send the request as a JSON body' });
      const none = await call(svc.app, 'POST', '/template', { key: keyA() });
      expect(none.statusCode).toBe(400);
      expect(none.json()).toEqual({ message: 'BODY_REQUIRED: send the request as a JSON body' });
      // A route that takes no body does not mind an empty one labelled JSON, as some clients send.
      const list = await call(svc.app, 'GET', '/webhooks', { key: keyA(), headers: { 'content-type': 'application/json' } });
      expect(list.statusCode).toBe(200);
    });
  });

  describe('the server bounds how long it waits for a request, its headers and an idle connection', () => {
    it('request, headers and keep-alive timeouts are set from the configuration', () => {
      expect(svc.app.server.requestTimeout).toBe(svc.config.timeouts.requestMs);
      expect(svc.app.server.headersTimeout).toBe(svc.config.timeouts.headersMs);
      expect(svc.app.server.keepAliveTimeout).toBe(svc.config.timeouts.keepAliveMs);
      expect(svc.config.timeouts.headersMs).toBeLessThan(svc.config.timeouts.requestMs);
    });
  });
});

describe.each(dialects)('failed authentication is limited per client address (%s)', (dialect) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService(dialect, { AUTH_FAILURES_MAX: '5', AUTH_FAILURES_WINDOW_S: '60' });
  });
  afterAll(async () => svc.close());

  const from = (remoteAddress: string, key: string) =>
    svc.app.inject({ method: 'GET', url: '/v1.5/ext/template', headers: { authorization: key }, remoteAddress });
  const randomKey = () => `prk_${[...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('')}`;

  it('past AUTH_FAILURES_MAX failures an address gets 429 {message} with Retry-After, even with a right key', async () => {
    for (let i = 0; i < 5; i++) expect((await from('203.0.113.7', randomKey())).statusCode).toBe(401);
    const refused = await from('203.0.113.7', randomKey());
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ message: expect.stringMatching(/^TOO_MANY_REQUESTS: try again in \d+ s$/) });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await from('203.0.113.7', svc.orgA.privateKey)).statusCode).toBe(429);
  });

  it('other addresses and keys already admitted keep working', async () => {
    expect((await from('198.51.100.9', svc.orgB.privateKey)).statusCode).toBe(200);
    expect((await from('198.51.100.9', randomKey())).statusCode).toBe(401);
  });

  it('a real public key on a write is a 401 that does not count as a guess', async () => {
    for (let i = 0; i < 8; i++) {
      const res = await svc.app.inject({
        method: 'POST',
        url: '/v1.5/ext/webhooks',
        headers: { authorization: svc.orgA.publicKey },
        remoteAddress: '192.0.2.44',
        payload: {},
      });
      expect(res.statusCode).toBe(401);
    }
    expect((await from('192.0.2.44', svc.orgA.privateKey)).statusCode).toBe(200);
  });
});

describe("a JSON body's texts are checked however the JSON writes them", () => {
  const LONE = { message: 'TEXT_NOT_WELL_FORMED: text may not contain a lone UTF-16 surrogate (U+D800 to U+DFFF)' };
  const NUL = { message: 'TEXT_HAS_NUL: text may not contain the character U+0000' };
  const refusal = (text: string): unknown => {
    try {
      parseJsonBody(text);
      return undefined;
    } catch (error) {
      return { message: answerOf(error).message };
    }
  };

  it('as an escape, in a value or a key, or as a lone surrogate written raw in the text itself', () => {
    expect(refusal('{"name":"Ana \\u0000"}')).toEqual(NUL);
    expect(refusal('{"name":"Ana \\ud800"}')).toEqual(LONE);
    expect(refusal('{"custom":{"key \\udfff":"value"}}')).toEqual(LONE);
    expect(refusal(`{"name":"Ana ${'\ud800'} Gómez"}`)).toEqual(LONE);
    expect(refusal(`{"name":"Ana ${'\udc00'}"}`)).toEqual(LONE);
  });

  it('a body with no escape and no surrogate is answered as parsed, its depth and keys still checked', () => {
    const text = JSON.stringify(sampleTemplate({ name: 'Ana Gómez 😀' }));
    expect(parseJsonBody(text)).toEqual(JSON.parse(text));
    expect(refusal('{"name":"x","__proto__":{"polluted":true}}')).toEqual({ message: 'BODY_FORBIDDEN_KEY: the key "__proto__" is not accepted' });
    expect(refusal(`${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}`)).toEqual({
      message: `BODY_TOO_DEEP: objects and arrays may nest at most ${MAX_JSON_DEPTH} levels`,
    });
  });
});
