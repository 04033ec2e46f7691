import { IncrementalUpdate, type PdfProblem } from '../../pdf-signing/incremental-update.js';
import { repairPdf } from '../../pdf-signing/pdf-repair.js';
import { looksLikePdf } from '../document-files.js';

/**
 * What intake makes of a PDF: the bytes that become the document (the upload, or its faithful
 * repair) or the plain reason it is refused, the detail of `400 FILE_NOT_VALID`.
 */
export type PdfIntake = { accepted: true; bytes: Buffer; repaired: boolean } | { accepted: false; reason: string };

const REFUSALS: Record<PdfProblem | 'not-pdf', string> = {
  'not-pdf': 'not a PDF',
  encrypted: 'the PDF is encrypted (it has a password or permissions set); upload a copy without them',
  'no-pages': 'the PDF has no pages',
  damaged: 'the PDF is damaged and cannot be repaired',
  'no-xref': 'the PDF is damaged and cannot be repaired',
};

/**
 * Opens a PDF with the code that will seal it, so nothing is accepted that the seal could not
 * sign. A PDF it cannot open for a reason a rewrite fixes (no cross-reference table) is rewritten,
 * and the rewrite becomes the document.
 */
export async function admitPdf(bytes: Buffer): Promise<PdfIntake> {
  if (!looksLikePdf(bytes)) return { accepted: false, reason: REFUSALS['not-pdf'] };
  const opening = await IncrementalUpdate.inspect(bytes);
  if ('pages' in opening) return { accepted: true, bytes, repaired: false };
  if (opening.problem === 'encrypted' || opening.problem === 'no-pages') return { accepted: false, reason: REFUSALS[opening.problem] };
  const repaired = await repairPdf(bytes);
  return repaired ? { accepted: true, bytes: repaired, repaired: true } : { accepted: false, reason: REFUSALS[opening.problem] };
}
