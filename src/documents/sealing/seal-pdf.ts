import { type PDFPage, rgb, StandardFonts } from 'pdf-lib';
import { IncrementalUpdate } from '../../pdf-signing/incremental-update.js';
import { OID } from '../../pdf-signing/pki.js';
import { type DocumentSigner, fillSignature } from '../../pdf-signing/seal-signature.js';

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

/** The verification mark stamped on pages the service did not render: the QR code and its lines. */
export interface PageMark {
  qrPng: Buffer;
  lines: string[];
}

const MARK_SIZE = 34;
const MARK_MARGIN = 10;
const MARK_TEXT_SIZE = 6;

function lastPage(update: IncrementalUpdate): PDFPage {
  const pages = update.document.getPages();
  const page = pages[pages.length - 1];
  if (!page) throw new Error('a PDF without pages cannot be sealed');
  return page;
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

/** Signs a PDF the service rendered itself (a template document, the certificate). */
export async function sealRenderedPdf(pdf: Buffer, seal: PdfSeal): Promise<Buffer> {
  const update = await IncrementalUpdate.open(pdf);
  if (!update) throw new Error('the renderer produced a PDF that cannot be read');
  return sign(update, seal, lastPage(update));
}

/** The QR code and lines in the bottom-left corner of a page, over what is there. */
async function stampPages(update: IncrementalUpdate, pages: PDFPage[], mark: PageMark): Promise<void> {
  const image = await update.document.embedPng(mark.qrPng);
  const font = await update.document.embedFont(StandardFonts.Helvetica);
  for (const page of pages) {
    const box = page.getMediaBox();
    page.drawImage(image, { x: box.x + MARK_MARGIN, y: box.y + MARK_MARGIN, width: MARK_SIZE, height: MARK_SIZE });
    mark.lines.forEach((line, index) => {
      page.drawText(line, {
        x: box.x + MARK_MARGIN + MARK_SIZE + 4,
        y: box.y + MARK_MARGIN + MARK_SIZE - (index + 1) * (MARK_TEXT_SIZE + 2),
        size: MARK_TEXT_SIZE,
        font,
        color: rgb(0.25, 0.25, 0.25),
      });
    });
  }
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
  if (!update.alreadySigned) await stampPages(update, update.document.getPages(), options.mark);
  const appended = await update.appendPages(options.certificatePages);
  return sign(update, options.seal, appended.at(-1) ?? lastPage(update));
}
