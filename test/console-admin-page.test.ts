import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../src/organizations/organizations.js';
import { emitEvent } from '../src/webhooks/emit-event.js';
import { launchBrowser, type PhoneBrowser, screenshot } from './support/browser.js';
import { expectAccessible, signInMail } from './support/console-browser.js';
import { sampleTemplate } from './support/fixtures.js';
import { call, startServedService, type TestService } from './support/service.js';
import { COMPLETE_HTML, templateWithHtml } from './support/signing.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

/** The most the console's first load (its page, script and styles) may weigh, compressed as served. */
const FIRST_LOAD_BUDGET = 150 * 1024;

describe('the console’s templates, reference links, webhooks and keys in Chromium', () => {
  let svc: TestService;
  let base: string;
  let browser: PhoneBrowser;
  const receiver = new WebhookReceiver();
  const mailsTo = new Map<string, number>();

  /** A page of the console signed in with the link e-mailed to `email`, read from the local mailbox. */
  async function signedInPage(email: string): Promise<Page> {
    const page = await (await browser.phone()).newPage();
    page.setDefaultTimeout(20_000);
    await page.goto(`${base}/console`);
    await page.getByLabel('Correo electrónico').fill(email);
    await page.getByRole('button', { name: 'Enviarme el enlace' }).click();
    await page.getByText(`Si ${email} es el correo de un usuario`).waitFor();
    const seen = mailsTo.get(email) ?? 0;
    mailsTo.set(email, seen + 1);
    const { link } = await signInMail(svc, email, seen);
    await page.goto(link);
    await page.getByRole('heading', { name: 'Procesos' }).waitFor();
    return page;
  }

  const section = async (page: Page, name: string, heading: string) => {
    await page.getByRole('navigation', { name: 'Secciones' }).getByRole('button', { name }).click();
    await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
  };

  beforeAll(async () => {
    ({ svc, base } = await startServedService('sqlite', { WEBHOOK_ALLOW_PRIVATE: 'true' }));
    const url = await receiver.start();
    receiver.now = () => svc.clock.now();
    receiver.secret = (await call(svc.app, 'POST', '/webhooks', { key: svc.orgA.privateKey, body: { name: 'crm', url } })).json().secret;
    await templateWithHtml(svc, svc.orgA, COMPLETE_HTML, sampleTemplate({ name: 'Compraventa' }));
    await addUser(svc.deps.db, svc.clock, { organizationId: svc.orgA.id, email: 'remitente@acme.test' });
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await receiver.close();
    await svc?.close();
  });

  it('an admin resends a failed webhook delivery from the page, and the receiver gets it; axe finds nothing', async () => {
    receiver.respond = () => ({ status: 500 });
    await emitEvent(svc.deps.db, svc.clock, {
      organizationId: svc.orgA.id,
      type: 'document.created',
      data: { code: 'TR99AQMY31', status: 'CREATE' },
      targetWebhooks: ['crm'],
    });
    svc.deps.outbox.wake();
    const attempted = async () => (await svc.deps.db.selectFrom('delivery_attempts').select('outbox_id').execute()).length;
    for (let i = 0; i < 100 && (await attempted()) === 0; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    // Its retries ran out (the schedule takes days on the real clock): failed, as the resend expects.
    await svc.deps.db.updateTable('outbox').set({ status: 'failed' }).where('kind', '=', 'webhook').where('organization_id', '=', svc.orgA.id).execute();
    expect(receiver.received).toHaveLength(1);
    receiver.respond = () => ({ status: 200 });

    const page = await signedInPage(svc.orgA.email);
    await section(page, 'Webhooks', 'Webhooks');
    const delivery = page.locator('li.delivery', { hasText: 'document.created' });
    await delivery.getByText('Fallida').waitFor();
    await expectAccessible(page, 'webhooks');
    await screenshot(page, '53-console-webhooks');
    await delivery.getByRole('button', { name: /^Reenviar/ }).click();
    await page.getByText('Entrega reenviada').waitFor();
    for (let i = 0; i < 100 && receiver.received.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]?.id).toBe(receiver.received[0]?.id);
    expect(receiver.received[1]?.verified).toBe(true);
  }, 120_000);

  it('a sender creates a template by dropping its files, previews its questionnaire, and publishes a reference link with its address and QR code', async () => {
    const page = await signedInPage('remitente@acme.test');
    // A sender sees no webhooks nor keys, and the service refuses them with a clear message.
    await page.getByRole('navigation', { name: 'Secciones' }).getByRole('button', { name: 'Plantillas' }).waitFor();
    expect(await page.getByRole('button', { name: 'Claves y ajustes' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Webhooks' }).count()).toBe(0);
    const refused = await page.evaluate(async () => {
      const res = await fetch('/console/api/keys');
      return [res.status, await res.json()];
    });
    expect(refused).toEqual([403, { message: 'CONSOLE_ADMIN_REQUIRED' }]);

    await section(page, 'Plantillas', 'Plantillas');
    await page.getByRole('button', { name: 'Compraventa' }).waitFor();
    await expectAccessible(page, 'templates');
    await page.getByLabel('Nombre', { exact: true }).fill('Arriendo');
    const { name: _name, ...definition } = sampleTemplate();
    await page
      .locator('#template-json')
      .setInputFiles({ name: 'arriendo.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(definition)) });
    await expect.poll(() => page.locator('#template-definition').inputValue()).toContain('buyer_name');
    // The Mask dropped on its zone, the Complete chosen with its field (the keyboard's way).
    const mask =
      '<html lang="es"><head><title>Máscara</title><style>p { color: #222 }</style></head><body><p style="font-weight: bold">Vendido a <span name="buyer_name">el comprador</span></p></body></html>';
    const zone = page.locator('.drop-zone', { has: page.locator('#new-mask') });
    const transfer = await page.evaluateHandle((html) => {
      const data = new DataTransfer();
      data.items.add(new File([html], 'mascara.html', { type: 'text/html' }));
      return data;
    }, mask);
    await zone.dispatchEvent('drop', { dataTransfer: transfer });
    await zone.getByText('Elegido: mascara.html').waitFor();
    await page.locator('#new-complete').setInputFiles({ name: 'completo.html', mimeType: 'text/html', buffer: Buffer.from(COMPLETE_HTML) });
    await page.getByRole('button', { name: 'Crear la plantilla' }).click();
    await page.getByRole('heading', { name: 'Arriendo', level: 1 }).waitFor();
    await page.getByText('Plantilla creada.').waitFor();

    // The questionnaire's live preview: a sample answer appears in the Mask, whose styles were applied without inline markup.
    const frame = page.frameLocator('iframe.mask-preview');
    await frame.getByText('el comprador').waitFor();
    await page.locator('#sample-buyer_name').fill('Ana Gómez');
    await frame.getByText('Vendido a Ana Gómez').waitFor();
    await expectAccessible(page, 'template');

    await page.getByLabel('Nombre del enlace').fill('Sitio web');
    await page.getByLabel('Respuestas por hora como máximo (vacío: 20)').fill('5');
    await page.getByLabel('Respuestas en total como máximo (vacío: sin límite)').fill('50');
    await page.getByRole('button', { name: 'Publicar un enlace' }).click();
    await page.getByText('Enlace publicado.').waitFor();
    await page.getByText('0 de 50 procesos hechos; hasta 5 por hora.').waitFor();
    const address = await page.getByLabel('Dirección del enlace Sitio web').inputValue();
    expect(address).toMatch(new RegExp(`^${base}/r/[A-Za-z0-9_-]{32}$`));
    const qr = page.getByRole('img', { name: 'Código QR del enlace Sitio web' });
    await qr.waitFor();
    await expect.poll(() => qr.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
    await expectAccessible(page, 'reference links');
    await screenshot(page, '52-console-template');
    const form = await (await browser.phone()).newPage();
    await form.goto(address);
    await form
      .getByRole('heading', { name: 'Purchase agreement' })
      .or(form.getByRole('heading', { name: 'Arriendo' }))
      .first()
      .waitFor();
    await form.close();

    await page.getByRole('button', { name: 'Apagar' }).click();
    await page.locator('li.reference').getByText('Apagado', { exact: true }).waitFor();
    const links = (
      await call(svc.app, 'GET', '/template/reference', { key: svc.orgA.privateKey, query: { template: (await templateIdNamed('Arriendo'))! } })
    ).json();
    expect(links.data.map((l: { enabled: boolean; hourlyCap: number; maxUses: number }) => [l.enabled, l.hourlyCap, l.maxUses])).toEqual([[false, 5, 50]]);
  }, 180_000);

  it('an admin creates a key, seen once, and revokes it; changes the settings', async () => {
    const page = await signedInPage(svc.orgA.email);
    await section(page, 'Claves y ajustes', 'Claves de la API');
    await expectAccessible(page, 'keys');
    await page.getByLabel('Tipo de clave').selectOption('private');
    await page.getByRole('button', { name: 'Crear una clave' }).click();
    const shown = page.getByLabel('Copia la clave ahora: no se volverá a mostrar.');
    await shown.waitFor();
    const key = await shown.inputValue();
    expect(key).toMatch(/^prk_[0-9a-f]{32}$/);
    expect((await call(svc.app, 'GET', '/template', { key })).statusCode).toBe(200);
    await expectAccessible(page, 'new key');
    await screenshot(page, '54-console-keys');

    // Seen once: back on the page, only its hint is listed.
    await section(page, 'Plantillas', 'Plantillas');
    await section(page, 'Claves y ajustes', 'Claves de la API');
    expect(await page.locator('#new-key').count()).toBe(0);
    expect(await page.content()).not.toContain(key);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: `Revocar prk_…${key.slice(-4)}` }).click();
    await page.getByText('Clave revocada.').waitFor();

    await page.getByLabel('Zona horaria (IANA)').fill('America/Lima');
    await page.getByLabel('Días que se guardan las fotos').fill('45');
    await page.getByRole('button', { name: 'Guardar los ajustes' }).click();
    await page.getByText('Ajustes guardados.').waitFor();
    expect((await call(svc.app, 'GET', '/organization', { key: svc.orgA.privateKey })).json()).toMatchObject({
      timeZone: 'America/Lima',
      photoRetentionDays: 45,
    });
  }, 120_000);

  it('the first load of the console (page, script, styles) weighs at most 150 KB compressed', async () => {
    const shell = await svc.app.inject({ method: 'GET', url: '/console', headers: { 'accept-encoding': 'gzip' } });
    const assets = [...shell.body.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((match) => match[1]!);
    expect(assets).toHaveLength(2);
    let total = shell.rawPayload.length;
    for (const asset of assets) {
      const res = await svc.app.inject({ method: 'GET', url: asset, headers: { 'accept-encoding': 'gzip' } });
      expect(res.headers['content-encoding']).toBe('gzip');
      total += res.rawPayload.length;
    }
    expect(total).toBeLessThanOrEqual(FIRST_LOAD_BUDGET);
  });

  async function templateIdNamed(name: string): Promise<string | undefined> {
    const row = await svc.deps.db.selectFrom('templates').select('id').where('organization_id', '=', svc.orgA.id).where('name', '=', name).executeTakeFirst();
    return row?.id;
  }
});
