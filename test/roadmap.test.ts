import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser, renameUser } from '../src/organizations/organizations.js';
import { call, dialects, startTestService, type TestOrganization, type TestService } from './support/service.js';
import { PDF_BASE64, stored } from './support/signing.js';

const PHONE = '+573001234567';
const ANA_IP = '190.24.10.55';
const LUIS_IP = '181.49.7.12';

/**
 * REFERENCE §3.5: GET /document/roadmap answers `author {name?, email}`, each participant with their
 * `ipAddress`, each action with the `ip` the person's request came from, and leaves optional keys
 * out when empty, never null or "".
 */
describe.each(dialects)('GET /document/roadmap: author, addresses and empty keys (%s)', (dialect) => {
  let svc: TestService;
  let proxied: TestService;
  let oneHop: TestService;
  beforeAll(async () => {
    svc = await startTestService(dialect);
    proxied = await startTestService(dialect, { TRUST_PROXY: '127.0.0.1' });
    oneHop = await startTestService(dialect, { TRUST_PROXY: '1' });
  });
  afterAll(async () => {
    await svc.close();
    await proxied.close();
    await oneHop.close();
  });

  /** A request of a person's page, from `remoteAddress`, with the headers given. */
  const page = (service: TestService, token: string, from: { remoteAddress: string; headers?: Record<string, string> }, path = '', body?: object) =>
    service.app.inject({
      method: body ? 'POST' : 'GET',
      url: `/people/signing${path}`,
      remoteAddress: from.remoteAddress,
      headers: { 'x-link-token': token, ...from.headers },
      ...(body ? { payload: body } : {}),
    });
  /** The person opens the page, sees the document and signs, every request from `from`. */
  const readAndSign = async (service: TestService, token: string, from: { remoteAddress: string; headers?: Record<string, string> }) => {
    expect((await page(service, token, from)).statusCode).toBe(200);
    expect((await page(service, token, from, '/opened', { document: 0 })).statusCode).toBe(200);
    expect((await page(service, token, from, '/sign', { consent: true })).statusCode).toBe(200);
  };
  const create = async (service: TestService, org: TestOrganization, creator = org.email) => {
    const res = await call(service.app, 'POST', '/document/upload', {
      key: org.privateKey,
      body: {
        email: creator,
        name: 'Lease',
        file: PDF_BASE64,
        signProfile: [
          { name: 'Ana', email: 'ana@people.test', phone: PHONE },
          { name: 'Luis', email: 'luis@people.test' },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const code: string = res.json().code;
    return { code, participants: (await stored(service, org, code)).participants };
  };
  const roadmap = async (service: TestService, org: TestOrganization, code: string) => {
    const res = await call(service.app, 'GET', '/document/roadmap', { key: org.privateKey, query: { code } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  /** Every value of the answer, however deep: none may be null or "". */
  const values = (value: unknown): unknown[] =>
    Array.isArray(value) ? value.flatMap(values) : typeof value === 'object' && value !== null ? Object.values(value).flatMap(values) : [value];

  describe('author: the creator, with their name when their user has one', () => {
    it('a user with a name: author {name, email}; without one: author {email}, no empty name', async () => {
      await addUser(svc.deps.db, svc.clock, { organizationId: svc.orgA.id, email: 'clerk@acme.test', name: 'Clara Ruiz' });
      const named = await create(svc, svc.orgA, 'clerk@acme.test');
      expect((await roadmap(svc, svc.orgA, named.code)).author).toEqual({ name: 'Clara Ruiz', email: 'clerk@acme.test' });

      const unnamed = await create(svc, svc.orgA);
      expect((await roadmap(svc, svc.orgA, unnamed.code)).author).toEqual({ email: svc.orgA.email });
      await renameUser(svc.deps.db, { organizationId: svc.orgA.id, email: svc.orgA.email, name: 'Olga Owner' });
      expect((await roadmap(svc, svc.orgA, unnamed.code)).author).toEqual({ name: 'Olga Owner', email: svc.orgA.email });
      await renameUser(svc.deps.db, { organizationId: svc.orgA.id, email: svc.orgA.email, name: '' });
      expect((await roadmap(svc, svc.orgA, unnamed.code)).author).toEqual({ email: svc.orgA.email });
    });

    it("a user of another organization with the same e-mail never names A's author", async () => {
      await addUser(svc.deps.db, svc.clock, { organizationId: svc.orgB.id, email: 'shared@people.test', name: 'Bruno of Globex' });
      await addUser(svc.deps.db, svc.clock, { organizationId: svc.orgA.id, email: 'shared@people.test' });
      const { code } = await create(svc, svc.orgA, 'shared@people.test');
      expect((await roadmap(svc, svc.orgA, code)).author).toEqual({ email: 'shared@people.test' });
      expect((await call(svc.app, 'GET', '/document/roadmap', { key: svc.orgB.privateKey, query: { code } })).json()).toEqual({
        message: 'DOCUMENT_NOT_FOUND',
      });
    });
  });

  describe("ip: the address each person's request came from; ipAddress: the participant's latest", () => {
    it('opening, viewing and signing carry the ip; what the service does alone (CREATE, NOTIFICATION_SIGN) carries none', async () => {
      const { code, participants } = await create(svc, svc.orgA);
      const [ana, luis] = participants;
      await readAndSign(svc, ana!.link_token, { remoteAddress: ANA_IP });
      await readAndSign(svc, luis!.link_token, { remoteAddress: LUIS_IP });
      const trail = await roadmap(svc, svc.orgA, code);
      expect(trail.participants).toEqual([
        { id: ana!.participant_id, name: 'Ana', role: 'SIGNER', email: 'ana@people.test', phone: PHONE, ipAddress: ANA_IP },
        { id: luis!.participant_id, name: 'Luis', role: 'SIGNER', email: 'luis@people.test', ipAddress: LUIS_IP },
      ]);
      const line = (action: string, participant: string) =>
        trail.activityLog.find((l: { action: string; participant: string }) => l.action === action && l.participant === participant);
      for (const [who, ip] of [
        [ana!.participant_id, ANA_IP],
        [luis!.participant_id, LUIS_IP],
      ] as const) {
        for (const action of ['PARTICIPANT_READ', 'DOCUMENT_OPENED', 'PARTICIPANT_SIGN']) expect(line(action, who)).toMatchObject({ action, ip });
        expect(line('NOTIFICATION_SIGN', who)).not.toHaveProperty('ip');
      }
      expect(line('CREATE', 'ARCHIVE')).toEqual({ action: 'CREATE', participant: 'ARCHIVE', timestamp: expect.any(String), by: svc.orgA.email });
      expect(values(trail).filter((v) => v === null || v === '')).toEqual([]);
    });

    it('a rejection carries the ip of the request that rejected, beside its reason', async () => {
      const { code, participants } = await create(svc, svc.orgA);
      const from = { remoteAddress: ANA_IP };
      expect((await page(svc, participants[0]!.link_token, from)).statusCode).toBe(200);
      expect((await page(svc, participants[0]!.link_token, from, '/reject', { reason: 'Not agreed' })).statusCode).toBe(200);
      const trail = await roadmap(svc, svc.orgA, code);
      expect(trail.activityLog.find((l: { action: string }) => l.action === 'PARTICIPANT_REJECT')).toMatchObject({
        participant: participants[0]!.participant_id,
        ip: ANA_IP,
        message: 'Not agreed',
      });
      expect(trail.participants[1]).not.toHaveProperty('ipAddress');
    });

    it('behind a proxy: X-Forwarded-For is believed only from an address TRUST_PROXY names', async () => {
      const viaProxy = { remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': ANA_IP } };
      const trusted = await create(proxied, proxied.orgA);
      await readAndSign(proxied, trusted.participants[0]!.link_token, viaProxy);
      expect((await roadmap(proxied, proxied.orgA, trusted.code)).participants[0]).toMatchObject({ ipAddress: ANA_IP });

      const untrusted = await create(svc, svc.orgA);
      await readAndSign(svc, untrusted.participants[0]!.link_token, viaProxy);
      expect((await roadmap(svc, svc.orgA, untrusted.code)).participants[0]).toMatchObject({ ipAddress: '127.0.0.1' });
    });

    it('behind one proxy (TRUST_PROXY=1): the address that proxy saw is believed, never what the client wrote before it', async () => {
      // The client wrote 198.51.100.7 itself; the proxy appended the address it saw, Ana's.
      const forged = { remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': `198.51.100.7, ${ANA_IP}` } };
      const process = await create(oneHop, oneHop.orgA);
      await readAndSign(oneHop, process.participants[0]!.link_token, forged);
      expect((await roadmap(oneHop, oneHop.orgA, process.code)).participants[0]).toMatchObject({ ipAddress: ANA_IP });
    });
  });
});
