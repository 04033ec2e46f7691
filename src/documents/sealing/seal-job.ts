import { PDFDocument } from 'pdf-lib';
import type { ServiceContext } from '../../context.js';
import type { SignatureBoxRow } from '../../db/schema.js';
import type { DocumentSigner } from '../../pdf-signing/seal-signature.js';
import type { PdfRenderer } from '../../rendering/renderer.js';
import { addCertificatePages, CertificatePages } from './drawing/certificate-pages.js';
import { prepareSignatureImage, type SignatureImage } from './drawing/signature-image.js';
import { type CertificateBlock, certificateBlocks, type FinalFile, finalFilesSection, type SealEvidence } from './seal-evidence.js';
import { type PageMark, type PdfSeal, sealCertificatePdf } from './seal-pdf.js';

/*
 * What one seal shares between its files: the evidence, the signature images and the certificate's
 * pages, each made once and as early as it can be (the images and both certificates' drawing while
 * Chromium renders the first document).
 */

/** Sealing renders and signs: it needs the renderer and the instance's signer besides the store. */
export interface SealContext extends ServiceContext {
  renderer: PdfRenderer;
  documentSigner: DocumentSigner;
}

/**
 * The signature images ready to be drawn in the certificate, while Chromium renders the document.
 * An image that cannot be read (one stored before signatures were decoded on signing) is left out:
 * the certificate then writes the name, as for a participant who sent no image, rather than leave
 * the process unsealed for ever.
 */
export async function drawableImages(pngs: ReadonlyMap<string, Buffer>): Promise<Map<string, SignatureImage>> {
  const prepared = await Promise.all(
    [...pngs].map(async ([participantId, png]) => [participantId, await prepareSignatureImage(png).catch(() => undefined)] as const),
  );
  const images = new Map<string, SignatureImage>();
  for (const [participantId, image] of prepared) if (image) images.set(participantId, image);
  return images;
}

/** What every final file of one process shares: its evidence, page mark and seal. */
export interface SealJob {
  ctx: SealContext;
  evidence: SealEvidence;
  /** The signature images ready to draw, prepared from the start of the seal. */
  images: Promise<Map<string, SignatureImage>>;
  /** Where the participants' stamps go on the uploaded documents' pages; none keeps them to the certificate. */
  boxes: SignatureBoxRow[];
  /** The certificate up to its last section, made once the images are ready. */
  body?: Promise<CertificateBlock[]>;
  /** The certificate's pages every final document carries a copy of, drawn once. */
  certificate?: Promise<PDFDocument>;
  mark: PageMark;
  seal: PdfSeal;
}

function certificateBody(job: SealJob): Promise<CertificateBlock[]> {
  job.body ??= job.images.then((images) => certificateBlocks(job.evidence, { images }));
  return job.body;
}

/**
 * The certificate each final document carries, whose last section says where the final files'
 * hashes are: drawn once, in a document of its own, and its pages copied into each final file.
 */
export function documentCertificate(job: SealJob): Promise<PDFDocument> {
  job.certificate ??= (async () => {
    const document = await PDFDocument.create({ updateMetadata: false });
    await addCertificatePages(document, [...(await certificateBody(job)), ...finalFilesSection(job.evidence.locale)]);
    return document;
  })();
  return job.certificate;
}

/** The stand-alone certificate drawn up to its last section, which lists the final files once they are made. */
export async function standaloneCertificate(job: SealJob): Promise<{ document: PDFDocument; pages: CertificatePages }> {
  const document = await PDFDocument.create({ updateMetadata: false });
  return { document, pages: await CertificatePages.start(document, await certificateBody(job)) };
}

export async function finishCertificate(job: SealJob, drawn: { document: PDFDocument; pages: CertificatePages }, finalFiles: FinalFile[]): Promise<Buffer> {
  await drawn.pages.add(finalFilesSection(job.evidence.locale, finalFiles));
  drawn.pages.finish();
  return sealCertificatePdf(drawn.document, { mark: job.mark, seal: job.seal });
}
