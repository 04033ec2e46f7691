import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../src/organizations/organizations.js';
import { updateSettings } from '../src/organizations/settings.js';
import { launchBrowser, type PhoneBrowser } from './support/browser.js';
import { askForMail, type ConsoleSite } from './support/console-browser.js';
import { startServedService, type TestService } from './support/service.js';
import { createProcess, pdfProcess } from './support/signing.js';

describe("the console's page speaks its user's language and shows the organization's time zone (Chromium)", () => {
  let svc: TestService;
  let base: string;
  let browser: PhoneBrowser;
  const mailsTo = new Map<string, number>();
  const site = (): ConsoleSite => ({ svc, base, mailsTo });

  beforeAll(async () => {
    ({ svc, base } = await startServedService('sqlite'));
    await updateSettings(svc.deps.db, { organizationId: svc.orgA.id, changes: { language: 'es', timeZone: 'Europe/Madrid' } });
    await createProcess(svc, svc.orgA, '/document/upload', pdfProcess(svc.orgA, { name: 'Contrato de Acme' }));
    await createProcess(svc, svc.orgB, '/document/upload', pdfProcess(svc.orgB, { name: 'Contrato de Globex' }));
    const user = await addUser(svc.deps.db, svc.clock, { organizationId: svc.orgA.id, email: 'emma@acme.test' });
    await svc.deps.db.updateTable('users').set({ language: 'en' }).where('id', '=', user.id).execute();
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await svc?.close();
  });

  it('a user who chose English sees the console in English in a Spanish browser, every time named as Europe/Madrid; choosing Português on the page is kept as theirs', async () => {
    const page = await (await browser.phone()).newPage();
    const { link } = await askForMail(page, site(), 'emma@acme.test');
    await page.goto(link);
    await page.getByRole('heading', { name: 'Processes' }).waitFor();
    const acme = page.getByRole('button', { name: /Contrato de Acme/ });
    await acme.waitFor();
    expect(await acme.textContent()).toMatch(/Created on .+ \(Europe\/Madrid\)/);
    expect(await page.getByRole('button', { name: /Contrato de Globex/ }).count()).toBe(0);

    await page.getByLabel('Language').selectOption('pt');
    await page.getByRole('heading', { name: 'Processos' }).waitFor();
    await expect.poll(async () => page.evaluate(async () => (await (await fetch('/console/api/me/language')).json()).language)).toBe('pt');
  });
});
