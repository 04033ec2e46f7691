import { PDFArray, PDFDict, PDFDocument, type PDFObject, PDFRef, PDFStream } from 'pdf-lib';
import { carriesSignature, IncrementalUpdate } from './incremental-update.js';

/**
 * Whether every object the document refers to, from its catalog down, was found in the file. A
 * rewrite of a file that lost some would silently drop what they held.
 */
function everyReferenceFound(document: PDFDocument): boolean {
  const { context } = document;
  const seen = new Set<PDFRef>();
  const pending = [context.trailerInfo.Root, context.trailerInfo.Info].filter((object): object is PDFObject => object !== undefined);
  for (let object = pending.pop(); object !== undefined; object = pending.pop()) {
    if (object instanceof PDFRef) {
      if (seen.has(object)) continue;
      seen.add(object);
      const target = context.lookup(object);
      if (target === undefined) return false;
      pending.push(target);
    } else if (object instanceof PDFDict) {
      pending.push(...object.values());
    } else if (object instanceof PDFArray) {
      pending.push(...object.asArray());
    } else if (object instanceof PDFStream) {
      pending.push(object.dict);
    }
  }
  return true;
}

/**
 * A faithful rewrite of a PDF the seal cannot update (most often one without a cross-reference
 * table): every object as the file defines it (the last definition of a number wins, as in an
 * incremental update), written again with a cross-reference table. Undefined when no faithful
 * rewrite exists: an object cannot be parsed, an object referred to is missing, the file is
 * encrypted or signed (a rewrite breaks a signature), or the result does not open with the same
 * number of pages.
 */
export async function repairPdf(original: Buffer): Promise<Buffer | undefined> {
  if (carriesSignature(original)) return undefined;
  let document: PDFDocument;
  let pages: number;
  try {
    document = await PDFDocument.load(original, { updateMetadata: false, throwOnInvalidObject: true });
    pages = document.getPageCount();
  } catch {
    return undefined;
  }
  if (pages === 0 || !everyReferenceFound(document)) return undefined;
  // No object streams: the seal's update then writes classic sections after a classic table.
  const repaired = Buffer.from(await document.save({ useObjectStreams: false, addDefaultPage: false, updateFieldAppearances: false }));
  const reopened = await IncrementalUpdate.inspect(repaired);
  return 'pages' in reopened && reopened.pages === pages ? repaired : undefined;
}
