import { generate } from 'otplib';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setOrganizationOidc } from '../src/console/oidc/settings.js';
import { SIGN_IN_MINUTES } from '../src/console/sign-in.js';
import { launchBrowser, type PhoneBrowser, screenshot } from './support/browser.js';
import { askForMail, type ConsoleSite, expectAccessible, signInWithMailedLink } from './support/console-browser.js';
import { type IdentityProvider, startIdentityProvider } from './support/identity-provider.js';
import { closedPort } from './support/ports.js';
import { dialects, startTestService, type TestService } from './support/service.js';

/*
 * The console page's stronger sign-in: passkeys through Chromium's virtual authenticator (CDP
 * WebAuthn domain), the code of an authenticator app computed here from the secret the page shows,
 * and single sign-on through a real OpenID Connect provider on a loopback port. The service's
 * PUBLIC_URL is http://localhost: a passkey's relying party is a domain, never an IP address.
 */
describe.each(dialects)("the console's stronger sign-in on the page, in Chromium (%s)", (dialect) => {
  let svc: TestService;
  let site: ConsoleSite;
  let browser: PhoneBrowser;
  let idp: IdentityProvider;
  /** Organization A's user's browser, with its authenticator, kept from one test to the next. */
  let pageOfA: Page;
  let secretOfA = '';

  /** The code the user's authenticator app shows at the service's clock, `stepsAhead` steps of 30 seconds on. */
  const appCode = async (secret: string, stepsAhead = 0) => generate({ secret, epoch: Math.floor(svc.clock.now().getTime() / 1000) + stepsAhead * 30 });

  /** A phone's browser with a passkey authenticator built in (a platform one, unlocked by the user's biometrics). */
  async function phoneWithAuthenticator(): Promise<{ context: BrowserContext; page: Page; credentials(): Promise<unknown[]> }> {
    const context = await browser.phone();
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
    });
    return { context, page, credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials };
  }

  const signOut = async (page: Page) => {
    await page.getByRole('button', { name: 'Salir' }).click();
    await page.getByText('Saliste de la consola.').waitFor();
  };

  const openSecurity = async (page: Page) => {
    await page.getByRole('button', { name: 'Seguridad' }).click();
    await page.getByRole('heading', { name: 'Seguridad', level: 1 }).waitFor();
  };

  beforeAll(async () => {
    const port = await closedPort();
    const base = `http://localhost:${port}`;
    svc = await startTestService(dialect, { PUBLIC_URL: base });
    await svc.app.listen({ port, host: '127.0.0.1' });
    svc.deps.startBackgroundWork();
    site = { svc, base, mailsTo: new Map() };
    const redirectUri = `${base}/console/api/sign-in/oidc/callback`;
    idp = await startIdentityProvider([
      { clientId: 'acme-console', clientSecret: 'acme-secret-0123456789', redirectUri },
      { clientId: 'globex-console', clientSecret: 'globex-secret-0123456789', redirectUri },
    ]);
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await idp?.close();
    await svc?.close();
  });

  describe('passkeys: added on the security page, then a sign-in without the e-mail', () => {
    it('a user signs in by mail, adds a passkey, signs out and signs in with the passkey alone; axe finds nothing', async () => {
      const phone = await phoneWithAuthenticator();
      pageOfA = phone.page;
      await signInWithMailedLink(pageOfA, site, svc.orgA.email);
      await openSecurity(pageOfA);
      await pageOfA.getByText('Aún no agregaste llaves de acceso.').waitFor();
      await pageOfA.getByRole('button', { name: 'Agregar una llave de acceso' }).click();
      await pageOfA.getByText('Listo: agregaste una llave de acceso.', { exact: false }).waitFor();
      await pageOfA.getByText(/^Llave 1: agregada el/).waitFor();
      expect(await phone.credentials()).toHaveLength(1);
      await expectAccessible(pageOfA, 'security section with a passkey');
      await screenshot(pageOfA, '55-console-security');

      await signOut(pageOfA);
      await expectAccessible(pageOfA, 'sign-in with its other ways');
      await screenshot(pageOfA, '56-console-sign-in-ways');
      await pageOfA.getByRole('button', { name: 'Entrar con una llave de acceso' }).click();
      await pageOfA.getByRole('heading', { name: 'Procesos' }).waitFor();
      await pageOfA.getByText(`${svc.orgA.email} en Acme`).waitFor();
      await openSecurity(pageOfA);
      await pageOfA.getByText(/usada por última vez el/).waitFor();
    }, 120_000);

    it('a passkey removed no longer signs in: the page says so in plain words', async () => {
      const phone = await phoneWithAuthenticator();
      await signInWithMailedLink(phone.page, site, svc.orgA.email);
      await openSecurity(phone.page);
      await phone.page.getByRole('button', { name: 'Agregar una llave de acceso' }).click();
      await phone.page.getByText(/^Llave 2: agregada el/).waitFor();
      await phone.page.getByRole('button', { name: 'Quitar la llave 2' }).click();
      await phone.page.getByText('Quitaste la llave de acceso: ya no sirve para entrar.').waitFor();
      expect(await phone.page.getByText(/^Llave 2:/).count()).toBe(0);
      await signOut(phone.page);
      await phone.page.getByRole('button', { name: 'Entrar con una llave de acceso' }).click();
      await phone.page.getByText('Esa llave de acceso no sirve aquí', { exact: false }).waitFor();
      await phone.context.close();
    }, 120_000);
    it('a console opened at an IP address offers no passkey: a passkey belongs to a domain name', async () => {
      const page = await (await browser.phone()).newPage();
      await page.goto(`${site.base.replace('localhost', '127.0.0.1')}/console`);
      await page.getByRole('button', { name: 'Entrar con mi organización' }).waitFor();
      expect(await page.getByRole('button', { name: 'Entrar con una llave de acceso' }).count()).toBe(0);
      await page.context().close();
    }, 60_000);
  });

  describe('the code of an authenticator app: turned on with a first code, then asked after the e-mail', () => {
    it('a user turns it on from the shown secret; a sign-in by mail then asks for the code, a wrong code is refused and the right one opens the console; axe finds nothing', async () => {
      await pageOfA.getByText('Desactivado.', { exact: false }).waitFor();
      await pageOfA.getByRole('button', { name: 'Activar el código de una app' }).click();
      await pageOfA.getByRole('img', { name: 'Código QR para tu app de autenticación' }).waitFor();
      secretOfA = (await pageOfA.locator('#totp-secret').textContent()) ?? '';
      expect(secretOfA).toMatch(/^[A-Z2-7]{16,}$/);
      await pageOfA.locator('#totp-enrolment').scrollIntoViewIfNeeded();
      await expectAccessible(pageOfA, 'TOTP enrolment');
      await screenshot(pageOfA, '57-console-totp-enrol');

      await pageOfA.getByLabel('Código de la app (6 dígitos)').fill(await appCode(secretOfA, 10));
      await pageOfA.getByRole('button', { name: 'Confirmar', exact: true }).click();
      await pageOfA.getByText('Ese código no coincide.', { exact: false }).waitFor();
      await pageOfA.getByLabel('Código de la app (6 dígitos)').fill(await appCode(secretOfA));
      await pageOfA.getByRole('button', { name: 'Confirmar', exact: true }).click();
      await pageOfA.getByText('Listo: desde ahora', { exact: false }).waitFor();
      await pageOfA.getByText('Activado:', { exact: false }).waitFor();
      expect(await pageOfA.locator('#totp-secret').count()).toBe(0);
      // The next sign-in must not meet the enrolment's own code: a minute on.
      svc.clock.advance(60_000);

      await signOut(pageOfA);
      const { link } = await askForMail(pageOfA, site, svc.orgA.email);
      await pageOfA.goto(link);
      await pageOfA.getByRole('heading', { name: 'Falta un paso' }).waitFor();
      await expectAccessible(pageOfA, 'second-factor prompt');
      await screenshot(pageOfA, '58-console-second-factor');
      // The session the link began opens nothing yet.
      expect(await pageOfA.evaluate(async () => (await fetch('/console/api/me')).status)).toBe(401);

      await pageOfA.getByLabel('Código de la app (6 dígitos)').fill(await appCode(secretOfA, 10));
      await pageOfA.getByRole('button', { name: 'Entrar', exact: true }).click();
      await pageOfA.getByText('Ese código no es el que muestra tu app ahora.', { exact: false }).waitFor();
      await expectAccessible(pageOfA, 'second-factor prompt, a wrong code refused');
      // Past its five minutes the waiting sign-in is over: the page says so and starts again (a
      // quarter of an hour on, so that this address may be sent another sign-in e-mail).
      svc.clock.advance((SIGN_IN_MINUTES + 1) * 60_000);
      await pageOfA.getByLabel('Código de la app (6 dígitos)').fill(await appCode(secretOfA));
      await pageOfA.getByRole('button', { name: 'Entrar', exact: true }).click();
      await pageOfA.getByText('Este inicio de sesión ya no espera el código', { exact: false }).waitFor();
      await pageOfA.goto((await askForMail(pageOfA, site, svc.orgA.email)).link);
      await pageOfA.getByRole('heading', { name: 'Falta un paso' }).waitFor();
      await pageOfA.getByLabel('Código de la app (6 dígitos)').fill(await appCode(secretOfA));
      await pageOfA.getByRole('button', { name: 'Entrar', exact: true }).click();
      await pageOfA.getByRole('heading', { name: 'Procesos' }).waitFor();
      await pageOfA.getByText(`${svc.orgA.email} en Acme`).waitFor();
    }, 120_000);

    it('a passkey sign-in asks for no code: the authenticator checked the user already', async () => {
      await signOut(pageOfA);
      await pageOfA.getByRole('button', { name: 'Entrar con una llave de acceso' }).click();
      await pageOfA.getByRole('heading', { name: 'Procesos' }).waitFor();
    }, 60_000);
  });

  describe("organizations never see each other's passkeys", () => {
    it("a user of organization B sees none of A's passkeys and cannot remove them", async () => {
      const page = await (await browser.phone()).newPage();
      await signInWithMailedLink(page, site, svc.orgB.email);
      await openSecurity(page);
      await page.getByText('Aún no agregaste llaves de acceso.').waitFor();
      const listOf = (of: Page) => of.evaluate(async () => (await (await fetch('/console/api/passkeys')).json()) as { data: { id: string }[] });
      const ofA = await listOf(pageOfA);
      expect(ofA.data).toHaveLength(1);
      expect((await listOf(page)).data).toEqual([]);
      const removal = await page.evaluate(
        async (id) =>
          (await fetch('/console/api/passkeys/remove', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id }) }))
            .status,
        ofA.data[0]?.id,
      );
      expect(removal).toBe(404);
      expect((await listOf(pageOfA)).data).toEqual(ofA.data);
      await page.context().close();
    }, 120_000);
  });

  describe('"Entrar con mi organización": the organization\'s identity provider, and back', () => {
    it('a user of an organization with single sign-on goes to its provider and comes back signed in', async () => {
      await setOrganizationOidc(svc.deps.db, {
        organizationId: svc.orgB.id,
        oidc: { issuer: idp.issuer, clientId: 'globex-console', clientSecret: 'globex-secret-0123456789' },
        dataKey: svc.deps.dataKey,
      });
      const page = await (await browser.phone()).newPage();
      await page.goto(`${site.base}/console`);
      idp.signInAs({ email: svc.orgB.email, verified: true });
      await page.getByLabel('Correo electrónico').fill(svc.orgB.email);
      await page.getByRole('button', { name: 'Entrar con mi organización' }).click();
      await page.getByRole('heading', { name: 'Procesos' }).waitFor();
      await page.getByText(`${svc.orgB.email} en Globex`).waitFor();
      expect(new URL(page.url()).hash).toBe('');
      await page.context().close();
    }, 120_000);

    it('a sign-in the provider does not confirm comes back to a plain refusal; an organization without single sign-on is told to use the e-mail', async () => {
      const page = await (await browser.phone()).newPage();
      await page.goto(`${site.base}/console`);
      await page.getByRole('button', { name: 'Entrar con mi organización' }).click();
      await page.getByText('Escribe primero tu correo de trabajo.').waitFor();

      idp.signInAs({ email: svc.orgB.email, verified: false });
      await page.getByLabel('Correo electrónico').fill(svc.orgB.email);
      await page.getByRole('button', { name: 'Entrar con mi organización' }).click();
      await page.getByText('Tu organización no pudo confirmar quién eres', { exact: false }).waitFor();
      expect(new URL(page.url()).hash).toBe('');
      await expectAccessible(page, 'sign-in refused');
      await screenshot(page, '59-console-sign-in-refused');

      await page.getByLabel('Correo electrónico').fill(svc.orgA.email);
      await page.getByRole('button', { name: 'Entrar con mi organización' }).click();
      await page.getByText('Tu organización no tiene inicio de sesión único.', { exact: false }).waitFor();
      expect(new URL(page.url()).origin).toBe(site.base);
      await page.context().close();
    }, 120_000);

    it('a user with the code of an app on comes back from the provider to the code, and the code opens the console', async () => {
      await setOrganizationOidc(svc.deps.db, {
        organizationId: svc.orgA.id,
        oidc: { issuer: idp.issuer, clientId: 'acme-console', clientSecret: 'acme-secret-0123456789' },
        dataKey: svc.deps.dataKey,
      });
      svc.clock.advance(60_000);
      const page = await (await browser.phone()).newPage();
      await page.goto(`${site.base}/console`);
      idp.signInAs({ email: svc.orgA.email, verified: true });
      await page.getByLabel('Correo electrónico').fill(svc.orgA.email);
      await page.getByRole('button', { name: 'Entrar con mi organización' }).click();
      await page.getByRole('heading', { name: 'Falta un paso' }).waitFor();
      await page.getByLabel('Código de la app (6 dígitos)').fill(await appCode(secretOfA));
      await page.getByRole('button', { name: 'Entrar', exact: true }).click();
      await page.getByRole('heading', { name: 'Procesos' }).waitFor();
      await page.context().close();
    }, 120_000);
  });
});
