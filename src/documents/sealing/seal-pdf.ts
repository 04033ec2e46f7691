import { PDFDocument, type PDFFont, type PDFPage, type PDFRef, rgb, StandardFonts } from 'pdf-lib';
import { IncrementalUpdate } from '../../pdf-signing/incremental-update.js';
import { OID } from '../../pdf-signing/pki.js';
import { type DocumentSigner, fillSignature } from '../../pdf-signing/seal-signature.js';
import { addFinalFilesPages, type FinalFilesTable } from './final-files-page.js';
import { drawQr, embedQr, type QrModules } from './qr-image.js';

/** How a final PDF is signed: by whom, when (the signature dictionary's /M) and with what words. */
export interface PdfSeal {
  signer: DocumentSigner;
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
  qr: QrModules;
  lines: string[];
  /** `Página 2 de 5`: drawn at the right only on rendered pages, whose bottom margin is kept free. */
  pageNumber?: (page: number, pages: number) => string;
}

/** Where the mark goes: on uploaded pages in the corner, on rendered ones inside the 22 mm bottom margin, aligned with the text. */
const ON_UPLOADED = { left: 10, bottom: 10, size: 34, right: 10 };
const ON_RENDERED = { left: 42.5, bottom: 12, size: 40, right: 42.5 };
const MARK_TEXT_SIZE = 6;

function lastPage(update: IncrementalUpdate): PDFPage {
  const pages = update.document.getPages();
  const page = pages[pages.length - 1];
  if (!page) throw new Error('a PDF without pages cannot be sealed');
  return page;
}

/** The text as the standard font can write it: a character outside WinAnsi would make pdf-lib throw. */
function writable(font: PDFFont, text: string): string {
  const known = new Set(font.getCharacterSet());
  return [...text].map((c) => (known.has(c.codePointAt(0) ?? 0) ? c : '?')).join('');
}

/** The QR image and font of the mark, embedded once per file however many pages carry it. */
interface MarkInk {
  qr: PDFRef;
  font: PDFFont;
}

async function markInk(document: PDFDocument, mark: PageMark): Promise<MarkInk> {
  return { qr: embedQr(document, mark.qr), font: await document.embedFont(StandardFonts.Helvetica) };
}

/** The mark over what the pages show, in their bottom-left corner (and their number at the right). */
function stampPages(pages: PDFPage[], mark: PageMark, place: typeof ON_RENDERED, { qr, font }: MarkInk): void {
  const lines = mark.lines.map((line) => writable(font, line));
  const color = rgb(0.25, 0.25, 0.25);
  pages.forEach((page, index) => {
    const box = page.getMediaBox();
    drawQr(page, qr, { x: box.x + place.left, y: box.y + place.bottom, size: place.size });
    lines.forEach((line, row) => {
      const y = box.y + place.bottom + place.size - (row + 1) * (MARK_TEXT_SIZE + 2);
      page.drawText(line, { x: box.x + place.left + place.size + 4, y, size: MARK_TEXT_SIZE, font, color });
    });
    if (mark.pageNumber) {
      const text = writable(font, mark.pageNumber(index + 1, pages.length));
      const x = box.x + box.width - place.right - font.widthOfTextAtSize(text, MARK_TEXT_SIZE);
      page.drawText(text, { x, y: box.y + place.bottom + place.size - (MARK_TEXT_SIZE + 2), size: MARK_TEXT_SIZE, font, color });
    }
  });
}

async function sign(update: IncrementalUpdate, seal: PdfSeal, page: PDFPage): Promise<Buffer> {
  const commonName = seal.signer.identity.certificate.subject.typesAndValues.find((t) => t.type === OID.commonName)?.value.valueBlock.value;
  update.addSignaturePlaceholder({
    page,
    fieldName: 'Seal',
    signerName: typeof commonName === 'string' ? commonName : 'Document seal',
    reason: seal.reason,
    location: seal.location,
    signedAt: seal.signedAt,
    contactInfo: seal.verifyUrl,
  });
  return fillSignature(await update.bytes(), seal.signer);
}

/**
 * A PDF the service rendered itself, marked on every page and signed: a template document followed
 * by the certificate's pages (`certificatePages`), or the certificate followed by the table of the
 * final files (`finalFiles`). Pages are numbered through the whole file.
 */
export async function sealRenderedPdf(
  pdf: Buffer,
  options: { mark: PageMark; seal: PdfSeal; certificatePages?: Buffer; finalFiles?: FinalFilesTable },
): Promise<Buffer> {
  const update = await IncrementalUpdate.open(pdf);
  if (!update) throw new Error('the renderer produced a PDF that cannot be read');
  const { document } = update;
  if (options.certificatePages) {
    const certificate = await PDFDocument.load(options.certificatePages, { updateMetadata: false });
    for (const page of await document.copyPages(certificate, certificate.getPageIndices())) document.addPage(page);
  }
  if (options.finalFiles) await addFinalFilesPages(document, options.finalFiles);
  stampPages(document.getPages(), options.mark, ON_RENDERED, await markInk(document, options.mark));
  return sign(update, options.seal, lastPage(update));
}

/**
 * An uploaded PDF with the certificate pages after its own and the instance's signature, all
 * added by incremental update: the original bytes stay as they were, so a signature it already
 * carries stays valid. Its own pages get the verification mark only when it carries none (a mark
 * on signed pages would be a change after signing). Undefined when the PDF cannot be opened
 * (encrypted or damaged): the caller keeps it as it is.
 */
export async function sealUploadedPdf(original: Buffer, options: { certificatePages: Buffer; mark: PageMark; seal: PdfSeal }): Promise<Buffer | undefined> {
  const update = await IncrementalUpdate.open(original);
  if (!update) return undefined;
  if (!update.alreadySigned) {
    stampPages(update.document.getPages(), { qr: options.mark.qr, lines: options.mark.lines }, ON_UPLOADED, await markInk(update.document, options.mark));
  }
  // The certificate's pages are new, never under an earlier signature: they always get the mark,
  // drawn before they are copied (pdf-lib cannot draw on a page hung under the appended node).
  const certificate = await PDFDocument.load(options.certificatePages, { updateMetadata: false });
  stampPages(certificate.getPages(), options.mark, ON_RENDERED, await markInk(certificate, options.mark));
  const appended = await update.appendPages(certificate);
  return sign(update, options.seal, appended.at(-1) ?? lastPage(update));
}
