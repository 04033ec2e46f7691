import http from 'node:http';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../src/organizations/organizations.js';
import { launchBrowser, type PhoneBrowser, screenshot } from './support/browser.js';
import { askForMail as askForMailOn, type ConsoleSite, expectAccessible, signInWithMailedLink } from './support/console-browser.js';
import { portOf } from './support/ports.js';
import { startServedService, type TestOrganization, type TestService } from './support/service.js';
import { createProcess, pdfProcess } from './support/signing.js';

describe('the operator console in Chromium', () => {
  let svc: TestService;
  let base: string;
  let browser: PhoneBrowser;
  let attacker: http.Server;
  let attackerOrigin: string;
  const mailsTo = new Map<string, number>();

  const site = (): ConsoleSite => ({ svc, base, mailsTo });
  const askForMail = (page: Page, email: string) => askForMailOn(page, site(), email);
  const signedInPage = async (email: string) => signInWithMailedLink(await (await browser.phone()).newPage(), site(), email);

  const status = (page: Page, path: string, init?: { method: string; body: string }) =>
    page.evaluate(
      async ([url, options]) =>
        (await fetch(url as string, options ? { ...(options as RequestInit), headers: { 'content-type': 'application/json' } } : {})).status,
      [path, init] as const,
    );

  let processOfA: string;
  let processOfB: string;

  beforeAll(async () => {
    ({ svc, base } = await startServedService('sqlite'));
    const organization = (org: TestOrganization, name: string) => pdfProcess(org, { name, signProfile: [{ name: 'Juana Pérez', email: 'juana@people.test' }] });
    processOfA = await createProcess(svc, svc.orgA, '/document/upload', organization(svc.orgA, 'Contrato de arriendo'));
    await createProcess(svc, svc.orgA, '/document/upload', pdfProcess(svc.orgA, { name: 'Otro contrato' }));
    processOfB = await createProcess(svc, svc.orgB, '/document/upload', organization(svc.orgB, 'Contrato de Globex'));
    await addUser(svc.deps.db, svc.clock, { organizationId: svc.orgA.id, email: 'remitente@acme.test' });
    await addUser(svc.deps.db, svc.clock, { organizationId: svc.orgA.id, email: 'lector@acme.test', role: 'viewer' });
    browser = await launchBrowser();
    // Another site, whose page tries to make the signed-in user's browser sign out of the console.
    attacker = http.createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(`<!doctype html><html lang="en"><head><title>Prize</title></head><body>
<form id="forged" method="POST" action="${base}/console/api/sign-out" enctype="text/plain"><input name='{"a":"' value='"}'></form>
<script>
window.outcome = fetch('${base}/console/api/sign-out', { method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'content-type': 'text/plain' }, body: '{}' })
  .then(() => 'sent', () => 'failed');
</script></body></html>`);
    });
    await new Promise<void>((resolve) => attacker.listen(0, 'localhost', resolve));
    attackerOrigin = `http://localhost:${portOf(attacker.address())}`;
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    attacker?.close();
    await svc?.close();
  });

  it('a user signs in with the e-mailed link, finds a process by a participant’s e-mail, opens it and sees its timeline; axe finds nothing', async () => {
    const page = await (await browser.phone()).newPage();
    await page.goto(`${base}/console`);
    await page.getByRole('heading', { name: 'Entrar a la consola' }).waitFor();
    await expectAccessible(page, 'sign-in');
    const { link } = await askForMail(page, svc.orgA.email);
    await expectAccessible(page, 'code');
    await page.goto(link);
    await page.getByRole('heading', { name: 'Procesos' }).waitFor();
    // The link's token left the address bar: it was good once.
    expect(page.url()).toBe(`${base}/console`);
    await page.getByText(`${svc.orgA.email} en Acme`).waitFor();
    await page.getByRole('button', { name: /Otro contrato/ }).waitFor();
    await expectAccessible(page, 'processes');

    await page.getByLabel('Buscar', { exact: true }).fill('juana@people.test');
    await page.getByRole('button', { name: 'Buscar', exact: true }).click();
    await page.getByText('1 procesos mostrados').waitFor();
    await page.getByRole('button', { name: /Contrato de arriendo/ }).click();
    await page.getByRole('heading', { name: 'Contrato de arriendo' }).waitFor();
    await page.getByRole('heading', { name: 'Línea de tiempo' }).waitFor();
    expect(await page.locator('ol.timeline li').count()).toBeGreaterThanOrEqual(1);
    // Events in words, never by their codes (CREATE, NOTIFICATION_SIGN).
    const timeline = (await page.locator('ol.timeline').textContent()) ?? '';
    expect(timeline).toContain('Proceso creado');
    expect(timeline).toContain('Invitación a firmar enviada');
    expect(timeline).not.toMatch(/CREATE|NOTIFICATION_SIGN/);
    // The document downloads through the session, as an attachment.
    const [saved] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Documento: Contrato de arriendo' }).click()]);
    expect(saved.suggestedFilename()).toMatch(/\.pdf$/);
    expect(await page.getByRole('link', { name: /^Firmado:/ }).count()).toBe(0);
    const participant = page.locator('.people li', { hasText: 'Juana Pérez' });
    await participant.getByText('Invitado').waitFor();
    await expectAccessible(page, 'process');
    await screenshot(page, '50-console-process');

    await page.getByRole('button', { name: 'Volver a los procesos' }).click();
    await page.getByRole('heading', { name: 'Procesos' }).waitFor();
    expect(await page.getByLabel('Buscar', { exact: true }).inputValue()).toBe('juana@people.test');
    // Used once: the same link opens nothing again.
    const again = await (await browser.phone()).newPage();
    await again.goto(link);
    await again.getByText('Ese enlace o código no sirve').waitFor();
  }, 120_000);

  it('a user of another organization sees nothing of the first', async () => {
    const page = await signedInPage(svc.orgB.email);
    await page.getByLabel('Buscar', { exact: true }).fill('juana@people.test');
    await page.getByRole('button', { name: 'Buscar', exact: true }).click();
    await page.getByText('1 procesos mostrados').waitFor();
    await page.getByRole('button', { name: /Contrato de Globex/ }).waitFor();
    expect(await page.getByRole('button', { name: /Contrato de arriendo/ }).count()).toBe(0);
    expect(await status(page, `/console/api/process?code=${processOfA}`)).toBe(400);
    expect(await status(page, `/console/api/process?code=${processOfB}`)).toBe(200);
  }, 120_000);

  it('a sender, signed in with the typed code, cannot reach the admins’ routes nor the review queue', async () => {
    const page = await (await browser.phone()).newPage();
    const { code } = await askForMail(page, 'remitente@acme.test');
    await page.getByLabel('Código del correo').fill(code);
    await page.getByRole('button', { name: 'Entrar con el código' }).click();
    await page.getByRole('heading', { name: 'Procesos' }).waitFor();
    await page.getByText('(remitente)').waitFor();
    // Identity data is a reviewer's or an admin's: a sender's page offers no review queue, and the service refuses it.
    expect(await page.getByRole('button', { name: 'Revisión' }).count()).toBe(0);
    expect(await status(page, '/console/api/review')).toBe(403);
    expect(await status(page, '/console/api/audit')).toBe(403);
    expect(await status(page, '/console/api/processes')).toBe(200);
  }, 120_000);

  it('a viewer reads processes and templates and is offered no action on them; the service refuses their change with 403 CONSOLE_SENDER_REQUIRED', async () => {
    const page = await (await browser.phone()).newPage();
    const { code } = await askForMail(page, 'lector@acme.test');
    await page.getByLabel('Código del correo').fill(code);
    await page.getByRole('button', { name: 'Entrar con el código' }).click();
    await page.getByText('(lector)').waitFor();
    await page.getByRole('button', { name: /Contrato de arriendo/ }).click();
    await page.getByRole('heading', { name: 'Línea de tiempo' }).waitFor();
    expect(await page.getByRole('button', { name: 'Cancelar el proceso' }).count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Acciones' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Plantillas' }).click();
    await page.getByRole('heading', { name: 'Plantillas' }).waitFor();
    expect(await page.getByRole('button', { name: 'Crear la plantilla' }).count()).toBe(0);
    expect(await status(page, '/console/api/process/cancel', { method: 'POST', body: JSON.stringify({ code: processOfA, reason: 'No' }) })).toBe(403);
    expect(await status(page, '/console/api/processes')).toBe(200);
  }, 120_000);

  it("opened at another name of the machine than PUBLIC_URL's, the page says where to open it, and nothing is sent", async () => {
    const page = await (await browser.phone()).newPage();
    await page.goto(`${base.replace('127.0.0.1', 'localhost')}/console`);
    await page.getByLabel('Correo electrónico').fill(svc.orgA.email);
    await page.getByRole('button', { name: 'Enviarme el enlace' }).click();
    await page.getByRole('alert').getByText('Abre la consola en la dirección pública del servicio').waitFor();
    const requests = await svc.deps.db.selectFrom('console_sign_ins').select('id').where('email', '=', svc.orgA.email).execute();
    expect(requests).toHaveLength(mailsTo.get(svc.orgA.email) ?? 0);
  }, 120_000);

  it('a forged cross-site POST changes nothing: the session stays open', async () => {
    const page = await signedInPage(svc.orgA.email);
    const forged = await page.context().newPage();
    await forged.goto(`${attackerOrigin}/`);
    await forged.evaluate(() => (window as unknown as { outcome: Promise<string> }).outcome);
    await forged.evaluate(() => (document.getElementById('forged') as HTMLFormElement).submit());
    await forged.waitForLoadState();
    expect(await status(page, '/console/api/me')).toBe(200);
    const signOuts = await svc.deps.db.selectFrom('console_audit').select('action').where('action', '=', 'SIGN_OUT').execute();
    expect(signOuts).toEqual([]);
    // The console's own sign-out, from its page, does end it.
    await page.getByRole('button', { name: 'Salir' }).click();
    await page.getByText('Saliste de la consola.').waitFor();
    expect(await status(page, '/console/api/me')).toBe(401);
  }, 120_000);
});
