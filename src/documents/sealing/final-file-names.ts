import type { ProcessDocumentRow, ProcessRow } from '../../db/schema.js';
import { downloadName } from '../../files/download-headers.js';
import type { Language } from '../../organizations/settings.js';
import { sealLocale } from './seal-language.js';

/** What the final files of a process are saved as: `documents[position]` and the certificate. */
export interface FinalFileNames {
  certificate: string;
  documents: string[];
}

/**
 * Named after what people called them, in the organization's language: `Lease - firmado.pdf` (in a
 * package, each document's own name), `Lease - certificado.pdf`; the stored keys stay `0.pdf`.
 */
export function finalFileNames(
  process: Pick<ProcessRow, 'name'>,
  documents: Pick<ProcessDocumentRow, 'name' | 'position'>[],
  language: Language,
): FinalFileNames {
  // The words do not depend on the time zone.
  const { labels } = sealLocale(language, 'UTC');
  const names: string[] = [];
  for (const document of documents) {
    const named = documents.length > 1 ? document.name : process.name;
    names[document.position] = downloadName(`${named} - ${labels.signedFileWord}`, 'pdf');
  }
  return { certificate: downloadName(`${process.name} - ${labels.certificateFileWord}`, 'pdf'), documents: names };
}
