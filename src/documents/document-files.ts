import crypto from 'node:crypto';
import type { DocumentSource } from '../db/schema.js';

/** Upload URLs for PDFs and download URLs of documents last five minutes, like the template ones. */
export const DOCUMENT_URL_LIFETIME_SECONDS = 300;

const KEY_PATTERN = /^processes\/([0-9a-f]{24})\/documents\/(\d{1,3})\.(pdf|html)$/;

export function documentFileKey(processId: string, position: number, source: DocumentSource): string {
  return `processes/${processId}/documents/${position}.${source === 'pdf' ? 'pdf' : 'html'}`;
}

export function isDocumentPdfKey(key: string): boolean {
  return KEY_PATTERN.exec(key)?.[3] === 'pdf';
}

/** Every PDF starts with this header (ISO 32000: "%PDF-" followed by the version). */
export function looksLikePdf(bytes: Buffer): boolean {
  return bytes.subarray(0, 5).toString('latin1') === '%PDF-';
}

export function sha256(bytes: Buffer): string {
  return crypto.createHash('sha256').update(bytes).digest('hex');
}
