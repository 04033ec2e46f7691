import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenForOperator, type OperatorListener } from '../src/auth/operator-machine.js';
import { CHAT_WORDS } from '../src/people/words-chat.js';
import { LOCAL_CHAT_WORDS } from '../src/people/words-local-chat.js';
import { expectAccessible } from './support/accessibility.js';
import { launchBrowser, type PhoneBrowser, screenshot } from './support/browser.js';
import { identityCard, selfie } from './support/face-photos.js';
import { call, startServedService, type TestService } from './support/service.js';
import { PDF_BASE64, stored } from './support/signing.js';

/** No serious or critical accessibility violation on the page as it is now. */
const es = CHAT_WORDS.es;
const page_ = LOCAL_CHAT_WORDS.es;
const PHONE = '+573104445566';

describe('the local WhatsApp chat page, in Chromium: a whole WhatsApp signature without Meta', { timeout: 240_000 }, () => {
  let svc: TestService;
  let base: string;
  /** The operator's own listener, where the page needs no key. */
  let operator: OperatorListener;
  let browser: PhoneBrowser;
  let photos: { front: Buffer; back: Buffer; face: Buffer };
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'local-chat-'));

  beforeAll(async () => {
    // No WhatsApp provider: the local mailbox keeps what the service sends, and the page answers as the person.
    ({ svc, base } = await startServedService('sqlite', { FACE_MATCHER: 'local' }));
    operator = await listenForOperator(svc.app, 0);
    browser = await launchBrowser();
    photos = { front: await identityCard('authorSelected'), back: await identityCard('womanBlonde'), face: await selfie('authorPhoto') };
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await operator?.close();
    await svc?.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  /** The chat's log: each message a list item, the service's and the person's. */
  const log = (page: Page) => page.getByRole('log');
  const lastOut = (page: Page) => log(page).locator('li.out').last();

  async function sendPhoto(page: Page, name: string, bytes: Buffer): Promise<void> {
    await page.getByLabel(page_.photoLabel).setInputFiles({ name, mimeType: 'image/jpeg', buffer: bytes });
    await page.getByRole('button', { name: page_.sendPhoto }).click();
  }

  it('the operator taps "Empezar", receives the PDF, types the code, sends the photos, taps "Acepto y firmo" and receives the signed PDF', async () => {
    const created = await call(svc.app, 'POST', '/document/upload', {
      key: svc.orgA.privateKey,
      body: {
        email: svc.orgA.email,
        name: 'Lease agreement',
        file: PDF_BASE64,
        signProfile: [
          {
            name: 'José Pérez',
            email: 'jose@people.test',
            phone: PHONE,
            identification: '1001001010',
            identificationType: 'CC',
            country: 'CO',
            otpCode: true,
            camera: true,
            options: { otpCode: 'phone', camera: 'identification', whatsapp: true, identificationCardBack: true },
          },
        ],
      },
    });
    expect(created.statusCode, created.body).toBe(200);

    const context = await browser.phone();
    const page = await context.newPage();
    await page.goto(`http://127.0.0.1:${operator.port}/whatsapp/local`);
    const conversation = page.getByRole('button', { name: /José Pérez/ });
    await conversation.waitFor({ timeout: 20_000 });
    await expectAccessible(page);
    await screenshot(page, '30-local-chat-conversations');

    await conversation.click();
    await expect.poll(() => lastOut(page).textContent(), { timeout: 20_000 }).toContain('Lease agreement');
    await expectAccessible(page);
    await screenshot(page, '31-local-chat-invitation');

    await log(page).getByRole('button', { name: es.start }).click();
    const document = log(page).getByRole('link', { name: `${page_.openDocument.replace('{filename}', 'Lease agreement.pdf')}` });
    await document.first().waitFor({ timeout: 20_000 });
    await expect.poll(() => lastOut(page).textContent(), { timeout: 20_000 }).toContain(es.codeAskPhone);
    const pdf = await page.request.get(new URL((await document.first().getAttribute('href')) ?? '', page.url()).toString());
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');
    await expectAccessible(page);
    await screenshot(page, '32-local-chat-document-and-code');

    const codeMessage = log(page)
      .locator('li.out', { hasText: /\b\d{6}\b/ })
      .last();
    const code = /\b(\d{6})\b/.exec((await codeMessage.textContent()) ?? '')?.[1];
    if (!code) throw new Error('no code in the chat');
    await page.getByLabel(page_.messageLabel).fill(code);
    await page.getByRole('button', { name: page_.send, exact: true }).click();
    await expect.poll(() => lastOut(page).textContent(), { timeout: 20_000 }).toContain(es.photoFront);
    await screenshot(page, '33-local-chat-code-typed');

    await sendPhoto(page, 'cedula-frente.jpg', photos.front);
    await expect.poll(() => lastOut(page).textContent(), { timeout: 60_000 }).toContain(es.photoBack);
    await sendPhoto(page, 'cedula-reverso.jpg', photos.back);
    await expect.poll(() => lastOut(page).textContent(), { timeout: 60_000 }).toContain(es.photoFace);
    await sendPhoto(page, 'selfie.jpg', photos.face);
    const accept = log(page).getByRole('button', { name: es.acceptAndSign });
    await accept.last().waitFor({ timeout: 60_000 });
    await expectAccessible(page);
    await screenshot(page, '34-local-chat-photos-sent');

    await accept.last().click();
    const signedDocument = log(page).locator('li.out', { hasText: es.signedDocument.replace('{process}', 'Lease agreement') });
    await signedDocument.waitFor({ timeout: 90_000 });
    await signedDocument.scrollIntoViewIfNeeded();
    await expectAccessible(page);
    await screenshot(page, '35-local-chat-signed-pdf');
    const signedHref = await signedDocument.getByRole('link').getAttribute('href');
    const signed = await page.request.get(new URL(signedHref ?? '', page.url()).toString());
    expect((await signed.body()).subarray(0, 5).toString()).toBe('%PDF-');

    const { process } = await stored(svc, svc.orgA, created.json().code);
    expect(process.status).toBe('FINISH');
    await context.close();
  });

  it("on the service's own port (as through a reverse proxy, even from this machine) the page asks for the organization's private key, refuses the public one, and shows only that organization's conversations", async () => {
    const context = await browser.phone();
    const page = await context.newPage();
    await page.goto(`${base}/whatsapp/local`);
    const key = page.getByLabel(page_.keyLabel);
    await key.waitFor();
    await expectAccessible(page);
    await screenshot(page, '36-local-chat-private-key');
    await key.fill(svc.orgA.publicKey);
    await page.getByRole('button', { name: page_.keyOpen }).click();
    await page.getByText(page_.publicKeyRefused).waitFor();
    await page.getByLabel(page_.keyLabel).fill(svc.orgB.privateKey);
    await page.getByRole('button', { name: page_.keyOpen }).click();
    await page.getByText(page_.oneOrganization).waitFor();
    expect(await page.getByRole('button', { name: /José Pérez/ }).count()).toBe(0);
    await context.close();
  });
});
