import type { PDFDocument, PDFPage } from 'pdf-lib';
import { addSignaturePlaceholder, IncrementalUpdate, type SignaturePlaceholder } from '../../pdf-signing/incremental-update.js';
import { OID } from '../../pdf-signing/pki.js';
import { fillSignature, type SignatureRequest } from '../../pdf-signing/seal-signature.js';
import { PageCanvas } from './drawing/page-canvas.js';
import { drawSignatureStamps, type SignatureStamp } from './drawing/signature-stamps.js';
import { DocumentFaces, type FaceStyle } from './drawing/text-faces.js';
import { embedQr, QR_QUIET_MODULES, type QrModules, qrModules } from './qr-image.js';

/** How a final PDF is signed: by whom at which PAdES level, when (the signature dictionary's /M) and with what words. */
export interface PdfSeal extends SignatureRequest {
  signedAt: Date;
  reason: string;
  /** Where the seal was made: the instance's public address. */
  location: string;
  /** The /verify address of the document, kept in the signature so even a changed copy names its process. */
  verifyUrl: string;
}

/**
 * The verification mark drawn at the bottom of pages: the QR code and lines pointing at /verify
 * and, on pages the service rendered, the page number.
 */
export interface PageMark {
  /** What the QR code holds: the document's /verify address. */
  url: string;
  lines: string[];
  /** `Página 2 de 5`: drawn at the right only on the pages the service laid out, whose bottom margin is kept free. */
  pageNumber: (page: number, pages: number) => string;
}

/**
 * Where the mark goes: on uploaded pages in the corner, on rendered ones inside the 22 mm bottom
 * margin, aligned with the text. `size` is the side of the code's modules; its quiet zone is
 * around it.
 */
const ON_UPLOADED = { left: 10, bottom: 10, size: 34, right: 10, numbered: false };
const ON_RENDERED = { left: 42.5, bottom: 12, size: 40, right: 42.5, numbered: true };
const MARK_TEXT_SIZE = 6;
const MARK_INK = 0.25;

function lastPage(update: IncrementalUpdate): PDFPage {
  const pages = update.document.getPages();
  const page = pages[pages.length - 1];
  if (!page) throw new Error('a PDF without pages cannot be sealed');
  return page;
}

/** Each mark's QR code, made when the first page is marked (after the render it need not delay) and shared by every file. */
const qrCodes = new WeakMap<PageMark, QrModules>();
function qrOf(mark: PageMark): QrModules {
  let modules = qrCodes.get(mark);
  if (!modules) {
    modules = qrModules(mark.url);
    qrCodes.set(mark, modules);
  }
  return modules;
}

/**
 * The mark over what `pages` show, in their bottom-left corner (and their number at the right).
 * Numbers count the pages of the whole file a reader holds, not of the certificate alone (issue
 * 41): `before` pages come ahead of these, `total` is every page of the file.
 */
async function stampPages(
  document: PDFDocument,
  pages: PDFPage[],
  mark: PageMark,
  place: typeof ON_RENDERED,
  numbering = { before: 0, total: pages.length },
): Promise<void> {
  const numbers = pages.map((_, index) => (place.numbered ? mark.pageNumber(numbering.before + index + 1, numbering.total) : undefined));
  const texts = [...mark.lines, ...numbers.filter((text) => text !== undefined)];
  const faces = await DocumentFaces.for(
    document,
    texts.map((text): [FaceStyle, string] => ['regular', text]),
  );
  const modules = qrOf(mark);
  const qr = embedQr(document, modules);
  const quiet = (place.size / modules.size) * QR_QUIET_MODULES;
  pages.forEach((page, index) => {
    const box = page.getMediaBox();
    const canvas = new PageCanvas(page);
    canvas.image('SealQr', qr, box.x + place.left - quiet, box.y + place.bottom - quiet, place.size + 2 * quiet, place.size + 2 * quiet);
    mark.lines.forEach((line, row) => {
      const y = box.y + place.bottom + place.size - (row + 1) * (MARK_TEXT_SIZE + 2);
      canvas.text(faces.face('regular', line), MARK_TEXT_SIZE, box.x + place.left + place.size + quiet, y, line, MARK_INK);
    });
    const number = numbers[index];
    if (number !== undefined) {
      const face = faces.face('regular', number);
      const x = box.x + box.width - place.right - face.width(number, MARK_TEXT_SIZE);
      canvas.text(face, MARK_TEXT_SIZE, x, box.y + place.bottom + place.size - (MARK_TEXT_SIZE + 2), number, MARK_INK);
    }
    canvas.finish();
  });
}

