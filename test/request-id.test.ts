import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess } from './support/server-process.js';
import { call, startTestService, type TestService } from './support/service.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('every answer carries its request id in x-request-id, errors and unknown routes included', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService('sqlite');
  });
  afterAll(async () => {
    await svc?.close();
  });

  it('a success, a refusal of each stage (key, validation, the handler), an unknown route and an undecodable URL each carry a new id of their own', async () => {
    const answers = [
      await svc.app.inject({ method: 'GET', url: '/health' }),
      await call(svc.app, 'GET', '/template', { query: { id: 'x' } }),
      await call(svc.app, 'GET', '/template', { key: svc.orgA.privateKey, query: { nope: '1' } }),
      await call(svc.app, 'GET', '/template', { key: svc.orgA.privateKey, query: { id: '000000000000000000000000' } }),
      await svc.app.inject({ method: 'GET', url: '/no/such/route' }),
      await svc.app.inject({ method: 'GET', url: '/v1.5/ext/template/%E0%A4%A' }),
    ];
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 401, 400, 404, 404, 400]);
    const ids = answers.map((answer) => answer.headers['x-request-id']);
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("a proxy's well-formed id is kept, so one id follows the request through both logs", async () => {
    for (const sent of ['4bf92f3577b34da6a3ce929d0e0e4736', 'req-1.lb:7', 'a'.repeat(128)]) {
      const answer = await call(svc.app, 'GET', '/template', { headers: { 'x-request-id': sent }, query: { id: 'x' } });
      expect(answer.headers['x-request-id']).toBe(sent);
    }
  });

  it('an id that is not well formed (too long, spaces, other characters) is replaced by a new one', async () => {
    for (const sent of ['a'.repeat(129), 'two words', 'id"}{"level":60', '']) {
      const answer = await svc.app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': sent } });
      expect(answer.headers['x-request-id']).toMatch(UUID);
    }
  });
});

describe("every log line of a request carries its id (reqId), as the request's logger writes it", { timeout: 120_000 }, () => {
  it('the lines of a success, a refusal and an unknown route each name the id their answer carries', async () => {
    const server = await startServerProcess({ terminal: false });
    try {
      // /health answers 503 until the face workers and the renderer are ready; the success must be one.
      await expect.poll(async () => (await fetch(`http://127.0.0.1:${server.port}/health`)).status, { timeout: 100_000, interval: 500 }).toBe(200);
      const sent = ['ok-1', 'refused-2', 'unknown-3'];
      const urls = ['/health', '/v1.5/ext/template?id=x', '/no/such/route'];
      const statuses: number[] = [];
      for (const [i, url] of urls.entries()) {
        const answer = await fetch(`http://127.0.0.1:${server.port}${url}`, { headers: { 'x-request-id': sent[i] ?? '' } });
        expect(answer.headers.get('x-request-id')).toBe(sent[i]);
        statuses.push(answer.status);
      }
      expect(statuses).toEqual([200, 401, 404]);
      const lines = () =>
        server
          .output()
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .map((line): Record<string, unknown> => JSON.parse(line));
      await expect.poll(() => lines().filter((line) => line.msg === 'request completed' && sent.includes(String(line.reqId))).length).toBe(3);
      const ofRequests = lines().filter((line) => 'req' in line || 'res' in line);
      for (const id of sent) {
        const own = ofRequests.filter((line) => line.reqId === id);
        expect(own.map((line) => line.msg)).toEqual(['incoming request', 'request completed']);
      }
      expect(ofRequests.every((line) => typeof line.reqId === 'string')).toBe(true);
    } finally {
      await server.stop();
    }
  });
});
