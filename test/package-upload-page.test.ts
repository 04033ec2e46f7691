import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './support/accessibility.js';
import { launchBrowser, type PhoneBrowser, screenshot } from './support/browser.js';
import { call, startServedService, type TestService } from './support/service.js';
import { PDF_BYTES, stored } from './support/signing.js';

describe('the page of a process that only collects files, in Chromium on a phone', { timeout: 120_000 }, () => {
  let svc: TestService;
  let base: string;
  let phone: PhoneBrowser;

  beforeAll(async () => {
    ({ svc, base } = await startServedService('sqlite'));
    phone = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await phone?.close();
    await svc?.close();
  });

  it('asks only for the files, no document; the required one given, the person is done; a rejected one is asked again with the reason; accessible', async () => {
    const res = await call(svc.app, 'POST', '/package/upload', {
      key: svc.orgA.privateKey,
      body: {
        email: svc.orgA.email,
        packageName: 'Onboarding',
        signProfile: [{ name: 'Rosa Díaz', email: 'rosa@people.test', type: 'employee', files: [{ name: 'Documento de identidad' }] }],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const pkg: string = res.json().package;
    const [rosa] = (await stored(svc, svc.orgA, pkg)).participants;
    if (!rosa) throw new Error('no participant');
    // The other organization reads nothing of it.
    expect((await call(svc.app, 'GET', '/attachments', { key: svc.orgB.privateKey, query: { package: pkg } })).statusCode).toBe(400);

    const context = await phone.phone();
    const page = await context.newPage();
    await page.goto(`${base}/s/${rosa.link_token}`);
    await page.getByRole('heading', { name: 'Archivos que te piden' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Documentos' }).count()).toBe(0);
    // Nothing to sign: no second step, no "sign" in what the person reads.
    expect(await page.getByText(/^Paso \d de \d$/).count()).toBe(0);
    await page.getByRole('button', { name: 'No entregar los archivos' }).waitFor();
    await page.getByText('Entrega archivos').waitFor();
    await page.getByText('Puede entregar sus archivos ahora').waitFor();
    // What the person reads, not the DOM's text: the signing bar ("Continuar para firmar") is in the page, hidden.
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is the point here
    expect(await page.locator('main').innerText()).not.toMatch(/firma/i);
    await expectAccessible(page);
    await screenshot(page, '28-files-only');

    await page.getByLabel('Adjuntar: Documento de identidad').setInputFiles({ name: 'id.pdf', mimeType: 'application/pdf', buffer: PDF_BYTES });
    await page.getByRole('heading', { name: 'Listo, entregaste tus archivos. Te avisaremos cuando los revisen.' }).waitFor();
    await expectAccessible(page);

    const rejected = await call(svc.app, 'PUT', '/attachments', {
      key: svc.orgA.privateKey,
      body: { package: pkg, userId: rosa.participant_id, approve: false, reason: 'La foto está borrosa' },
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    await page.reload();
    await page.getByText('Rechazado: La foto está borrosa. Adjúntalo de nuevo.').waitFor();
    await expectAccessible(page);
    await screenshot(page, '29-file-rejected');
    await context.close();
  });
});
