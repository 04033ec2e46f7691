import type { Db } from '../db/database.js';
import type { ProcessDocumentRow, ProcessRow } from '../db/schema.js';
import { organizationLanguage } from '../organizations/settings.js';
import { type FileLinkSlot, fileLink } from '../webhooks/payload/file-links.js';
import { isDocumentPdfKey } from './document-files.js';
import { listDocuments } from './queries.js';
import { finalFileNames } from './sealing/final-file-names.js';
import { finalFileKeys } from './sealing/final-file-queries.js';

/** A document of the process as a webhook body names it, with where its PDF is when it has one. */
export interface EventDocument {
  name: string;
  /** A package document's own code (docs/real-service.md §11.3 `documents [{code, name, status, url}]`). */
  code?: string;
  url?: FileLinkSlot;
}

function codeOf(document: ProcessDocumentRow): { code?: string } {
  return document.code === null ? {} : { code: document.code };
}

/**
 * Each document as the participants read it, with its PDF once it is stored: an uploaded PDF or a
 * PDF template's. A document made from an HTML template is a PDF only once sealed, so it has none
 * here, and neither has a PDF still awaited (`compress`).
 */
export function documentsAsRead(documents: readonly ProcessDocumentRow[]): EventDocument[] {
  return documents.map((document) => ({
    name: document.name,
    ...codeOf(document),
    ...(document.file_ready === 1 && document.file_key !== null && isDocumentPdfKey(document.file_key) ? { url: fileLink(document.file_key) } : {}),
  }));
}

export interface SealedFiles {
  documents: (EventDocument & { url: FileLinkSlot })[];
  certificate: FileLinkSlot;
}

/** The final files the seal recorded for the process, named as GET /document names them; none before. */
export async function sealedFiles(db: Db, process: ProcessRow): Promise<SealedFiles | undefined> {
  const [keys, documents, language] = await Promise.all([
    finalFileKeys(db, process.id),
    listDocuments(db, process.id),
    organizationLanguage(db, process.organization_id),
  ]);
  if (!keys) return undefined;
  const names = finalFileNames(process, documents, language);
  return {
    documents: documents.flatMap((document) => {
      const key = keys.documents[document.position];
      return key === undefined ? [] : [{ name: document.name, ...codeOf(document), url: fileLink(key, names.documents[document.position]) }];
    }),
    certificate: fileLink(keys.certificate, names.certificate),
  };
}
