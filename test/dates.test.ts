import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expireDueProcesses } from '../src/documents/lifecycle/process-sweeps.js';
import { expireDueVerifaces } from '../src/veriface/expire-verifaces.js';
import { verifaceBody } from './support/fixtures.js';
import { call, dialects, startTestService, type TestService } from './support/service.js';
import { pdfProcess } from './support/signing.js';

const LATEST = '9999-12-31T23:59:59.999Z';
const PAST_9999 = '+010000-01-01T00:00:00.000Z';
const BEFORE_0000 = '-000001-01-01T00:00:00.000Z';

describe.each(dialects)('dates (%s)', (dialect) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService(dialect);
  });
  afterAll(async () => svc.close());

  const creations = (expiredDate: string) =>
    [
      ['/document/upload', pdfProcess(svc.orgA, { expiredDate })],
      ['/veriface', verifaceBody(svc.orgA.email, { expiredDate })],
    ] as const;

  /** Every date the stores hold has the one shape `toISOString()` gives years 0000 to 9999. */
  async function storedExpiries(): Promise<string[]> {
    const processes = await svc.deps.db.selectFrom('processes').select('expires_at').execute();
    const verifaces = await svc.deps.db.selectFrom('veriface_processes').select('expires_at').execute();
    return [...processes, ...verifaces].flatMap((row) => (row.expires_at === null ? [] : [row.expires_at]));
  }

  describe('years 0000 to 9999 only: a date past 9999 or before 0000 is a 400 naming the field, never a 500', () => {
    it('expiredDate of +010000 and of -000001, on processes and face validations; nothing is stored', async () => {
      for (const [url, body] of creations(PAST_9999)) {
        const res = await call(svc.app, 'POST', url, { key: svc.orgA.privateKey, body });
        expect(res.statusCode, url).toBe(400);
        expect(res.json(), url).toEqual({ message: `"expiredDate" must be less than or equal to "${LATEST}"` });
      }
      for (const [url, body] of creations(BEFORE_0000)) {
        const res = await call(svc.app, 'POST', url, { key: svc.orgA.privateKey, body });
        expect(res.statusCode, url).toBe(400);
        expect(res.json(), url).toEqual({ message: '"expiredDate" must be greater than or equal to "0000-01-01T00:00:00.000Z"' });
      }
      for (const expiry of await storedExpiries()) expect(expiry).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    });

    it('a list cursor naming a date past 9999 is refused', async () => {
      const cursor = Buffer.from(`${PAST_9999}|${'a'.repeat(24)}`).toString('base64url');
      const res = await call(svc.app, 'GET', '/template', { key: svc.orgA.privateKey, query: { cursor } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: '"cursor" is invalid' });
    });
  });

  describe('dates are compared as instants: the last instant of 9999 expires nothing today', () => {
    it('a process and a face validation expiring at 9999-12-31T23:59:59.999Z stay in progress through the sweeps, seen only by their organization', async () => {
      const offset = await call(svc.app, 'POST', '/document/upload', {
        key: svc.orgA.privateKey,
        body: pdfProcess(svc.orgA, { expiredDate: '9999-12-31T23:59:59.999-00:00' }),
      });
      expect(offset.statusCode).toBe(200);
      const codes: string[] = [];
      for (const [url, body] of creations(LATEST)) {
        const res = await call(svc.app, 'POST', url, { key: svc.orgA.privateKey, body });
        expect(res.statusCode, url).toBe(200);
        codes.push(res.json().code);
      }
      const [processCode = '', verifaceCode = ''] = codes;
      svc.clock.advance(60_000);
      await expireDueProcesses(svc.deps);
      await expireDueVerifaces(svc.deps.db, svc.clock);
      for (const code of [offset.json().code, processCode]) {
        const read = await call(svc.app, 'GET', '/document', { key: svc.orgA.privateKey, query: { code } });
        expect(read.json()).toMatchObject({ status: 'CREATED', expiredDate: LATEST });
        expect((await call(svc.app, 'GET', '/document', { key: svc.orgB.privateKey, query: { code } })).statusCode).toBe(400);
      }
      const veriface = await call(svc.app, 'GET', '/veriface', { key: svc.orgA.privateKey, query: { code: verifaceCode } });
      expect(veriface.json()).toMatchObject({ status: 'INPROGRESS', expiredDate: LATEST });
      expect((await call(svc.app, 'GET', '/veriface', { key: svc.orgB.privateKey, query: { code: verifaceCode } })).statusCode).toBe(400);
    });
  });
});
