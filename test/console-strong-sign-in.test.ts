import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setOrganizationOidc } from '../src/console/oidc/settings.js';
import { MAX_TOTP_FAILURES, resetTotp } from '../src/console/totp/totp.js';
import { addUser } from '../src/organizations/organizations.js';
import { CONSOLE_ORIGIN, consoleCall, sessionCookieOf, signedInUser, signInEmail } from './support/console.js';
import { type IdentityProvider, startIdentityProvider } from './support/identity-provider.js';
import { softPasskey } from './support/passkey-authenticator.js';
import { dialects, localPath, startTestService, type TestService } from './support/service.js';

describe.each(dialects)("the console's stronger sign-in (%s)", (dialect) => {
  let svc: TestService;
  let idp: IdentityProvider;
  let address = 0;
  const nextAddress = () => `203.0.113.${++address}`;
  /** The code the user's authenticator app shows at the service's clock, `stepsAhead` steps of 30 seconds on. */
  const appCode = (secret: string, stepsAhead = 0) => generate({ secret, epoch: Math.floor(svc.clock.now().getTime() / 1000) + stepsAhead * 30 });
  const audit = async (email: string) =>
    (
      await svc.deps.db
        .selectFrom('console_audit')
        .select(['action', 'organization_id', 'detail'])
        .where('email', '=', email)
        .orderBy('created_at')
        .orderBy('id')
        .execute()
    ).map((row) => row.action);

  /** Signs in by the e-mailed link: the answer (which may wait for a TOTP code) and its cookie. */
  async function linkSignIn(org: TestService['orgA'], email: string) {
    const remoteAddress = nextAddress();
    await consoleCall(svc, 'POST', '/console/api/sign-in', { body: { email }, remoteAddress });
    const { token } = await signInEmail(svc, org, email);
    const res = await consoleCall(svc, 'POST', '/console/api/sign-in/link', { body: { token }, remoteAddress });
    return { res, cookie: sessionCookieOf(res), remoteAddress };
  }

  /** A user of `org` with TOTP on: the secret their app holds. */
  async function enrolled(org: TestService['orgA'], email: string): Promise<string> {
    const cookie = await signedInUser(svc, org, email, 'sender', nextAddress());
    const started = await consoleCall(svc, 'POST', '/console/api/totp/enrol', { cookie });
    expect(started.statusCode, started.body).toBe(200);
    const { secret, uri, qr } = started.json<{ secret: string; uri: string; qr: string }>();
    expect(uri).toMatch(/^otpauth:\/\/totp\//);
    expect(qr).toMatch(/^data:image\/svg\+xml;base64,/);
    const confirmed = await consoleCall(svc, 'POST', '/console/api/totp/confirm', { cookie, body: { code: await appCode(secret) } });
    expect(confirmed.json()).toEqual({ enabled: true });
    // The next sign-in must not meet the enrolment's own code: a minute on.
    svc.clock.advance(60_000);
    return secret;
  }

  beforeAll(async () => {
    svc = await startTestService(dialect);
    const redirectUri = `${svc.config.publicUrl}/console/api/sign-in/oidc/callback`;
    idp = await startIdentityProvider([
      { clientId: 'acme-console', clientSecret: 'acme-secret-0123456789', redirectUri },
      { clientId: 'globex-console', clientSecret: 'globex-secret-0123456789', redirectUri },
    ]);
  });
  afterAll(async () => {
    await idp?.close();
    await svc?.close();
  });

  describe('TOTP: optional, enrolled with a first code, then asked after the e-mailed link', () => {
    it('the secret is stored encrypted; sign-in answers secondFactor and the half-open session opens nothing until the code', async () => {
      const secret = await enrolled(svc.orgA, 'totp@acme.test');
      const stored = await svc.deps.db.selectFrom('console_totp').selectAll().execute();
      expect(JSON.stringify(stored)).not.toContain(secret);

      const { res, cookie, remoteAddress } = await linkSignIn(svc.orgA, 'totp@acme.test');
      expect(res.json()).toMatchObject({ email: 'totp@acme.test', secondFactor: 'totp' });
      expect(String(res.headers['set-cookie'])).toContain('Max-Age=300');
      expect((await consoleCall(svc, 'GET', '/console/api/me', { cookie })).statusCode).toBe(401);
      const code = await appCode(secret);
      const done = await consoleCall(svc, 'POST', '/console/api/sign-in/totp', { cookie, body: { code }, remoteAddress });
      expect(done.statusCode, done.body).toBe(200);
      expect(String(done.headers['set-cookie'])).toContain('Max-Age=43200');
      const opened = sessionCookieOf(done);
      expect((await consoleCall(svc, 'GET', '/console/api/me', { cookie: opened })).statusCode).toBe(200);

      // The same code, replayed in the window it is good for, opens no other session.
      const second = await linkSignIn(svc.orgA, 'totp@acme.test');
      const replay = await consoleCall(svc, 'POST', '/console/api/sign-in/totp', {
        cookie: second.cookie,
        body: { code },
        remoteAddress: second.remoteAddress,
      });
      expect([replay.statusCode, replay.json()]).toEqual([400, { message: 'CONSOLE_TOTP_INVALID' }]);
      expect(await audit('totp@acme.test')).toEqual(expect.arrayContaining(['TOTP_ENROLLED', 'SIGN_IN_STARTED', 'SIGN_IN', 'SIGN_IN_REFUSED']));
    });

    it("the session's token is replaced when its second factor completes: the waiting token opens nothing afterwards", async () => {
      const secret = await enrolled(svc.orgB, 'rotated@globex.test');
      const { cookie, remoteAddress } = await linkSignIn(svc.orgB, 'rotated@globex.test');
      const done = await consoleCall(svc, 'POST', '/console/api/sign-in/totp', { cookie, body: { code: await appCode(secret) }, remoteAddress });
      expect(done.statusCode, done.body).toBe(200);
      const opened = sessionCookieOf(done);
      expect(opened).not.toBe(cookie);
      // Whoever saw the cookie before the code was typed (a shared machine, a planted cookie) holds nothing.
      expect((await consoleCall(svc, 'GET', '/console/api/me', { cookie })).statusCode).toBe(401);
      const me = await consoleCall(svc, 'GET', '/console/api/me', { cookie: opened });
      expect([me.statusCode, me.json().email]).toEqual([200, 'rotated@globex.test']);
    });

    it(`${MAX_TOTP_FAILURES} wrong codes end the waiting session, the right code included`, async () => {
      const secret = await enrolled(svc.orgA, 'guess@acme.test');
      const { cookie, remoteAddress } = await linkSignIn(svc.orgA, 'guess@acme.test');
      const right = await appCode(secret);
      const wrong = right === '000000' ? '111111' : '000000';
      const answers = [];
      for (let i = 0; i < MAX_TOTP_FAILURES; i++) {
        answers.push((await consoleCall(svc, 'POST', '/console/api/sign-in/totp', { cookie, body: { code: wrong }, remoteAddress })).json().message);
      }
      // Each wrong code is told as such; the last one says the sign-in is over, so the page starts again.
      expect(answers).toEqual([...Array(MAX_TOTP_FAILURES - 1).fill('CONSOLE_TOTP_INVALID'), 'CONSOLE_SECOND_FACTOR_OVER']);
      const late = await consoleCall(svc, 'POST', '/console/api/sign-in/totp', { cookie, body: { code: right }, remoteAddress });
      expect([late.statusCode, late.json()]).toEqual([401, { message: 'CONSOLE_SECOND_FACTOR_OVER' }]);
    });

    it('a second enrolment is refused while TOTP is on; the admin command resets it, recorded, and sign-in asks nothing more', async () => {
      await enrolled(svc.orgA, 'lost@acme.test');
      const { cookie } = await linkSignIn(svc.orgA, 'lost@acme.test');
      expect((await consoleCall(svc, 'POST', '/console/api/totp/enrol', { cookie })).statusCode).toBe(401);
      expect(await resetTotp(svc.deps.db, svc.clock, { organizationId: svc.orgA.id, email: 'lost@acme.test' })).toEqual({
        email: 'lost@acme.test',
        totpReset: true,
      });
      const after = await linkSignIn(svc.orgA, 'lost@acme.test');
      expect(after.res.json()).not.toHaveProperty('secondFactor');
      expect(await audit('lost@acme.test')).toContain('TOTP_RESET');
    });

    it("one organization's TOTP is its user's only: the same e-mail in the other organization signs in without it", async () => {
      await enrolled(svc.orgA, 'both@acme.test');
      await addUser(svc.deps.db, svc.clock, { organizationId: svc.orgB.id, email: 'both@acme.test' });
      const inB = await linkSignIn(svc.orgB, 'both@acme.test');
      expect(inB.res.json()).toMatchObject({ organization: { id: svc.orgB.id } });
      expect(inB.res.json()).not.toHaveProperty('secondFactor');
      expect((await consoleCall(svc, 'GET', '/console/api/totp', { cookie: inB.cookie })).json()).toEqual({ enabled: false });
      // B's reset does not touch A's.
      expect(await resetTotp(svc.deps.db, svc.clock, { organizationId: svc.orgB.id, email: 'both@acme.test' })).toEqual({
        email: 'both@acme.test',
        totpReset: false,
      });
    });

    it('a wrong first code does not turn TOTP on', async () => {
      const cookie = await signedInUser(svc, svc.orgB, 'typo@globex.test', 'sender', nextAddress());
      const { secret } = (await consoleCall(svc, 'POST', '/console/api/totp/enrol', { cookie })).json<{ secret: string }>();
      const wrong = (await appCode(secret)) === '000000' ? '111111' : '000000';
      const res = await consoleCall(svc, 'POST', '/console/api/totp/confirm', { cookie, body: { code: wrong } });
      expect([res.statusCode, res.json()]).toEqual([400, { message: 'CONSOLE_TOTP_INVALID' }]);
      expect((await consoleCall(svc, 'GET', '/console/api/totp', { cookie })).json()).toEqual({ enabled: false });
    });
  });

  describe('passkeys: registered by the signed-in user, single-use challenges, counters, one organization each', () => {
    it('a passkey is added, listed, signs its user in without the e-mail; its answer replayed is refused; removal is recorded', async () => {
      const cookie = await signedInUser(svc, svc.orgA, 'key@acme.test', 'sender', nextAddress());
      const authenticator = softPasskey(CONSOLE_ORIGIN);
      const options = (await consoleCall(svc, 'POST', '/console/api/passkeys/options', { cookie })).json<{
        challenge: string;
        user: { id: string };
        rp: { id: string };
      }>();
      expect(options.rp.id).toBe(new URL(svc.config.publicUrl).hostname);
      const registration = authenticator.register(options);
      const added = await consoleCall(svc, 'POST', '/console/api/passkeys', { cookie, body: { response: registration } });
      expect(added.statusCode, added.body).toBe(200);
      // The registration's challenge was used: the same answer adds nothing more.
      expect((await consoleCall(svc, 'POST', '/console/api/passkeys', { cookie, body: { response: registration } })).json()).toEqual({
        message: 'CONSOLE_PASSKEY_INVALID',
      });
      const list = (await consoleCall(svc, 'GET', '/console/api/passkeys', { cookie })).json<{ data: { id: string }[] }>();
      expect(list.data.map((p) => p.id)).toEqual([added.json<{ id: string }>().id]);

      const remoteAddress = nextAddress();
      const signIn = (await consoleCall(svc, 'POST', '/console/api/sign-in/passkey/options', { body: {}, remoteAddress })).json<{ challenge: string }>();
      const assertion = authenticator.assert(signIn);
      const res = await consoleCall(svc, 'POST', '/console/api/sign-in/passkey', { body: { response: assertion }, remoteAddress });
      expect(res.json()).toMatchObject({ email: 'key@acme.test', organization: { id: svc.orgA.id } });
      const replay = await consoleCall(svc, 'POST', '/console/api/sign-in/passkey', { body: { response: assertion }, remoteAddress });
      expect([replay.statusCode, replay.json()]).toEqual([401, { message: 'CONSOLE_SIGN_IN_INVALID' }]);

      // An expired challenge opens nothing either.
      const late = (await consoleCall(svc, 'POST', '/console/api/sign-in/passkey/options', { body: { email: 'key@acme.test' }, remoteAddress })).json<{
        challenge: string;
      }>();
      svc.clock.advance(6 * 60_000);
      expect(
        (await consoleCall(svc, 'POST', '/console/api/sign-in/passkey', { body: { response: authenticator.assert(late) }, remoteAddress })).statusCode,
      ).toBe(401);

      const removed = await consoleCall(svc, 'POST', '/console/api/passkeys/remove', { cookie: sessionCookieOf(res), body: { id: list.data[0]?.id } });
      expect(removed.json()).toEqual({ removed: true });
      expect(await audit('key@acme.test')).toEqual(expect.arrayContaining(['PASSKEY_ADDED', 'SIGN_IN', 'SIGN_IN_REFUSED', 'PASSKEY_REMOVED']));
    });

    it("a passkey of A's user never opens B's: not with B's user handle, and B's session cannot list or remove it", async () => {
      const inA = await signedInUser(svc, svc.orgA, 'twin@acme.test', 'sender', nextAddress());
      const inB = await signedInUser(svc, svc.orgB, 'twin@acme.test', 'sender', nextAddress());
      const authenticator = softPasskey(CONSOLE_ORIGIN);
      const added = await consoleCall(svc, 'POST', '/console/api/passkeys', {
        cookie: inA,
        body: { response: authenticator.register((await consoleCall(svc, 'POST', '/console/api/passkeys/options', { cookie: inA })).json()) },
      });
      const id = added.json<{ id: string }>().id;
      expect((await consoleCall(svc, 'GET', '/console/api/passkeys', { cookie: inB })).json()).toEqual({ data: [] });
      expect((await consoleCall(svc, 'POST', '/console/api/passkeys/remove', { cookie: inB, body: { id } })).statusCode).toBe(404);

      const remoteAddress = nextAddress();
      const bUser = await svc.deps.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'twin@acme.test')
        .where('organization_id', '=', svc.orgB.id)
        .executeTakeFirstOrThrow();
      const options = (await consoleCall(svc, 'POST', '/console/api/sign-in/passkey/options', { body: { email: 'twin@acme.test' }, remoteAddress })).json<{
        challenge: string;
      }>();
      const forged = authenticator.assert(options);
      const handled = { ...forged, response: { ...(forged.response as Record<string, unknown>), userHandle: Buffer.from(bUser.id).toString('base64url') } };
      expect((await consoleCall(svc, 'POST', '/console/api/sign-in/passkey', { body: { response: handled }, remoteAddress })).statusCode).toBe(401);
      const own = (await consoleCall(svc, 'POST', '/console/api/sign-in/passkey/options', { body: {}, remoteAddress })).json<{ challenge: string }>();
      const res = await consoleCall(svc, 'POST', '/console/api/sign-in/passkey', { body: { response: authenticator.assert(own) }, remoteAddress });
      expect(res.json()).toMatchObject({ organization: { id: svc.orgA.id } });
    });

    it('an e-mail without passkeys gets options that look like those of an e-mail with one', async () => {
      const remoteAddress = nextAddress();
      const options = (await consoleCall(svc, 'POST', '/console/api/sign-in/passkey/options', { body: { email: 'nobody@acme.test' }, remoteAddress })).json();
      const again = (await consoleCall(svc, 'POST', '/console/api/sign-in/passkey/options', { body: { email: 'nobody@acme.test' }, remoteAddress })).json();
      expect(options.allowCredentials).toHaveLength(1);
      expect(again.allowCredentials).toEqual(options.allowCredentials);
    });
  });

  describe('single sign-on: the organization’s OpenID Connect provider signs in its existing users only', () => {
    /** Starts single sign-on for `email` from a fresh address: the provider's URL and the browser's binding cookie. */
    async function startSso(email: string) {
      const res = await consoleCall(svc, 'POST', '/console/api/sign-in/oidc', { body: { email }, remoteAddress: nextAddress() });
      expect(res.statusCode, res.body).toBe(200);
      const { url } = res.json<{ url: string | null }>();
      const setCookie = res.headers['set-cookie'];
      return { url, binding: typeof setCookie === 'string' ? (setCookie.split(';')[0] ?? '') : '' };
    }
    const callback = async (url: URL, cookie: string) => {
      const res = await consoleCall(svc, 'GET', localPath(url.href), { cookie });
      expect(res.statusCode).toBe(200);
      return { headers: res.headers, onward: /http-equiv="refresh" content="0;url=([^"]+)"/.exec(res.body)?.[1] };
    };

    beforeAll(async () => {
      await setOrganizationOidc(svc.deps.db, {
        organizationId: svc.orgA.id,
        oidc: { issuer: idp.issuer, clientId: 'acme-console', clientSecret: 'acme-secret-0123456789' },
        dataKey: svc.deps.dataKey,
      });
      await setOrganizationOidc(svc.deps.db, {
        organizationId: svc.orgB.id,
        oidc: { issuer: idp.issuer, clientId: 'globex-console', clientSecret: 'globex-secret-0123456789' },
        dataKey: svc.deps.dataKey,
      });
      await addUser(svc.deps.db, svc.clock, { organizationId: svc.orgA.id, email: 'sso@acme.test' });
    });

    it('the verified e-mail of the ID token signs its user in, once: the callback replayed opens nothing', async () => {
      const { url, binding } = await startSso('sso@acme.test');
      expect(url).toContain(`${idp.issuer}/`);
      expect(new URL(url ?? '').searchParams.get('code_challenge_method')).toBe('S256');
      expect(binding).toMatch(/^__Host-console-oidc=/);
      idp.signInAs({ email: 'sso@acme.test', verified: true });
      const back = await idp.authorize(url ?? '');
      const res = await callback(back, binding);
      expect(res.onward).toBe('/console');
      const session = String(res.headers['set-cookie']).match(/__Host-console-session=[A-Za-z0-9_-]{43}/)?.[0] ?? '';
      expect((await consoleCall(svc, 'GET', '/console/api/me', { cookie: session })).json()).toMatchObject({
        email: 'sso@acme.test',
        organization: { id: svc.orgA.id },
      });
      const again = await callback(back, binding);
      expect(again.onward).toBe('/console#sign-in-refused');
      expect(await audit('sso@acme.test')).toContain('SIGN_IN');
    });

    it("the client secret is stored sealed with the data key: not in clear, and A's sealed secret copied onto B's row does not open", async () => {
      const secretOf = async (organizationId: string) =>
        (await svc.deps.db.selectFrom('organizations').select('oidc_client_secret').where('id', '=', organizationId).executeTakeFirstOrThrow())
          .oidc_client_secret ?? '';
      const [sealedA, sealedB] = [await secretOf(svc.orgA.id), await secretOf(svc.orgB.id)];
      expect(sealedA).not.toContain('acme-secret');
      expect(Buffer.from(sealedA, 'base64').toString('latin1')).not.toContain('acme-secret');
      await svc.deps.db.updateTable('organizations').set({ oidc_client_secret: sealedA }).where('id', '=', svc.orgB.id).execute();
      try {
        await addUser(svc.deps.db, svc.clock, { organizationId: svc.orgB.id, email: 'copied@globex.test' });
        expect((await startSso('copied@globex.test')).url).toBeNull();
      } finally {
        await svc.deps.db.updateTable('organizations').set({ oidc_client_secret: sealedB }).where('id', '=', svc.orgB.id).execute();
      }
    });

    it("another browser (without the sign-in's cookie) cannot use the callback", async () => {
      const { url } = await startSso('sso@acme.test');
      idp.signInAs({ email: 'sso@acme.test', verified: true });
      const back = await idp.authorize(url ?? '');
      expect((await callback(back, '')).onward).toBe('/console#sign-in-refused');
    });

    it("an e-mail the provider did not verify, or of no user of the organization, is refused: nobody is made a user; A's provider never opens B's user", async () => {
      await addUser(svc.deps.db, svc.clock, { organizationId: svc.orgB.id, email: 'only-b@globex.test' });
      for (const account of [
        { email: 'sso@acme.test', verified: false },
        { email: 'stranger@acme.test', verified: true },
        { email: 'only-b@globex.test', verified: true },
      ]) {
        const { url, binding } = await startSso('sso@acme.test');
        idp.signInAs(account);
        const res = await callback(await idp.authorize(url ?? ''), binding);
        expect(res.onward, account.email).toBe('/console#sign-in-refused');
        expect(String(res.headers['set-cookie'])).not.toMatch(/console-session=[A-Za-z0-9_-]{43}/);
      }
      expect(await svc.deps.db.selectFrom('users').select('id').where('email', '=', 'stranger@acme.test').execute()).toEqual([]);
      const refusals = await svc.deps.db
        .selectFrom('console_audit')
        .select(['organization_id', 'email'])
        .where('action', '=', 'SIGN_IN_REFUSED')
        .where('email', '=', 'only-b@globex.test')
        .execute();
      expect(refusals).toEqual([{ organization_id: svc.orgA.id, email: 'only-b@globex.test' }]);
    });

    it('a user with TOTP on is sent to the second factor; an e-mail without single sign-on gets url null', async () => {
      const secret = await enrolled(svc.orgB, 'sso-totp@globex.test');
      const { url, binding } = await startSso('sso-totp@globex.test');
      idp.signInAs({ email: 'sso-totp@globex.test', verified: true });
      const res = await callback(await idp.authorize(url ?? ''), binding);
      expect(res.onward).toBe('/console#second-factor');
      const cookie = String(res.headers['set-cookie']).match(/__Host-console-session=[A-Za-z0-9_-]{43}/)?.[0] ?? '';
      expect((await consoleCall(svc, 'GET', '/console/api/me', { cookie })).statusCode).toBe(401);
      const done = await consoleCall(svc, 'POST', '/console/api/sign-in/totp', { cookie, body: { code: await appCode(secret) } });
      expect(done.json()).toMatchObject({ organization: { id: svc.orgB.id } });

      await setOrganizationOidc(svc.deps.db, { organizationId: svc.orgB.id, oidc: null, dataKey: svc.deps.dataKey });
      expect((await startSso('sso-totp@globex.test')).url).toBeNull();
    });
  });
});
