import crypto from 'node:crypto';
import type { ServiceContext } from '../context.js';
import type { DocumentSource, ProcessDocumentRow } from '../db/schema.js';
import { readBlobBytes } from '../files/blob-bytes.js';

/** Keys of documents: the current layout, and the one before it, which rows created then still name. */
const KEY_PATTERNS = [/^documents\/[0-9a-f]{2}\/[0-9a-f]{24}-\d{1,3}\.(pdf|html)$/, /^processes\/[0-9a-f]{24}\/documents\/\d{1,3}\.(pdf|html)$/];

/**
 * Where a process's document is stored: in one of 256 folders chosen by the end of the process's
 * id (its counter), not in a folder of its own. Making two new folders took a sixth of a
 * creation's CPU; these folders exist after the first few creations.
 */
export function documentFileKey(processId: string, position: number, source: DocumentSource): string {
  return `documents/${processId.slice(-2)}/${processId}-${position}.${source === 'pdf' ? 'pdf' : 'html'}`;
}

export function isDocumentPdfKey(key: string): boolean {
  return KEY_PATTERNS.some((pattern) => pattern.exec(key)?.[1] === 'pdf');
}

/** Every PDF starts with this header (ISO 32000: "%PDF-" followed by the version). */
export function looksLikePdf(bytes: Buffer): boolean {
  return bytes.subarray(0, 5).toString('latin1') === '%PDF-';
}

export function sha256(bytes: Buffer): string {
  return crypto.createHash('sha256').update(bytes).digest('hex');
}

/**
 * A document whose file cannot be used as it is (missing, changed since creation, or a PDF the
 * seal cannot open): trying again changes nothing until someone puts the right file back.
 */
export class UnusableDocumentFile extends Error {}

/** How a seal failure names a document to the integrator (document.seal_failed): its place and name, never its storage key. */
export function documentLabel(document: Pick<ProcessDocumentRow, 'position' | 'name'>): string {
  return `document ${document.position} ("${document.name}")`;
}

/**
 * The bytes of a document as the participants read and sign them, refused if they no longer match
 * the hash recorded when the process was created (or the file is not there).
 */
export async function signedBytes(ctx: ServiceContext, document: ProcessDocumentRow): Promise<{ bytes: Buffer; sha256: string }> {
  const named = documentLabel(document);
  if (document.file_key === null || document.file_ready !== 1) throw new UnusableDocumentFile(`${named} has no file`);
  const bytes = await readBlobBytes(ctx.blobs, document.file_key);
  if (!bytes) throw new UnusableDocumentFile(`${named}: its file is missing`);
  const hash = sha256(bytes);
  if (document.sha256 !== null && document.sha256 !== hash) throw new UnusableDocumentFile(`${named}: its file changed after the process was created`);
  return { bytes, sha256: hash };
}