/** The seal's signature field, on `page`. */
function sealField(seal: PdfSeal, page: PDFPage): SignaturePlaceholder {
  const commonName = seal.signer.identity.certificate.subject.typesAndValues.find((t) => t.type === OID.commonName)?.value.valueBlock.value;
  return {
    page,
    fieldName: 'Seal',
    signerName: typeof commonName === 'string' ? commonName : 'Document seal',
    reason: seal.reason,
    location: seal.location,
    signedAt: seal.signedAt,
    contactInfo: seal.verifyUrl,
  };
}

async function sign(update: IncrementalUpdate, seal: PdfSeal, page: PDFPage): Promise<Buffer> {
  update.addSignaturePlaceholder(sealField(seal, page));
  return fillSignature(await update.bytes(), seal);
}

/**
 * A template document as the renderer made it, followed by a copy of the certificate's pages
 * (`certificate`, a document holding only them), marked (numbered through the whole file) and
 * signed. The certificate's pages are always marked; the document's unless `markDocument` is
 * false: a template's own footer takes the mark's place there.
 */
export async function sealRenderedPdf(
  pdf: Buffer,
  options: { certificate: PDFDocument; mark: PageMark; seal: PdfSeal; markDocument: boolean },
): Promise<Buffer> {
  const update = await IncrementalUpdate.open(pdf);
  if (!update) throw new Error('the renderer produced a PDF that cannot be read');
  const { document } = update;
  const own = document.getPageCount();
  for (const page of await document.copyPages(options.certificate, options.certificate.getPageIndices())) document.addPage(page);
  const all = document.getPages();
  const skip = options.markDocument ? 0 : own;
  await stampPages(document, all.slice(skip), options.mark, ON_RENDERED, { before: skip, total: all.length });
  return sign(update, options.seal, lastPage(update));
}

/** The stand-alone certificate: a document holding only its drawn pages, marked, numbered and signed. */
export async function sealCertificatePdf(document: PDFDocument, options: { mark: PageMark; seal: PdfSeal }): Promise<Buffer> {
  const pages = document.getPages();
  await stampPages(document, pages, options.mark, ON_RENDERED);
  const last = pages.at(-1);
  if (!last) throw new Error('a certificate without pages cannot be sealed');
  // Made whole here, so signed in its one revision. Without object streams, which pdf-lib deflates
  // in JavaScript.
  addSignaturePlaceholder(document, sealField(options.seal, last));
  return fillSignature(Buffer.from(await document.save({ useObjectStreams: false })), options.seal);
}

/**
 * An uploaded PDF with the certificate pages after its own and the instance's signature, all
 * added by incremental update: the original bytes stay as they were, so a signature it already
 * carries stays valid. Its own pages get the participants' `stamps` in their boxes and the
 * verification mark only when it carries none (drawing on signed pages would be a change after
 * signing). Undefined when the PDF cannot be opened (`IncrementalUpdate.inspect` says why; intake
 * refuses or repairs such files): nothing is sealed.
 */
export async function sealUploadedPdf(
  original: Buffer,
  options: { certificate: PDFDocument; mark: PageMark; seal: PdfSeal; stamps: SignatureStamp[] },
): Promise<Buffer | undefined> {
  const update = await IncrementalUpdate.open(original);
  if (!update) return undefined;
  const own = update.document.getPageCount();
  if (!update.alreadySigned) {
    await drawSignatureStamps(update.document, options.stamps);
    await stampPages(update.document, update.document.getPages(), options.mark, ON_UPLOADED);
  }
  // The certificate's pages are new, never under an earlier signature: they always get the mark.
  const appended = await update.appendPages(options.certificate);
  // Numbered within the whole file: the upload's own pages come first.
  await stampPages(update.document, appended, options.mark, ON_RENDERED, { before: own, total: own + appended.length });
  return sign(update, options.seal, appended.at(-1) ?? lastPage(update));
}
