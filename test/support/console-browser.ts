import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { listMailbox, mailboxDir } from '../../src/messages/local-mailbox.js';
import type { TestService } from './service.js';

/**
 * Nothing axe can find, of any impact, on the page as it is now. The Mask's preview is left out:
 * it is the organization's own HTML, shown in a frame where axe's script cannot run (no scripts).
 */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  const results = await new AxeBuilder({ page }).exclude('iframe.mask-preview').analyze();
  expect(
    results.violations.map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    label,
  ).toEqual([]);
}

/** The newest console sign-in e-mail to `email`, read from the local mailbox as the user would from their inbox. */
export async function signInMail(svc: TestService, email: string, after: number): Promise<{ link: string; code: string }> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const entries = await listMailbox(mailboxDir(svc.config.dataDir), { channel: 'email' });
    // Newest first: the first of them once there is one more than before.
    const mine = entries.filter((e) => e.to === email && /consol/i.test(e.summary));
    const text = mine.length > after ? mine[0]?.message.text : undefined;
    const link = typeof text === 'string' ? /(http\S+\/console#sign-in=[A-Za-z0-9_-]{43})/.exec(text)?.[1] : undefined;
    const code = typeof text === 'string' ? /\b(\d{6})\b/.exec(text)?.[1] : undefined;
    if (link && code) return { link, code };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no sign-in e-mail to ${email}`);
}

export interface ConsoleSite {
  svc: TestService;
  base: string;
  /** How many sign-in e-mails each address was sent, so that the next one read is the new one. */
  mailsTo: Map<string, number>;
}

/** Asks for the sign-in e-mail on the console's page and answers what it holds, read from the local mailbox. */
export async function askForMail(page: Page, site: ConsoleSite, email: string): Promise<{ link: string; code: string }> {
  await page.goto(`${site.base}/console`);
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByRole('button', { name: 'Enviarme el enlace' }).click();
  await page.getByText(`Si ${email} es el correo de un usuario`).waitFor();
  const seen = site.mailsTo.get(email) ?? 0;
  site.mailsTo.set(email, seen + 1);
  return signInMail(site.svc, email, seen);
}

/** The page signed in with the e-mailed link, showing the processes. */
export async function signInWithMailedLink(page: Page, site: ConsoleSite, email: string): Promise<Page> {
  const { link } = await askForMail(page, site, email);
  await page.goto(link);
  await page.getByRole('heading', { name: 'Procesos' }).waitFor();
  return page;
}
