import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../src/documents/document-files.js';
import { expectAccessible } from './support/accessibility.js';
import { launchBrowser, type PhoneBrowser, screenshot } from './support/browser.js';
import { png } from './support/images.js';
import { call, startServedService, type TestOrganization, type TestService } from './support/service.js';
import { PDF_BASE64, PDF_BYTES, stored } from './support/signing.js';

/** No serious or critical accessibility violation on the page as it is now. */
const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');

describe('the signing page in Chromium on a phone: handing the place over, and the files asked', { timeout: 120_000 }, () => {
  let svc: TestService;
  let base: string;
  let phone: PhoneBrowser;

  beforeAll(async () => {
    ({ svc, base } = await startServedService('sqlite'));
    // A lets its signers hand their place on; B does not, and asks files.
    await call(svc.app, 'PUT', '/organization', { key: svc.orgA.privateKey, body: { signerDelegation: true } });
    phone = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await phone?.close();
    await svc?.close();
  });

  async function linkOf(org: TestOrganization, signer: Record<string, unknown>): Promise<{ code: string; link: string }> {
    const res = await call(svc.app, 'POST', '/document/upload', {
      key: org.privateKey,
      body: { email: org.email, name: 'Lease 2027', file: PDF_BASE64, signProfile: [signer] },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { participants } = await stored(svc, org, res.json().code);
    return { code: res.json().code, link: `${base}/s/${participants[0]?.link_token}` };
  }

  async function open(link: string): Promise<Page> {
    const context = await phone.phone();
    const page = await context.newPage();
    await page.goto(link);
    await page.getByRole('heading', { level: 1 }).waitFor();
    return page;
  }

  it('a signer hands their place over with a reason: the old page says so and whom to, the new link opens the step; accessible throughout', async () => {
    const { code, link } = await linkOf(svc.orgA, { name: 'Eva Ruiz', email: 'eva@people.test' });
    const page = await open(link);
    const handOver = page.getByRole('button', { name: 'Que firme otra persona' });
    await handOver.click();
    expect(await handOver.getAttribute('aria-expanded')).toBe('true');
    expect(await focusedId(page)).toBe('delegate-name');
    await page.getByRole('button', { name: 'Pasar mi lugar' }).click();
    await page.getByRole('alert').filter({ hasText: 'Completa todos los campos.' }).waitFor();
    await page.getByLabel('Nombre completo').fill('María Gómez');
    await page.getByLabel('Correo electrónico').fill('maria@people.test');
    await page.getByLabel('Por qué pasas tu lugar').fill('I am travelling; María signs for the company');
    await expectAccessible(page);
    await screenshot(page, '24-handing-over');
    await page.getByRole('button', { name: 'Pasar mi lugar' }).click();
    await page.getByRole('heading', { name: 'Pasaste tu lugar a otra persona' }).waitFor();
    await page.getByText('María Gómez firmará en tu lugar. Este enlace ya no sirve.').waitFor();
    await expectAccessible(page);
    await screenshot(page, '25-handed-over');

    await page.reload();
    await page.getByRole('heading', { name: 'Pasaste tu lugar a otra persona' }).waitFor();
    const [holder] = (await stored(svc, svc.orgA, code)).participants;
    expect(holder).toMatchObject({ name: 'María Gómez', email: 'maria@people.test', status: 'NOTIFICATION' });
    const maria = await open(`${base}/s/${holder?.link_token}`);
    // Her own turn, with the step and the same offer to hand the place on.
    await maria.getByRole('button', { name: 'Que firme otra persona' }).waitFor();
    expect(await maria.getByRole('heading', { name: 'Pasaste tu lugar a otra persona' }).count()).toBe(0);
    await page.context().close();
    await maria.context().close();
  });

  it('the files asked: a native file input per file, usable by keyboard; a required one keeps the step; a file of another type is refused; one is replaced before signing', async () => {
    const { code, link } = await linkOf(svc.orgB, {
      name: 'Luis Pérez',
      email: 'luis@people.test',
      files: [
        { name: 'Documento de identidad', description: 'Both sides, in one PDF or photo' },
        { name: 'Última nómina', optional: true },
      ],
    });
    const page = await open(link);
    await page.getByRole('heading', { name: 'Archivos que te piden' }).waitFor();
    // B does not let its signers hand their place on.
    expect(await page.getByRole('button', { name: 'Que firme otra persona' }).count()).toBe(0);
    const idCard = page.getByLabel('Adjuntar: Documento de identidad');
    expect(await idCard.getAttribute('type')).toBe('file');
    await expectAccessible(page);
    await screenshot(page, '26-files-asked');

    // Continue by keyboard with the required file missing: the alert says which, and focus goes to its input.
    await page.getByRole('button', { name: 'Continuar', exact: true }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('alert').filter({ hasText: 'Falta adjuntar Documento de identidad.' }).waitFor();
    expect(await focusedId(page)).toBe('attachment-0');

    await idCard.setInputFiles({ name: 'id.pdf', mimeType: 'application/pdf', buffer: Buffer.from('only a name that says pdf') });
    await page.getByRole('alert').filter({ hasText: 'Ese archivo no es un PDF, JPEG ni PNG. Elige otro.' }).waitFor();
    await idCard.setInputFiles({ name: 'id.pdf', mimeType: 'application/pdf', buffer: PDF_BYTES });
    const replace = page.getByLabel('Cambiar: Documento de identidad');
    await replace.waitFor();
    await page.getByText(/^Adjuntado: PDF, \d+ KB\.$/).waitFor();
    await expectAccessible(page);
    await screenshot(page, '27-file-given');

    await page.getByRole('button', { name: 'Continuar', exact: true }).focus();
    await page.keyboard.press('Enter');
    const change = page.getByRole('button', { name: 'Cambiar los archivos adjuntos' });
    await change.waitFor();
    expect(await page.getByRole('heading', { name: 'Archivos que te piden' }).count()).toBe(0);
    await change.click();
    await page.getByLabel('Cambiar: Documento de identidad').setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: png() });
    await page.getByText(/^Adjuntado: PNG, \d+ KB\.$/).waitFor();
    await expectAccessible(page);

    const { participants } = await stored(svc, svc.orgB, code);
    const res = await call(svc.app, 'GET', '/attachments', { key: svc.orgB.privateKey, query: { code, userId: participants[0]?.participant_id ?? '' } });
    expect(res.json().signer.files[0]).toMatchObject({ name: 'Documento de identidad', contentType: 'image/png' });
    expect(res.json().signer.files[0].sha256).not.toBe(sha256(PDF_BYTES));
    await page.context().close();
  });
});
