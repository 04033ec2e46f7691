import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listSignatureBoxes } from '../src/documents/placement/box-queries.js';
import { finalFileKeys } from '../src/documents/sealing/final-file-queries.js';
import { readBlobBytes } from '../src/files/blob-bytes.js';
import { certificatePem } from '../src/pdf-signing/signing-identity.js';
import { launchBrowser, type PhoneBrowser } from './support/browser.js';
import { inkByPlace } from './support/pdf-ink.js';
import { pdfsig, pdfToolsInstalled, pdftotext, trustStore } from './support/pdf-tools.js';
import { call, startServedService, type TestService } from './support/service.js';
import { drawSignature } from './support/signature-pad.js';
import { stored } from './support/signing.js';

/** A two-page contract whose signature lines sit above the verification mark's band; `tags` writes {{signature:N}} on them. */
async function contract(tags: boolean): Promise<Buffer> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  for (const number of [1, 2]) {
    const page = document.addPage([400, 500]);
    page.drawText(`Contrato, página ${number}`, { x: 40, y: 450, font, size: 14 });
    if (tags) page.drawText(`{{signature:${number - 1}}}`, { x: 60, y: 120, font, size: 10 });
    page.drawLine({ start: { x: 40, y: 110 }, end: { x: 360, y: 110 }, thickness: 1 });
  }
  return Buffer.from(await document.save());
}

const placements = {
  'coordinates (position: the bottom-right corner, y from the top, and the size in points)': {
    tags: false,
    signer: (index: number) => ({ position: [{ page: index + 1, x: 0.6, y: 0.78, w: 180, h: 60 }] }),
  },
  'tags ({{signature:N}} in the PDF, label: true)': { tags: true, signer: () => ({ label: true }) },
};

describe("signatures placed on an uploaded PDF's pages, signed by each participant on the page in Chromium", { timeout: 180_000 }, () => {
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

  it.each(Object.entries(placements))('placed by %s: ink inside each box and nowhere else, the tag gone, pdfsig valid', async (_, placement) => {
    const res = await call(svc.app, 'POST', '/document/upload', {
      key: svc.orgA.privateKey,
      body: {
        email: svc.orgA.email,
        name: 'Contrato arrendamiento',
        file: (await contract(placement.tags)).toString('base64'),
        signProfile: [
          { name: 'Ana Gómez', email: 'ana@people.test', ...placement.signer(0) },
          { name: 'Luis Pérez', email: 'luis@people.test', ...placement.signer(1) },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { process, participants } = await stored(svc, svc.orgA, res.json().code);
    const boxes = await listSignatureBoxes(svc.deps.db, process.id);
    expect(boxes.map((box) => box.page)).toEqual([1, 2]);
    // Another organization does not see the process at all.
    expect((await call(svc.app, 'GET', '/document', { key: svc.orgB.privateKey, query: { code: res.json().code } })).statusCode).toBe(400);

    for (const participant of participants) {
      const context = await phone.phone();
      const page = await context.newPage();
      await page.goto(`${base}/s/${participant.link_token}`);
      await expect.poll(() => page.locator('.pdf-page canvas').count(), { timeout: 15_000 }).toBeGreaterThan(0);
      expect(await page.locator('.sign-here').count()).toBe(1);
      await page.getByRole('button', { name: 'Siguiente lugar para firmar' }).click();
      await page.getByRole('button', { name: 'Continuar para firmar' }).click();
      await page.getByRole('heading', { name: 'Firma el documento' }).waitFor();
      // Ana draws hers (the pad brought to the middle of the screen, clear of the action bar); Luis types his name.
      if (participant.position === 0) {
        await page.locator('canvas.signature-pad').evaluate((pad) => pad.scrollIntoView({ block: 'center' }));
        await drawSignature(page);
      } else {
        // By keyboard, as the tabs pattern allows: a click is aimed at where the tab was, and the
        // page may still be scrolling to the step (smoothly) when it lands.
        await page.getByRole('tab', { name: 'Dibujar' }).focus();
        await page.keyboard.press('ArrowRight');
        expect(await page.getByRole('tab', { name: 'Escribir' }).getAttribute('aria-selected')).toBe('true');
      }
      await page.getByLabel(/Acepto firmar electrónicamente/).check();
      await page.getByRole('button', { name: 'Firmar', exact: true }).click();
      await page
        .getByRole('heading', { name: /^(Listo, firmaste el documento\.|Documento firmado por todos)$/ })
        .waitFor({ timeout: 10_000 })
        .catch(async (error: unknown) => {
          throw new Error(`${String(error)}\n${await page.locator('main').textContent()}`);
        });
      await context.close();
    }

    await expect.poll(async () => (await finalFileKeys(svc.deps.db, process.id)) !== undefined, { timeout: 30_000 }).toBe(true);
    const keys = await finalFileKeys(svc.deps.db, process.id);
    const sealed = await readBlobBytes(svc.deps.blobs, keys?.documents[0] ?? '');
    if (!sealed) throw new Error('no final file');
    const document = await svc.deps.db.selectFrom('process_documents').select('file_key').where('process_id', '=', process.id).executeTakeFirstOrThrow();
    const original = await readBlobBytes(svc.deps.blobs, document.file_key ?? '');
    if (!original) throw new Error('no stored document');
    if (!pdfToolsInstalled) return;
    for (const box of boxes) {
      const ink = await inkByPlace(original, sealed, box.page, [box]);
      expect(ink.inBox[0]).toBeGreaterThan(150);
      expect(ink.elsewhere).toBe(0);
    }
    const text = pdftotext(sealed);
    expect(text).not.toContain('{{signature:');
    expect(text).toContain('Ana Gómez');
    expect(text).toContain('Luis Pérez');
    expect(pdfsig(sealed, trustStore(certificatePem(svc.deps.documentSigner.identity.certificate)))).toContain('Signature is Valid');
  });
});
