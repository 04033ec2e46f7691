import type { ServiceContext } from '../../context.js';
import type { ProcessDocumentRow } from '../../db/schema.js';
import { readBlobBytes, writeBlobBytes } from '../../files/blob-bytes.js';
import type { NewMessage } from '../../outbox/enqueue.js';
import type { PdfRenderer } from '../../rendering/renderer.js';
import { sha256 } from '../document-files.js';
import { findProcessById, listDocuments } from '../queries.js';

/** Previews need the renderer besides the store. */
export type PreviewContext = ServiceContext & { renderer: PdfRenderer };

/** The job that renders a new process's template documents, queued in the transaction that creates it. */
export const RENDER_PREVIEWS_JOB = 'render-previews';

export function renderPreviewsJob(process: { id: string; organization_id: string }): NewMessage {
  return { kind: 'job', organizationId: process.organization_id, payload: { name: RENDER_PREVIEWS_JOB, data: { processId: process.id } } };
}

/**
 * Where the PDF a participant reads of a template document lives. Written whole by the store
 * (readers see it complete or not at all), so being there is being ready.
 */
export function previewKey(processId: string, position: number): string {
  return `processes/${processId}/preview/${position}.pdf`;
}

function hasPreview(document: ProcessDocumentRow): document is ProcessDocumentRow & { file_key: string } {
  return document.source === 'template' && document.file_ready === 1 && document.file_key !== null;
}

/**
 * The filled document as the PDF the participants read before signing: the same renderer, page
 * size and margins as its final copy, so both break their pages alike. The bytes rendered are
 * checked against the hash recorded at creation, so a preview never shows a changed file.
 */
async function renderPreview(ctx: PreviewContext, document: ProcessDocumentRow & { file_key: string }): Promise<string> {
  const key = previewKey(document.process_id, document.position);
  if (await ctx.blobs.exists(key)) return key;
  const html = await readBlobBytes(ctx.blobs, document.file_key);
  if (!html) throw new Error(`document ${document.id}: file ${document.file_key} is missing`);
  if (document.sha256 !== null && sha256(html) !== document.sha256) throw new Error(`document ${document.id}: file ${document.file_key} changed`);
  // Two renders of one document racing (the job and a page) write equivalent files; either stays.
  await writeBlobBytes(ctx.blobs, key, await ctx.renderer.render(html.toString('utf8')), 'application/pdf');
  return key;
}

/** The job: renders the previews a process's template documents lack, unless it is already sealed. Idempotent. */
export async function renderPreviews(ctx: PreviewContext, options: { processId: string }): Promise<void> {
  const process = await findProcessById(ctx.db, options.processId);
  if (!process || process.sealed_at !== null) return;
  for (const document of await listDocuments(ctx.db, options.processId)) {
    if (hasPreview(document)) await renderPreview(ctx, document);
  }
}

/**
 * The file a participant reads of one document: an uploaded PDF as it is; a template document's
 * preview, rendered now if the job has not yet run. Should rendering fail, the filled HTML itself
 * (the page shows it in a frame without scripts) rather than no document at all.
 */
export async function readableFile(ctx: PreviewContext, document: ProcessDocumentRow): Promise<string | undefined> {
  if (document.file_ready !== 1 || document.file_key === null) return undefined;
  if (!hasPreview(document)) return document.file_key;
  // A renderer that fails says so in /health (its self-test); the person still gets the document.
  return renderPreview(ctx, document).catch(() => document.file_key);
}

/** Once the final files exist the previews are only a copy of what they supersede. */
export async function deletePreviews(ctx: ServiceContext, documents: ProcessDocumentRow[]): Promise<void> {
  await ctx.blobs.delete(documents.filter(hasPreview).map((document) => previewKey(document.process_id, document.position)));
}
