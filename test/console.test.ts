import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_HOURS, SESSION_IDLE_MINUTES } from '../src/console/sessions.js';
import { MAX_CODE_FAILURES, SIGN_IN_MINUTES, SIGN_INS_PER_EMAIL } from '../src/console/sign-in.js';
import { addUser } from '../src/organizations/organizations.js';
import { CONSOLE_ORIGIN, consoleCall, sessionCookieOf, signedInUser, signInEmail } from './support/console.js';
import { ANSWERS } from './support/fixtures.js';
import { call, dialects, startTestService, type TestService } from './support/service.js';
import { createProcess, outbox, pdfProcess, templateWithHtml } from './support/signing.js';
import { runOutbox } from './support/whatsapp-service.js';

describe.each(dialects)('the operator console (%s)', (dialect) => {
  let svc: TestService;
  let address = 0;
  /** Each test from an address of its own, so that the per-address limits of one do not reach another. */
  const nextAddress = () => `198.51.100.${++address}`;
  /** The sign-in e-mails sent to `email`, once the outbox ran the jobs asked for. */
  const sentTo = async (email: string) => {
    await runOutbox(svc);
    return (await outbox(svc, 'email')).filter((row) => row.body.to === email).length;
  };

  beforeAll(async () => {
    svc = await startTestService(dialect);
  });
  afterAll(async () => svc.close());

  describe('sign-in by an e-mailed link: single use, short-lived, only its hash stored', () => {
    it('the link opens a session once, in a __Host- Secure HttpOnly SameSite=Strict cookie, and a second use is refused', async () => {
      const remoteAddress = nextAddress();
      await addUser(svc.deps.db, svc.clock, { organizationId: svc.orgA.id, email: 'link@acme.test' });
      expect((await consoleCall(svc, 'POST', '/console/api/sign-in', { body: { email: 'LINK@acme.test ' }, remoteAddress })).json()).toEqual({ sent: true });
      const { token, code } = await signInEmail(svc, svc.orgA, 'link@acme.test');
      const first = await consoleCall(svc, 'POST', '/console/api/sign-in/link', { body: { token }, remoteAddress });
      expect(first.headers['cache-control']).toBe('no-store');
      expect(first.json()).toEqual({ email: 'link@acme.test', role: 'sender', organization: { id: svc.orgA.id, name: 'Acme' } });
      const setCookie = String(first.headers['set-cookie']);
      expect(setCookie).toMatch(/^__Host-console-session=[A-Za-z0-9_-]{43}; Max-Age=43200; Path=\/; HttpOnly; SameSite=Strict; Secure$/);
      const again = await consoleCall(svc, 'POST', '/console/api/sign-in/link', { body: { token }, remoteAddress });
      expect([again.statusCode, again.json()]).toEqual([401, { message: 'CONSOLE_SIGN_IN_INVALID' }]);
      // The code of the same e-mail went with its link.
      const byCode = await consoleCall(svc, 'POST', '/console/api/sign-in/code', { body: { email: 'link@acme.test', code }, remoteAddress });
      expect(byCode.statusCode).toBe(401);
      const cookieValue = sessionCookieOf(first).split('=')[1] ?? '';
      const stored = JSON.stringify([
        await svc.deps.db.selectFrom('console_sign_ins').selectAll().execute(),
        await svc.deps.db.selectFrom('console_sessions').selectAll().execute(),
      ]);
      for (const secret of [token, code, cookieValue]) expect(stored).not.toContain(secret);
    });

    it(`the link and the code expire after ${SIGN_IN_MINUTES} minutes`, async () => {
      const remoteAddress = nextAddress();
      await addUser(svc.deps.db, svc.clock, { organizationId: svc.orgA.id, email: 'late@acme.test' });
      await consoleCall(svc, 'POST', '/console/api/sign-in', { body: { email: 'late@acme.test' }, remoteAddress });
      const { token, code } = await signInEmail(svc, svc.orgA, 'late@acme.test');
      svc.clock.advance(SIGN_IN_MINUTES * 60_000);
      expect((await consoleCall(svc, 'POST', '/console/api/sign-in/link', { body: { token }, remoteAddress })).statusCode).toBe(401);
      expect((await consoleCall(svc, 'POST', '/console/api/sign-in/code', { body: { email: 'late@acme.test', code }, remoteAddress })).statusCode).toBe(401);
    });

    it("the e-mail is in the organization's language and names the organization; the code is never in its subject", async () => {
      const remoteAddress = nextAddress();
      expect((await call(svc.app, 'PUT', '/organization', { key: svc.orgB.privateKey, body: { language: 'fr' } })).statusCode).toBe(200);
      await addUser(svc.deps.db, svc.clock, { organizationId: svc.orgB.id, email: 'langue@globex.test' });
      await consoleCall(svc, 'POST', '/console/api/sign-in', { body: { email: 'langue@globex.test' }, remoteAddress });
      const mail = await signInEmail(svc, svc.orgB, 'langue@globex.test');
      expect(mail.subject).toBe('Connectez-vous à la console de Globex');
      expect(mail.subject).not.toContain(mail.code);
      expect(mail.text).toContain(`${svc.config.publicUrl}/console#sign-in=${mail.token}`);
    });
  });

  describe('sign-in by the e-mailed code, typed on another device', () => {
    it(`the right code opens a session; ${MAX_CODE_FAILURES} wrong ones wear the e-mail's sign-ins out, the right code included`, async () => {
      const remoteAddress = nextAddress();
      await addUser(svc.deps.db, svc.clock, { organizationId: svc.orgA.id, email: 'code@acme.test', role: 'admin' });
      await consoleCall(svc, 'POST', '/console/api/sign-in', { body: { email: 'code@acme.test' }, remoteAddress });
      const first = await signInEmail(svc, svc.orgA, 'code@acme.test');
      const ok = await consoleCall(svc, 'POST', '/console/api/sign-in/code', { body: { email: 'code@acme.test', code: ` ${first.code} ` }, remoteAddress });
      expect(ok.json()).toMatchObject({ email: 'code@acme.test', role: 'admin' });

      await consoleCall(svc, 'POST', '/console/api/sign-in', { body: { email: 'code@acme.test' }, remoteAddress });
      const second = await signInEmail(svc, svc.orgA, 'code@acme.test');
      const wrong = second.code === '000000' ? '111111' : '000000';
      for (let i = 0; i < MAX_CODE_FAILURES; i++) {
        const res = await consoleCall(svc, 'POST', '/console/api/sign-in/code', { body: { email: 'code@acme.test', code: wrong }, remoteAddress });
        expect([res.statusCode, res.json()]).toEqual([401, { message: 'CONSOLE_SIGN_IN_INVALID' }]);
      }
      const worn = await consoleCall(svc, 'POST', '/console/api/sign-in/code', { body: { email: 'code@acme.test', code: second.code }, remoteAddress });
      expect(worn.statusCode).toBe(401);
      const audit = await svc.deps.db.selectFrom('console_audit').select('action').where('email', '=', 'code@acme.test').execute();
      expect(audit.filter((row) => row.action === 'SIGN_IN_REFUSED')).toHaveLength(MAX_CODE_FAILURES);
    });
  });

  describe('no account enumeration: an unknown e-mail gets the same answer as a known one', () => {
    it('same status, body and work, and nothing is sent to the unknown one', async () => {
      const remoteAddress = nextAddress();
      const jobs = async () => (await outbox(svc, 'job')).filter((row) => row.body.name === 'console-sign-in').length;
      const before = await jobs();
      const known = await consoleCall(svc, 'POST', '/console/api/sign-in', { body: { email: svc.orgA.email }, remoteAddress });
      const unknown = await consoleCall(svc, 'POST', '/console/api/sign-in', { body: { email: 'nobody@acme.test' }, remoteAddress });
      expect([unknown.statusCode, unknown.body]).toEqual([known.statusCode, known.body]);
      // The same work for both, whose time therefore says nothing either: one job queued each, which looks the e-mail up later.
      expect(await jobs()).toBe(before + 2);
      expect(await sentTo('nobody@acme.test')).toBe(0);
      const code = await consoleCall(svc, 'POST', '/console/api/sign-in/code', { body: { email: 'nobody@acme.test', code: '123456' }, remoteAddress });
      expect([code.statusCode, code.json()]).toEqual([401, { message: 'CONSOLE_SIGN_IN_INVALID' }]);
    });

    it(`past ${SIGN_INS_PER_EMAIL} e-mails to one address in ${SIGN_IN_MINUTES} minutes nothing more is sent, with the same answer`, async () => {
      await addUser(svc.deps.db, svc.clock, { organizationId: svc.orgB.id, email: 'flood@globex.test' });
      const answers = [];
      for (let i = 0; i < SIGN_INS_PER_EMAIL + 2; i++) {
        answers.push((await consoleCall(svc, 'POST', '/console/api/sign-in', { body: { email: 'flood@globex.test' }, remoteAddress: nextAddress() })).body);
        await runOutbox(svc);
      }
      expect(new Set(answers)).toEqual(new Set(['{"sent":true}']));
      expect(await sentTo('flood@globex.test')).toBe(SIGN_INS_PER_EMAIL);
      svc.clock.advance(SIGN_IN_MINUTES * 60_000 + 1);
      await consoleCall(svc, 'POST', '/console/api/sign-in', { body: { email: 'flood@globex.test' }, remoteAddress: nextAddress() });
      expect(await sentTo('flood@globex.test')).toBe(SIGN_INS_PER_EMAIL + 1);
    });

    it('one client address asks for at most 10 e-mails in a quarter of an hour (429 past it), whatever the addresses', async () => {
      const remoteAddress = nextAddress();
      const statuses = [];
      for (let i = 0; i < 11; i++) {
        statuses.push((await consoleCall(svc, 'POST', '/console/api/sign-in', { body: { email: `guess${i}@acme.test` }, remoteAddress })).statusCode);
      }
      expect(statuses).toEqual([...Array(10).fill(200), 429]);
    });
  });

  describe('sessions end: signed out, idle, or past their absolute end', () => {
    it('sign-out ends the session and removes the cookie', async () => {
      const cookie = await signedInUser(svc, svc.orgA, 'out@acme.test', 'sender', nextAddress());
      const out = await consoleCall(svc, 'POST', '/console/api/sign-out', { cookie });
      expect(out.json()).toEqual({ signedOut: true });
      expect(String(out.headers['set-cookie'])).toMatch(/^__Host-console-session=; Max-Age=0; Path=\/; HttpOnly; SameSite=Strict; Secure$/);
      expect((await consoleCall(svc, 'GET', '/console/api/me', { cookie })).json()).toEqual({ message: 'CONSOLE_SIGN_IN_REQUIRED' });
    });

    it(`a session unused for ${SESSION_IDLE_MINUTES} minutes ends; one in use ends ${SESSION_HOURS} hours after sign-in`, async () => {
      const idle = await signedInUser(svc, svc.orgA, 'idle@acme.test', 'sender', nextAddress());
      svc.clock.advance(SESSION_IDLE_MINUTES * 60_000);
      expect((await consoleCall(svc, 'GET', '/console/api/me', { cookie: idle })).statusCode).toBe(401);

      const busy = await signedInUser(svc, svc.orgA, 'busy@acme.test', 'sender', nextAddress());
      for (let hour = 0; hour < SESSION_HOURS - 1; hour++) {
        svc.clock.advance(SESSION_IDLE_MINUTES * 60_000 - 60_000);
        expect((await consoleCall(svc, 'GET', '/console/api/me', { cookie: busy })).statusCode, `after ${hour + 1} idle periods`).toBe(200);
      }
      svc.clock.advance(SESSION_HOURS * 3_600_000);
      expect((await consoleCall(svc, 'GET', '/console/api/me', { cookie: busy })).statusCode).toBe(401);
    });
  });

  describe('a forged cross-site request changes nothing', () => {
    it('sign-out from another origin, or without Origin, is refused and the session stays open', async () => {
      const cookie = await signedInUser(svc, svc.orgA, 'csrf@acme.test', 'sender', nextAddress());
      for (const headers of [{ origin: 'https://attacker.example' }, { origin: 'null' }, { 'sec-fetch-site': 'cross-site' }]) {
        const res = await svc.app.inject({ method: 'POST', url: '/console/api/sign-out', headers: { cookie, ...headers } });
        expect([res.statusCode, res.json()]).toEqual([403, { message: 'CONSOLE_ORIGIN_REFUSED' }]);
      }
      expect((await consoleCall(svc, 'GET', '/console/api/me', { cookie })).statusCode).toBe(200);
    });

    it('a sign-in asked for from another site sends nothing (no login CSRF, no e-mails in a stranger’s name)', async () => {
      const before = await sentTo(svc.orgA.email);
      const res = await svc.app.inject({
        method: 'POST',
        url: '/console/api/sign-in',
        headers: { origin: 'https://attacker.example' },
        payload: { email: svc.orgA.email },
        remoteAddress: nextAddress(),
      });
      expect(res.statusCode).toBe(403);
      expect(await sentTo(svc.orgA.email)).toBe(before);
    });
  });

  describe('roles: senders see processes, never the admins’ routes; every refusal is in the audit log', () => {
    it("a sender is refused the audit log; an admin reads it, with its own organization's entries only", async () => {
      const sender = await signedInUser(svc, svc.orgB, 'sender@globex.test', 'sender', nextAddress());
      const refused = await consoleCall(svc, 'GET', '/console/api/audit', { cookie: sender });
      expect([refused.statusCode, refused.json()]).toEqual([403, { message: 'CONSOLE_ADMIN_REQUIRED' }]);
      const admin = await signedInUser(svc, svc.orgB, svc.orgB.email, 'admin', nextAddress());
      const audit = (await consoleCall(svc, 'GET', '/console/api/audit', { cookie: admin, query: { limit: '200' } })).json();
      const actions = audit.data.map((entry: { action: string; email: string }) => `${entry.action} ${entry.email}`);
      expect(actions).toContain('ADMIN_REQUIRED sender@globex.test');
      expect(actions).toContain('SIGN_IN sender@globex.test');
      expect(actions).toContain(`SIGN_IN_REQUESTED ${svc.orgB.email}`);
      expect(JSON.stringify(audit)).not.toContain('@acme.test');
    });
  });

  describe("the processes: searched and filtered, page by page, the organization's own only", () => {
    it("by a participant's e-mail or name, the code, the status, the template and the creation date; B's never", async () => {
      const template = await templateWithHtml(svc, svc.orgA);
      const lease = await createProcess(
        svc,
        svc.orgA,
        '/document/upload',
        pdfProcess(svc.orgA, { name: 'Lease 100%', signProfile: [{ name: 'Juana Pérez', email: 'Juana@People.test' }] }),
      );
      const sale = await createProcess(svc, svc.orgA, '/document/save', { document: template, data: ANSWERS, email: svc.orgA.email, name: 'Sale' });
      const theirs = await createProcess(
        svc,
        svc.orgB,
        '/document/upload',
        pdfProcess(svc.orgB, { name: 'Lease', signProfile: [{ name: 'Juana Pérez', email: 'juana@people.test' }] }),
      );
      const cookie = await signedInUser(svc, svc.orgA, 'search@acme.test', 'sender', nextAddress());
      const codes = async (query: Record<string, string>) =>
        (await consoleCall(svc, 'GET', '/console/api/processes', { cookie, query })).json().data.map((p: { code: string }) => p.code);
      expect(await codes({ q: 'juana@people.TEST' })).toEqual([lease]);
      expect(await codes({ q: 'juana pérez' })).toEqual([lease]);
      expect(await codes({ q: lease.toLowerCase() })).toEqual([lease]);
      expect(await codes({ q: '100%' })).toEqual([lease]);
      expect(await codes({ q: '_' })).toEqual([]);
      expect(await codes({ q: theirs })).toEqual([]);
      expect(await codes({ template })).toEqual([sale]);
      expect(await codes({ q: 'Sale', status: 'CANCELLED' })).toEqual([]);
      const now = svc.clock.now().getTime();
      expect(await codes({ q: 'Sale', from: new Date(now - 60_000).toISOString(), to: new Date(now + 60_000).toISOString() })).toEqual([sale]);
      expect(await codes({ q: 'Sale', from: new Date(now + 60_000).toISOString() })).toEqual([]);
      const first = (await consoleCall(svc, 'GET', '/console/api/processes', { cookie, query: { limit: '1' } })).json();
      const second = (await consoleCall(svc, 'GET', '/console/api/processes', { cookie, query: { limit: '1', cursor: first.next } })).json();
      expect([...first.data, ...second.data].map((p: { code: string }) => p.code)).toEqual([sale, lease]);
    });

    it("a process opens to its participants and their states and its timeline; B's code is answered as an unknown one", async () => {
      const code = await createProcess(
        svc,
        svc.orgA,
        '/document/upload',
        pdfProcess(svc.orgA, { signProfile: [{ name: 'Ana Gómez', email: 'ana@people.test' }] }),
      );
      const theirs = await createProcess(svc, svc.orgB, '/document/upload', pdfProcess(svc.orgB));
      const cookie = await signedInUser(svc, svc.orgA, 'reader@acme.test', 'sender', nextAddress());
      const detail = (await consoleCall(svc, 'GET', '/console/api/process', { cookie, query: { code } })).json();
      expect(detail.process.signProfile).toMatchObject([{ name: 'Ana Gómez', email: 'ana@people.test', status: 'NOTIFICATION' }]);
      expect(detail.roadmap.activityLog.map((e: { action: string }) => e.action)).toContain('CREATE');
      const foreign = await consoleCall(svc, 'GET', '/console/api/process', { cookie, query: { code: theirs } });
      const unknown = await consoleCall(svc, 'GET', '/console/api/process', { cookie, query: { code: 'ZZZZZZZZZZ' } });
      expect([foreign.statusCode, foreign.json()]).toEqual([unknown.statusCode, unknown.json()]);
      expect(foreign.json()).toEqual({ message: 'DOCUMENT_NOT_FOUND' });
    });
  });

  describe('a user of two organizations gets one e-mail for each, and each link opens its own', () => {
    it("each session sees its organization's processes only", async () => {
      for (const org of [svc.orgA, svc.orgB]) await addUser(svc.deps.db, svc.clock, { organizationId: org.id, email: 'both@two.test' });
      await consoleCall(svc, 'POST', '/console/api/sign-in', { body: { email: 'both@two.test' }, remoteAddress: nextAddress() });
      for (const org of [svc.orgA, svc.orgB]) {
        const { token } = await signInEmail(svc, org, 'both@two.test');
        const res = await consoleCall(svc, 'POST', '/console/api/sign-in/link', { body: { token } });
        expect(res.json().organization.id).toBe(org.id);
        const me = (await consoleCall(svc, 'GET', '/console/api/me', { cookie: sessionCookieOf(res) })).json();
        expect(me.organization.id).toBe(org.id);
      }
    });
  });

  it('the page is served with a strict policy: scripts from this origin only, framed by nobody', async () => {
    const page = await consoleCall(svc, 'GET', '/console', { headers: { 'accept-language': 'pt-BR' } });
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.body).toContain('<html lang="pt">');
    expect(CONSOLE_ORIGIN).toBe(svc.config.publicUrl);
  });
});
