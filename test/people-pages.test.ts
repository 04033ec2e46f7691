import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentsOpened } from '../src/documents/participant/signer-queries.js';
import { recordSignatureBoxes } from '../src/documents/placement/box-queries.js';
import { findParticipantByToken } from '../src/documents/queries.js';
import { listReaders } from '../src/documents/readers/queries.js';
import { expectAccessible } from './support/accessibility.js';
import { launchBrowser, type PhoneBrowser, screenshot, y4mOf } from './support/browser.js';
import { identityCard, selfie } from './support/face-photos.js';
import { ANSWERS, verifaceBody } from './support/fixtures.js';
import { waitForMail } from './support/mailbox.js';
import { call, startServedService, type TestService } from './support/service.js';
import { drawSignature } from './support/signature-pad.js';
import { stored, templateWithHtml } from './support/signing.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

/** A real photograph a package ships: the second portrait of the strip at the top of human's samples. */
async function portrait(): Promise<Buffer> {
  const samples = path.resolve(import.meta.dirname, '../node_modules/@vladmandic/human/assets/samples.jpg');
  return sharp(samples).extract({ left: 160, top: 0, width: 152, height: 157 }).resize(480, 480).jpeg().toBuffer();
}

/** A three-page PDF with text, as an integrator would upload. */
async function leasePdf(): Promise<string> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= 3; n++) pdf.addPage([595, 842]).drawText(`Lease 2027, page ${n}`, { x: 60, y: 760, size: 24, font });
  return Buffer.from(await pdf.save()).toString('base64');
}

/** No serious or critical accessibility violation on the page as it is now. */
/** The code the service e-mailed, read from the local mailbox as the person would from their inbox. */
async function codeFromMailbox(svc: TestService, email: string): Promise<string> {
  const entry = await waitForMail(
    svc,
    { channel: 'email' },
    (e) => e.to === email && /código|code/i.test(e.summary) && /\b\d{6}\b/.test(String(e.message.text)),
  );
  return /\b(\d{6})\b/.exec(String(entry.message.text))?.[1] ?? '';
}

/** A person's link opened in a fresh phone-sized context, once its first heading shows. */
async function openOnPhone(phone: PhoneBrowser, link: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await phone.phone();
  const page = await context.newPage();
  await page.goto(link);
  await page.getByRole('heading', { level: 1 }).waitFor();
  return { context, page };
}

interface Signer {
  name: string;
  email: string;
  [key: string]: unknown;
}

