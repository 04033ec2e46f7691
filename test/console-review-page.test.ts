import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../src/organizations/organizations.js';
import { launchBrowser, PHONE_VIEWPORT, type PhoneBrowser, screenshot } from './support/browser.js';
import { expectAccessible, signInWithMailedLink } from './support/console-browser.js';
import { photographedVeriface } from './support/photos.js';
import { call, startServedService, type TestService } from './support/service.js';
import { createProcess, pdfProcess } from './support/signing.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

describe("the console's review queue and process actions in Chromium", () => {
  let svc: TestService;
  let base: string;
  let browser: PhoneBrowser;
  const receiver = new WebhookReceiver();
  let validationOfA: string;
  let validationOfB: string;
  const mailsTo = new Map<string, number>();

  const signedInPage = async (email: string) => signInWithMailedLink(await (await browser.phone()).newPage(), { svc, base, mailsTo }, email);

  /** Whether every image in `scope` was fetched and decoded: the photo reached the page through the session. */
  const imagesShown = (page: Page, selector: string) =>
    page.locator(selector).evaluateAll((images) => images.map((image) => image instanceof HTMLImageElement && image.complete && image.naturalWidth > 0));

  beforeAll(async () => {
    ({ svc, base } = await startServedService('sqlite', { WEBHOOK_ALLOW_PRIVATE: 'true' }));
    const url = await receiver.start();
    receiver.secret = (await call(svc.app, 'POST', '/webhooks', { key: svc.orgA.privateKey, body: { name: 'default', url } })).json().secret;
    validationOfA = (await photographedVeriface(svc, svc.orgA, { finish: true, body: { name: 'Marta Ruiz' } })).code;
    validationOfB = (await photographedVeriface(svc, svc.orgB, { finish: true, body: { name: 'Pedro Globex' } })).code;
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await receiver.close();
    await svc?.close();
  });

  it('a user signs in with the e-mailed link, opens the review queue, sees both photos, approves the validation, and the webhook goes out; axe finds nothing', async () => {
    const page = await signedInPage(svc.orgA.email);
    await page.getByRole('button', { name: 'Revisión' }).click();
    await page.getByRole('heading', { name: 'Cola de revisión' }).waitFor();
    const item = page.getByRole('article', { name: 'Marta Ruiz' });
    await item.waitFor();
    expect(await page.getByRole('article', { name: 'Pedro Globex' }).count()).toBe(0);
    await item.getByRole('img', { name: 'Rostro: Marta Ruiz' }).waitFor();
    await item.getByRole('img', { name: 'Documento (frente): Marta Ruiz' }).waitFor();
    await expect.poll(() => imagesShown(page, '.review-item img')).toEqual([true, true]);
    await expectAccessible(page, 'review queue');
    await screenshot(page, '51-console-review');

    // The reason comes first: without it nothing is decided.
    await item.getByRole('button', { name: 'Aprobar' }).click();
    await item.getByText('Escribe el motivo antes de decidir.').waitFor();
    await item.getByLabel('Motivo de tu decisión (obligatorio)').fill('Comparé la cédula en persona');
    await item.getByRole('button', { name: 'Aprobar' }).click();
    await page.getByText('Listo: decidiste el caso de Marta Ruiz.').waitFor();
    await page.getByText('No hay nada que revisar.').waitFor();
    await expectAccessible(page, 'review queue, emptied');

    await expect
      .poll(() => receiver.received.find((hook) => hook.body.type === 'veriface.validated')?.body.data, { timeout: 20_000 })
      .toMatchObject({
        code: validationOfA,
        emailValidated: svc.orgA.email,
        reason: 'Comparé la cédula en persona',
      });
    expect(receiver.received.every((hook) => hook.verified)).toBe(true);
    // Organization B's validation is still waiting for B.
    const stillBlocked = await svc.deps.db.selectFrom('veriface_processes').select('status').where('code', '=', validationOfB).executeTakeFirstOrThrow();
    expect(stillBlocked.status).toBe('BLOCKED');
  }, 180_000);

  it("the admin's audit log shows whose photos were viewed and downloads as CSV, with nothing of another organization; axe finds nothing", async () => {
    // An admin of their own: one address is sent at most three sign-in e-mails in a quarter of an hour.
    await addUser(svc.deps.db, svc.clock, { organizationId: svc.orgA.id, email: 'auditor@acme.test', role: 'admin' });
    const page = await signedInPage('auditor@acme.test');
    await page.getByRole('button', { name: 'Registro' }).click();
    await page.getByRole('heading', { name: 'Registro de la consola' }).waitFor();
    const viewed = page.locator('ol.timeline li', { hasText: 'Vio una foto de identidad' }).filter({ hasText: 'Marta Ruiz' });
    await viewed.first().waitFor();
    expect(await viewed.first().textContent()).toContain(`process: ${validationOfA}`);
    expect(await page.getByText('Pedro Globex').count()).toBe(0);
    await expectAccessible(page, 'audit log');
    const [saved] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Descargar el registro (CSV)' }).click()]);
    expect(saved.suggestedFilename()).toMatch(/^console-audit-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile(await saved.path(), 'utf8');
    expect(csv).toMatch(new RegExp(`"PHOTO_VIEWED","${svc.orgA.email}",[^\\n]*"${validationOfA}","","Marta Ruiz","face"`));
    expect(csv).not.toContain('Pedro Globex');
    await page.context().close();
  }, 180_000);

  it('on a phone the frame leaves the first screen to the section: its heading in the top quarter, the sections one row of tabs, the current one in view', async () => {
    const page = await signedInPage(svc.orgA.email);
    for (const [tab, title] of [
      ['Revisión', 'Cola de revisión'],
      ['Seguridad', 'Seguridad'],
    ] as const) {
      await page.getByRole('button', { name: tab }).click();
      const heading = page.getByRole('heading', { name: title, level: 1 });
      await heading.waitFor();
      expect((await heading.boundingBox())?.y ?? Number.POSITIVE_INFINITY).toBeLessThan(PHONE_VIEWPORT.height / 4);
      const current = page.locator('nav.sections [aria-current="page"]');
      expect(await current.textContent()).toBe(tab);
      await expect
        .poll(async () => {
          const box = await current.boundingBox();
          return box !== null && box.x >= 0 && box.x + box.width <= PHONE_VIEWPORT.width;
        })
        .toBe(true);
    }
    await page.context().close();
  });

  it("another organization's user sees only its own queue, and cannot fetch the first organization's photos", async () => {
    const page = await signedInPage(svc.orgB.email);
    await page.getByRole('button', { name: 'Revisión' }).click();
    await page.getByRole('article', { name: 'Pedro Globex' }).waitFor();
    const other = await photographedVeriface(svc, svc.orgA, { finish: true });
    const status = await page.evaluate(async (code) => (await fetch(`/console/api/review/photo?kind=validation&code=${code}&photo=face`)).status, other.code);
    expect(status).toBe(404);
  }, 180_000);

  it('the process page cancels a process with a reason, from a button; axe finds nothing', async () => {
    const code = await createProcess(
      svc,
      svc.orgA,
      '/document/upload',
      pdfProcess(svc.orgA, { name: 'Contrato de obra', signProfile: [{ name: 'Luisa Mora', email: 'luisa@people.test' }] }),
    );
    const page = await signedInPage(svc.orgA.email);
    await page.getByRole('button', { name: /Contrato de obra/ }).click();
    await page.getByRole('heading', { name: 'Acciones' }).waitFor();
    await page.getByRole('button', { name: 'Recordar a Luisa Mora' }).waitFor();
    await expectAccessible(page, 'process actions');
    await page.getByLabel('Motivo de la cancelación (se envía a los participantes notificados)').fill('Cambiaron las condiciones');
    await page.getByRole('button', { name: 'Cancelar el proceso' }).click();
    await page.getByText('El proceso fue cancelado.').waitFor();
    const { status } = await svc.deps.db.selectFrom('processes').select('status').where('code', '=', code).executeTakeFirstOrThrow();
    expect(status).toBe('CANCELLED');
  }, 180_000);
});