describe("the people's pages, in Chromium on a phone's screen", { timeout: 120_000 }, () => {
  let svc: TestService;
  let base: string;
  let phone: PhoneBrowser;
  let camera: string;
  const receiver = new WebhookReceiver();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'pages-'));

  beforeAll(async () => {
    ({ svc, base } = await startServedService('sqlite', { WEBHOOK_ALLOW_PRIVATE: 'true', FACE_MATCHER: 'manual' }));
    const url = await receiver.start();
    receiver.secret = (await call(svc.app, 'POST', '/webhooks', { key: svc.orgA.privateKey, body: { name: 'default', url } })).json().secret;
    camera = await y4mOf(await portrait(), path.join(work, 'camera.y4m'));
    phone = await launchBrowser({ camera });
  }, 60_000);

  afterAll(async () => {
    await phone?.close();
    await receiver.close();
    await svc?.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  async function createProcess(signProfile: Signer[]): Promise<{ code: string; links: Record<string, string> }> {
    const res = await call(svc.app, 'POST', '/document/upload', {
      key: svc.orgA.privateKey,
      body: { email: svc.orgA.email, name: 'Lease 2027', message: 'Please read and sign before Friday.', file: await leasePdf(), signProfile },
    });
    expect(res.statusCode).toBe(200);
    const { code } = res.json() as { code: string };
    // The document is ready once its bytes are checked; the page lists it from then on.
    const { participants } = await stored(svc, svc.orgA, code);
    return { code, links: Object.fromEntries(participants.map((p) => [p.email, `${base}/s/${p.link_token}`])) };
  }

  const open = (link: string) => openOnPhone(phone, link);

  /** The page reported the document shown (it does so once the PDF opens): a signer may sign from then on. */
  async function documentOpened(link: string): Promise<void> {
    const token = link.split('/s/')[1] ?? '';
    const participant = await findParticipantByToken(svc.deps.db, token);
    if (!participant) throw new Error('no participant');
    await expect.poll(() => documentsOpened(svc.deps.db, participant.process_id, participant.participant_id), { timeout: 15_000 }).toEqual([0]);
  }

  async function finishedWebhook(code: string): Promise<void> {
    await expect.poll(() => receiver.received.some((h) => h.body.type === 'document.finished' && h.body.data.code === code), { timeout: 20_000 }).toBe(true);
  }

  it('a process with a code by e-mail for one participant and a face photo for the other is finished through their links; document.finished arrives and the final files download', async () => {
    const { code, links } = await createProcess([
      { name: 'Ana Gómez', email: 'ana@people.test', otpCode: true },
      { name: 'Luis Pérez', email: 'luis@people.test', camera: true },
    ]);

    // Ana: reads the PDF, asks for her code, types it from her inbox, draws her signature.
    const ana = await open(links['ana@people.test'] ?? '');
    await expectAccessible(ana.page);
    await screenshot(ana.page, '01-participant-page');
    // The document comes first, already open: no "Leer …" to find.
    await expect.poll(() => ana.page.locator('.pdf-page canvas').count(), { timeout: 15_000 }).toBeGreaterThan(0);
    expect(await ana.page.locator('.pdf-page').count()).toBe(3);
    await screenshot(ana.page, '02-reading-the-pdf');
    await ana.page.getByRole('button', { name: 'Enviarme el código' }).click();
    await ana.page.getByLabel('Código de 6 dígitos').waitFor();
    expect(await ana.page.getByRole('button', { name: /Podrás pedir otro código en \d+ s/ }).isDisabled()).toBe(true);
    await ana.page.getByLabel('Código de 6 dígitos').fill('000000');
    await ana.page.getByRole('button', { name: 'Confirmar código' }).click();
    await ana.page.getByRole('alert').filter({ hasText: 'El código no es correcto' }).waitFor();
    await expectAccessible(ana.page);
    await screenshot(ana.page, '03-one-time-code');
    await ana.page.getByLabel('Código de 6 dígitos').fill(await codeFromMailbox(svc, 'ana@people.test'));
    await ana.page
      .locator('.pdf-page canvas')
      .first()
      .evaluate((canvas: HTMLCanvasElement) => {
        canvas.dataset.drawnBefore = 'yes';
      });
    await ana.page.getByRole('button', { name: 'Confirmar código' }).click();
    await ana.page.getByRole('heading', { name: 'Firma el documento' }).waitFor();
    // The next step of her turn keeps the document as it was drawn: nothing loads again or moves.
    expect(await ana.page.locator('.pdf-page canvas[data-drawn-before="yes"]').count()).toBe(1);
    await drawSignature(ana.page);
    await expectAccessible(ana.page);
    await screenshot(ana.page, '04-signing');
    await ana.page.getByRole('button', { name: 'Firmar', exact: true }).click();
    await ana.page.getByRole('alert').filter({ hasText: 'marca la casilla' }).waitFor();
    await ana.page.getByLabel(/Acepto firmar electrónicamente/).check();
    // Once the box is ticked, its refusal no longer stands on the screen.
    expect(await ana.page.getByRole('alert').filter({ hasText: 'marca la casilla' }).count()).toBe(0);
    await ana.page.getByRole('button', { name: 'Firmar', exact: true }).click();
    await ana.page.getByRole('heading', { name: 'Listo, firmaste el documento.' }).waitFor();
    await ana.page.getByText('Falta que terminen: Luis Pérez.').waitFor();
    await expectAccessible(ana.page);
    await screenshot(ana.page, '05-signed-waiting-for-others');

    // Luis: the camera step, a review of the photo, then his typed name as signature.
    const luis = await open(links['luis@people.test'] ?? '');
    await luis.page.getByRole('heading', { name: 'Tómate una foto de la cara' }).waitFor();
    // He is on his phone already: continuing "on my phone" is not offered.
    expect(await luis.page.getByRole('button', { name: 'Seguir en mi teléfono' }).count()).toBe(0);
    await luis.page.getByRole('button', { name: 'Abrir la cámara' }).click();
    await luis.page.getByRole('button', { name: 'Tomar la foto' }).waitFor();
    await expect.poll(() => luis.page.locator('video').evaluate((v: HTMLVideoElement) => v.videoWidth), { timeout: 10_000 }).toBeGreaterThan(0);
    await expectAccessible(luis.page);
    await screenshot(luis.page, '06-face-photo');
    await luis.page.getByRole('button', { name: 'Tomar la foto' }).click();
    await luis.page.getByRole('img', { name: 'La foto que vas a enviar' }).waitFor();
    await screenshot(luis.page, '07-photo-review');
    await luis.page.getByRole('button', { name: 'Usar esta foto' }).click();
    await luis.page.getByRole('heading', { name: 'Firma el documento' }).waitFor();
    await luis.page.getByRole('tab', { name: 'Escribir' }).click();
    expect(await luis.page.getByLabel('Escribe tu nombre como firma').inputValue()).toBe('Luis Pérez');
    await luis.page.getByLabel(/Acepto firmar electrónicamente/).check();
    await luis.page.getByRole('button', { name: 'Firmar', exact: true }).click();
    await luis.page.getByRole('heading', { name: 'Documento firmado por todos' }).waitFor();

    await finishedWebhook(code);
    // The signed files appear once sealed; the page follows along by itself.
    await luis.page.getByRole('link', { name: 'Descargar Certificado de evidencias' }).waitFor({ timeout: 20_000 });
    await expectAccessible(luis.page);
    await screenshot(luis.page, '08-finished');
    const signed = await luis.page.getByRole('link', { name: 'Descargar Lease 2027' }).getAttribute('href');
    const download = await fetch(new URL(signed ?? '', base));
    expect(download.status).toBe(200);
    expect(
      Buffer.from(await download.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    const { process, participants } = await stored(svc, svc.orgA, code);
    expect(process.status).toBe('FINISH');
    expect(participants.map((p) => p.status)).toEqual(['FINISH', 'FINISH']);
    // Both signatures, drawn and typed, were kept to be placed in the final document.
    expect(participants.map((p) => typeof p.signature_key)).toEqual(['string', 'string']);
    // The other organization sees nothing of it.
    expect((await call(svc.app, 'GET', '/document', { key: svc.orgB.privateKey, query: { code } })).json()).toEqual({ message: 'DOCUMENT_NOT_FOUND' });
    await ana.context.close();
    await luis.context.close();
  });

  it('a participant rejects with a reason: the process ends REJECTED and the other link says so', async () => {
    const { code, links } = await createProcess([
      { name: 'Eva Ruiz', email: 'eva@people.test' },
      { name: 'Juan Díaz', email: 'juan@people.test' },
    ]);
    const eva = await open(links['eva@people.test'] ?? '');
    await eva.page.getByRole('button', { name: 'Rechazar el documento' }).click();
    await eva.page.getByRole('button', { name: 'Rechazar', exact: true }).click();
    await eva.page.getByRole('alert').filter({ hasText: 'Escribe el motivo del rechazo.' }).waitFor();
    await eva.page.getByLabel('Cuéntanos por qué lo rechazas').fill('The rent is wrong');
    await expectAccessible(eva.page);
    await screenshot(eva.page, '09-rejecting');
    await eva.page.getByRole('button', { name: 'Rechazar', exact: true }).click();
    await eva.page.getByRole('heading', { name: 'Documento rechazado' }).waitFor();
    // Eva is told what she did, not that "someone" rejected it.
    await eva.page.getByText('Rechazaste este documento.', { exact: false }).waitFor();
    expect(await eva.page.getByText('Alguien rechazó').count()).toBe(0);
    await screenshot(eva.page, '17-rejected-by-you');
    const juan = await open(links['juan@people.test'] ?? '');
    await juan.page.getByRole('heading', { name: 'Documento rechazado' }).waitFor();
    await juan.page.getByText('Alguien rechazó este documento', { exact: false }).waitFor();
    // Nobody "can sign now" in a rejected process: Juan did not sign.
    expect(await juan.page.getByText('Puede firmar ahora').count()).toBe(0);
    await juan.page.getByText('No firmó').waitFor();
    await expectAccessible(juan.page);
    const { process } = await stored(svc, svc.orgA, code);
    expect(process.status).toBe('REJECTED');
    expect(process.end_reason).toBe('The rent is wrong');
    await eva.context.close();
    await juan.context.close();
  });

  it('turns: a participant of a later turn sees whom they wait for, and can sign once the earlier one has', async () => {
    const { links } = await createProcess([
      { name: 'Rosa Mora', email: 'rosa@people.test', order: 1 },
      { name: 'Pablo Gil', email: 'pablo@people.test', order: 2 },
    ]);
    const pablo = await open(links['pablo@people.test'] ?? '');
    await pablo.page.getByRole('heading', { name: 'Aún no es tu turno. Te avisaremos cuando lo sea.' }).waitFor();
    await pablo.page.getByText('Primero deben terminar: Rosa Mora.').waitFor();
    await expectAccessible(pablo.page);
    await screenshot(pablo.page, '10-waiting-for-turn');
    const rosa = await open(links['rosa@people.test'] ?? '');
    await documentOpened(links['rosa@people.test'] ?? '');
    await rosa.page.getByRole('tab', { name: 'Escribir' }).click();
    await rosa.page.getByLabel(/Acepto firmar electrónicamente/).check();
    await rosa.page.getByRole('button', { name: 'Firmar', exact: true }).click();
    await rosa.page.getByRole('heading', { name: 'Listo, firmaste el documento.' }).waitFor();
    // Pablo's page follows along and moves on to his step.
    await pablo.page.getByRole('heading', { name: 'Firma el documento' }).waitFor({ timeout: 15_000 });
    await rosa.context.close();
    await pablo.context.close();
  });

  it("document first: the page opens on the document drawn at the phone's width, the signer's own box outlined, 'next place to sign' goes to each, zoom by buttons, the bar out of the way at the step", async () => {
    const { code, links } = await createProcess([
      { name: 'Marta Soto', email: 'marta@people.test' },
      { name: 'Iván Rey', email: 'ivan@people.test' },
    ]);
    const { participants } = await stored(svc, svc.orgA, code);
    const [marta, ivan] = participants;
    if (!marta || !ivan) throw new Error('two participants');
    const box = (row: typeof marta, index: number, page: number, left: number) => ({
      process_id: row.process_id,
      document_position: 0,
      participant_row_id: row.id,
      box_index: index,
      page,
      left_pt: left,
      bottom_pt: 120,
      width_pt: 180,
      height_pt: 60,
    });
    await recordSignatureBoxes(svc.deps.db, [box(marta, 0, 1, 60), box(marta, 1, 3, 340), box(ivan, 0, 1, 340)]);
    const { page, context } = await open(links['marta@people.test'] ?? '');
    await expect.poll(() => page.locator('.pdf-page[data-page="1"] canvas').count(), { timeout: 15_000 }).toBe(1);
    // The document is above the step, and its page fills the phone's width.
    const pdfTop = (await page.locator('.pdf-page').first().boundingBox())?.y ?? 0;
    const stepTop = (await page.locator('#step').boundingBox())?.y ?? 0;
    expect(pdfTop).toBeLessThan(stepTop);
    expect((await page.locator('.pdf-page').first().boundingBox())?.width).toBeGreaterThanOrEqual(370);
    // Only her two boxes, never Iván's.
    expect(await page.locator('.sign-here').count()).toBe(2);
    await page.getByRole('img', { name: 'Página 1 de 3: aquí firma usted' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, '20-document-first');
    const bar = page.locator('.action-bar');
    const barBox = await bar.boundingBox();
    expect((barBox?.y ?? 0) + (barBox?.height ?? 0)).toBeLessThanOrEqual(844 + 1);
    await page.getByRole('button', { name: 'Siguiente lugar para firmar' }).click();
    await page.getByText('Lugar 1 de 2 para firmar: página 1 de Lease 2027').waitFor({ state: 'attached' });
    await expect.poll(() => page.locator('.sign-here.current').getAttribute('data-sign-page')).toBe('1');
    // Scrolled to: the place is on the screen, above the action bar.
    await expect
      .poll(async () => {
        const place = await page.locator('.sign-here.current').boundingBox();
        return place !== null && place.y >= 0 && place.y + place.height <= (barBox?.y ?? 844);
      })
      .toBe(true);
    await screenshot(page, '21-sign-here-highlighted');
    await page.getByRole('button', { name: 'Siguiente lugar para firmar' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('Lugar 2 de 2 para firmar: página 3 de Lease 2027').waitFor({ state: 'attached' });
    await expect.poll(() => page.locator('.sign-here.current').isVisible()).toBe(true);
    // Zoom: the pages grow wider than the screen and scroll sideways; "fit" brings them back.
    await page.getByRole('button', { name: 'Acercar' }).click();
    await expect.poll(async () => (await page.locator('.pdf-page').first().boundingBox())?.width ?? 0).toBeGreaterThan(450);
    await page.getByRole('button', { name: 'Ajustar al ancho' }).click();
    await expect.poll(async () => (await page.locator('.pdf-page').first().boundingBox())?.width ?? 0).toBeLessThan(400);
    await documentOpened(links['marta@people.test'] ?? '');
    await page.getByRole('button', { name: 'Continuar para firmar' }).click();
    // At the step the bar steps aside: nothing covers the pad or the button that signs. Back up at
    // the documents it is there again.
    await expect.poll(() => bar.isVisible()).toBe(false);
    await page.locator('.pdf-page').first().scrollIntoViewIfNeeded();
    await expect.poll(() => bar.isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Continuar para firmar' }).click();
    await expect.poll(() => bar.isVisible()).toBe(false);
    await page.getByRole('tab', { name: 'Escribir' }).click();
    await page.getByLabel(/Acepto firmar electrónicamente/).check();
    const sign = page.getByRole('button', { name: 'Firmar', exact: true });
    await sign.scrollIntoViewIfNeeded();
    const signBox = await sign.boundingBox();
    const covering = await page.evaluate(
      ([x, y]) => document.elementFromPoint(x ?? 0, y ?? 0)?.closest('.action-bar') !== null,
      [(signBox?.x ?? 0) + (signBox?.width ?? 0) / 2, (signBox?.y ?? 0) + (signBox?.height ?? 0) / 2],
    );
    expect(covering).toBe(false);
    await sign.click();
    await page.getByRole('heading', { name: 'Listo, firmaste el documento.' }).waitFor();
    await context.close();
  });

  it('a long document: only the pages near the screen are drawn, so a 100-page PDF opens on a phone', async () => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    for (let n = 1; n <= 100; n++) pdf.addPage([595, 842]).drawText(`Clause ${n}`, { x: 60, y: 760, size: 28, font });
    const res = await call(svc.app, 'POST', '/document/upload', {
      key: svc.orgA.privateKey,
      body: {
        email: svc.orgA.email,
        name: 'Long contract',
        file: Buffer.from(await pdf.save()).toString('base64'),
        signProfile: [{ name: 'Ana', email: 'long@people.test' }],
      },
    });
    const { participants } = await stored(svc, svc.orgA, res.json().code);
    const { page, context } = await open(`${base}/s/${participants[0]?.link_token}`);
    await expect.poll(() => page.locator('.pdf-page canvas').count(), { timeout: 15_000 }).toBeGreaterThan(0);
    expect(await page.locator('.pdf-page').count()).toBe(100);
    expect(await page.locator('.pdf-page canvas').count()).toBeLessThan(10);
    // Scrolled to the end: the last pages are drawn and the first ones gave their canvas back.
    await page.locator('.pdf-pages').evaluate((pages) => pages.scrollTo(0, pages.scrollHeight));
    await expect.poll(() => page.locator('.pdf-page[data-page="100"] canvas').count(), { timeout: 15_000 }).toBe(1);
    expect(await page.locator('.pdf-page[data-page="1"] canvas').count()).toBe(0);
    expect(await page.locator('.pdf-page canvas').count()).toBeLessThan(10);
    await context.close();
  });

  it('a template document is shown as a PDF rendered like its final copy, drawn page by page', async () => {
    const template = await templateWithHtml(svc, svc.orgA);
    const res = await call(svc.app, 'POST', '/document/save', {
      key: svc.orgA.privateKey,
      body: { document: template, data: ANSWERS, email: svc.orgA.email, name: 'Sale' },
    });
    const { participants } = await stored(svc, svc.orgA, res.json().code);
    const { page, context } = await open(`${base}/s/${participants[0]?.link_token}`);
    await page.locator('.pdf-page[data-page="1"] canvas').waitFor();
    expect(await page.locator('iframe.html-document').count()).toBe(0);
    await expectAccessible(page);
    await context.close();
  });

  it('without a renderer, a template document is shown as its filled HTML in a frame that cannot run script', async () => {
    const template = await templateWithHtml(svc, svc.orgA);
    // The renderer fails while the page opens (as a broken Chromium would), then works again.
    const renderer = svc.deps.renderer;
    const render = renderer.render;
    renderer.render = () => Promise.reject(new Error('renderer down'));
    let opened: { page: Page; context: BrowserContext };
    try {
      const res = await call(svc.app, 'POST', '/document/save', {
        key: svc.orgA.privateKey,
        body: { document: template, data: ANSWERS, email: svc.orgA.email, name: 'Sale' },
      });
      const { participants } = await stored(svc, svc.orgA, res.json().code);
      opened = await open(`${base}/s/${participants[0]?.link_token}`);
      await opened.page.locator('iframe.html-document').waitFor();
    } finally {
      renderer.render = render;
    }
    const { page, context } = opened;
    const frame = page.locator('iframe.html-document');
    await frame.waitFor();
    expect(await frame.getAttribute('sandbox')).toBe('');
    expect(await frame.getAttribute('title')).toMatch(/^Contenido del documento /);
    await page.frameLocator('iframe.html-document').locator('body').waitFor();
    await context.close();
  });

  it("a reader's link shows the process read-only: the document and who takes part, nothing to sign or reject; accessible", async () => {
    const res = await call(svc.app, 'POST', '/document/upload', {
      key: svc.orgA.privateKey,
      body: {
        email: svc.orgA.email,
        name: 'Board minutes',
        file: await leasePdf(),
        signProfile: [{ name: 'Ana Gómez', email: 'ana@people.test' }],
        readers: [{ name: 'Rosa Díaz', email: 'rosa@board.test' }],
      },
    });
    const { process } = await stored(svc, svc.orgA, res.json().code);
    const [reader] = await listReaders(svc.deps.db, process.id);
    const { context, page } = await open(`${base}/read/${reader?.link_token}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Board minutes');
    await page.getByText('Sigues este documento: puedes leerlo, no tienes que firmar nada.').waitFor();
    await page.getByText('Ana Gómez').waitFor();
    expect(await page.getByRole('button', { name: /Firmar|Rechazar|Aprobar/ }).count()).toBe(0);
    await expectAccessible(page);
    await context.close();
  });

  it('an unknown link says so in words, in the language of the browser', async () => {
    const context = await phone.browser.newContext({ locale: 'en-US', viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const response = await page.goto(`${base}/s/this-token-does-not-exist-at-all`);
    expect(response?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response?.headers()['referrer-policy']).toBe('no-referrer');
    expect(response?.headers()['x-robots-tag']).toBe('noindex, nofollow');
    await page.getByRole('heading', { name: 'This link is not valid' }).waitFor();
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    await expectAccessible(page);
    await context.close();
  });

  it("the service's address opened in a browser says what it is and where to go next, in words", async () => {
    const context = await phone.browser.newContext({ locale: 'es-CO', viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${base}/`);
    await page.getByRole('heading', { name: 'Aquí se firman documentos y se valida la identidad' }).waitFor();
    await page.getByText('abre el enlace completo que te llegó por correo, SMS o WhatsApp', { exact: false }).waitFor();
    expect(await page.getByText('Este enlace no es válido').count()).toBe(0);
    await expectAccessible(page);
    await screenshot(page, '18-service-address');
    await context.close();
  });

  it('every page has the same language picker: choosing a language draws the page again in it, and focus stays on the picker', async () => {
    const { links } = await createProcess([{ name: 'Iris Lago', email: 'iris@people.test', otpCode: true }]);
    const validation = await call(svc.app, 'POST', '/veriface', { key: svc.orgA.privateKey, body: verifaceBody(svc.orgA.email, { platform: 'web' }) });
    const pages = [
      {
        link: `${base}/`,
        spanish: 'Aquí se firman documentos y se valida la identidad',
        other: { language: 'pt', heading: 'Aqui se assinam documentos e se valida a identidade' },
      },
      { link: links['iris@people.test'] ?? '', spanish: 'Confirma que eres tú', other: { language: 'en', heading: 'Confirm it is you' } },
      {
        link: validation.json().url as string,
        spanish: 'Foto del frente de tu documento',
        other: { language: 'fr', heading: "Photo du recto de votre pièce d'identité" },
      },
    ];
    for (const { link, spanish, other } of pages) {
      const { context, page } = await open(link);
      await page.getByRole('heading', { name: spanish }).waitFor();
      const picker = page.getByRole('combobox', { name: 'Idioma' });
      expect(await picker.locator('option').allTextContents()).toEqual(['Español', 'English', 'Português', 'Français']);
      await picker.focus();
      await picker.selectOption(other.language);
      await page.getByRole('heading', { name: other.heading }).waitFor();
      expect(await page.getAttribute('html', 'lang')).toBe(other.language);
      expect(await page.getByText(spanish).count()).toBe(0);
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('language');
      await expectAccessible(page);
      await context.close();
    }
  });

  it('on a computer, the photo step offers to continue on a phone (a QR code of the link); on a phone it does not', async () => {
    const { links } = await createProcess([{ name: 'Olga Paz', email: 'olga@people.test', camera: true }]);
    const context = await phone.browser.newContext({ locale: 'es-CO', viewport: { width: 1280, height: 800 }, permissions: ['camera'] });
    const page = await context.newPage();
    await page.goto(links['olga@people.test'] ?? '');
    await page.getByRole('heading', { name: 'Tómate una foto de la cara' }).waitFor();
    await page.getByRole('button', { name: 'Seguir en mi teléfono' }).click();
    await page.getByRole('img', { name: /QR/ }).waitFor();
    await expectAccessible(page);
    await screenshot(page, '19-continue-on-a-phone-from-a-computer');
    await context.close();
    const onPhone = await open(links['olga@people.test'] ?? '');
    await onPhone.page.getByRole('heading', { name: 'Tómate una foto de la cara' }).waitFor();
    expect(await onPhone.page.getByRole('button', { name: 'Seguir en mi teléfono' }).count()).toBe(0);
    await onPhone.context.close();
  });

  it('cancelled and expired processes each have their own page, accessible', async () => {
    const cancelled = await createProcess([{ name: 'Cata Ríos', email: 'cata@people.test' }]);
    const cancel = await call(svc.app, 'POST', '/document/cancel', {
      key: svc.orgA.privateKey,
      body: { codes: [cancelled.code], message: 'Signed on paper', email: svc.orgA.email },
    });
    expect(cancel.statusCode).toBe(200);
    const first = await open(cancelled.links['cata@people.test'] ?? '');
    await first.page.getByRole('heading', { name: 'Documento cancelado' }).waitFor();
    await expectAccessible(first.page);
    await first.context.close();

    const res = await call(svc.app, 'POST', '/document/upload', {
      key: svc.orgA.privateKey,
      body: {
        email: svc.orgA.email,
        name: 'Short offer',
        file: await leasePdf(),
        expiredDate: new Date(svc.clock.now().getTime() + 4 * 86_400_000).toISOString(),
        signProfile: [{ name: 'Teo Paz', email: 'teo@people.test' }],
      },
    });
    const { participants } = await stored(svc, svc.orgA, res.json().code);
    svc.clock.advance(4 * 86_400_000 + 60_000);
    const second = await open(`${base}/s/${participants[0]?.link_token}`);
    await second.page.getByRole('heading', { name: 'El plazo terminó' }).waitFor();
    await expectAccessible(second.page);
    await screenshot(second.page, '16-expired');
    await second.context.close();
  });

  it('a face validation reaches its outcome through /v/: the document, then the face, then the outcome in words', async () => {
    const res = await call(svc.app, 'POST', '/veriface', {
      key: svc.orgA.privateKey,
      body: verifaceBody(svc.orgA.email, { platform: 'web', name: 'Marta Sol' }),
    });
    expect(res.statusCode).toBe(200);
    const { code, url } = res.json() as { code: string; url: string };
    const { page, context } = await open(url);
    await page.getByRole('heading', { name: 'Foto del frente de tu documento' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, '11-validation-document');
    for (const shot of ['Foto del frente de tu documento', 'Tómate una foto de la cara']) {
      await page.getByRole('heading', { name: shot }).waitFor();
      await page.getByRole('button', { name: 'Abrir la cámara' }).click();
      await expect.poll(() => page.locator('video').evaluate((v: HTMLVideoElement) => v.videoWidth), { timeout: 10_000 }).toBeGreaterThan(0);
      await page.getByRole('button', { name: 'Tomar la foto' }).click();
      await page.getByRole('button', { name: 'Usar esta foto' }).click();
    }
    // This service runs FACE_MATCHER=manual: a person of the organization decides.
    await page.getByRole('heading', { name: 'Validación en revisión' }).waitFor({ timeout: 20_000 });
    expect(await page.getByText(/similar/i).count()).toBe(0);
    await expectAccessible(page);
    await screenshot(page, '12-validation-outcome');
    const read = (await call(svc.app, 'GET', '/veriface', { key: svc.orgA.privateKey, query: { code } })).json() as { status: string };
    expect(read.status).toBe('BLOCKED');
    expect((await call(svc.app, 'GET', '/veriface', { key: svc.orgB.privateKey, query: { code } })).json().message).toMatch(/^VERIFACE_NOT_FOUND/);
    await context.close();
  });
});

describe("the people's pages with the face matcher of the machine (FACE_MATCHER=local)", { timeout: 180_000 }, () => {
  let svc: TestService;
  let base: string;
  let phone: PhoneBrowser;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'faces-'));

  beforeAll(async () => {
    ({ svc, base } = await startServedService('sqlite', { FACE_MATCHER: 'local', FACE_WORKERS: '1' }));
    // The camera films the package author's selfie; ID cards are uploaded as files.
    phone = await launchBrowser({ camera: await y4mOf(await selfie('authorWebcam'), path.join(work, 'selfie.y4m')) });
  }, 90_000);

  afterAll(async () => {
    await phone?.close();
    await svc?.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  const openPage = (link: string) => openOnPhone(phone, link);

  async function uploadCard(page: Page, card: Buffer): Promise<void> {
    await page.getByRole('heading', { name: 'Foto del frente de tu documento' }).waitFor();
    await page.locator('#file-documentFront').setInputFiles({ name: 'cedula.jpg', mimeType: 'image/jpeg', buffer: card });
    await page.getByRole('button', { name: 'Usar esta foto' }).click();
  }

  async function faceFromCamera(page: Page): Promise<void> {
    await page.getByRole('heading', { name: 'Tómate una foto de la cara' }).waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Abrir la cámara' }).click();
    await expect.poll(() => page.locator('video').evaluate((v: HTMLVideoElement) => v.videoWidth), { timeout: 10_000 }).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Tomar la foto' }).click();
    await page.getByRole('button', { name: 'Usar esta foto' }).click();
  }

  async function identifiedSigner(name: string, card: Buffer): Promise<{ code: string; page: Page; context: BrowserContext }> {
    const res = await call(svc.app, 'POST', '/document/upload', {
      key: svc.orgA.privateKey,
      body: {
        email: svc.orgA.email,
        name: 'Identified lease',
        file: await leasePdf(),
        signProfile: [
          {
            name,
            email: `${name.toLowerCase()}@faces.test`,
            camera: true,
            options: { camera: 'identification' },
            identification: '1001001010',
            identificationType: 'CC',
            country: 'CO',
          },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { code } = res.json() as { code: string };
    const { participants } = await stored(svc, svc.orgA, code);
    const opened = await openPage(`${base}/s/${participants[0]?.link_token}`);
    await uploadCard(opened.page, card);
    return { code, ...opened };
  }

  it('a signer whose face matches the portrait of their ID card is verified and signs', async () => {
    const { code, page, context } = await identifiedSigner('Vladimir', await identityCard('authorWebcam'));
    await faceFromCamera(page);
    await page.getByRole('heading', { name: 'Firma el documento' }).waitFor({ timeout: 30_000 });
    await page.getByRole('tab', { name: 'Escribir' }).click();
    await page.getByLabel(/Acepto firmar electrónicamente/).check();
    await page.getByRole('button', { name: 'Firmar', exact: true }).click();
    await page.getByRole('heading', { name: 'Documento firmado por todos' }).waitFor();
    const { participants } = await stored(svc, svc.orgA, code);
    expect(participants[0]?.camera_verified_at).not.toBeNull();
    await context.close();
  });

  it("three faces that do not match the ID card's portrait block the signer, each time with the reason in words", async () => {
    const { code, page, context } = await identifiedSigner('Someone', await identityCard('womanBlonde'));
    for (let attempt = 1; attempt <= 3; attempt++) {
      await faceFromCamera(page);
      if (attempt < 3) await page.getByRole('alert').filter({ hasText: 'La foto no coincide con la de tu documento' }).waitFor({ timeout: 30_000 });
    }
    await page.getByRole('heading', { name: 'Firma bloqueada' }).waitFor({ timeout: 30_000 });
    await expectAccessible(page);
    await screenshot(page, '14-blocked-after-three-mismatches');
    const { participants } = await stored(svc, svc.orgA, code);
    expect(participants[0]).toMatchObject({ status: 'BLOCK', block_reason: 'FACE_MISMATCH', camera_failures: 3 });
    await context.close();
  });

  it('a face validation whose face matches the document ends approved, in words', async () => {
    const created = await call(svc.app, 'POST', '/veriface', {
      key: svc.orgA.privateKey,
      body: verifaceBody(svc.orgA.email, { platform: 'web', name: 'Vladimir' }),
    });
    const { code, url } = created.json() as { code: string; url: string };
    const { page, context } = await openPage(url);
    await uploadCard(page, await identityCard('authorWebcam'));
    await faceFromCamera(page);
    await page.getByRole('heading', { name: 'Identidad validada' }).waitFor({ timeout: 30_000 });
    await expectAccessible(page);
    await screenshot(page, '15-validation-approved');
    expect((await call(svc.app, 'GET', '/veriface', { key: svc.orgA.privateKey, query: { code } })).json().status).toBe('APPROVED');
    expect((await call(svc.app, 'GET', '/veriface', { key: svc.orgB.privateKey, query: { code } })).json().message).toMatch(/^VERIFACE_NOT_FOUND/);
    await context.close();
  });
});
