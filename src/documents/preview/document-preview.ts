import type { ServiceContext } from '../../context.js';
import type { ProcessDocumentRow } from '../../db/schema.js';
import { writeBlobBytes } from '../../files/blob-bytes.js';
import type { PdfRenderer } from '../../rendering/renderer.js';
import { signedBytes } from '../document-files.js';
import { documentLayout } from '../document-layout.js';

/** Previews need the renderer besides the store. */
export type PreviewContext = ServiceContext & { renderer: PdfRenderer };

/**
 * Where the PDF a participant reads of a template document lives. Written whole by the store
 * (readers see it complete or not at all), so being there is being ready.
 */
export function previewKey(processId: string, position: number): string {
  return `processes/${processId}/preview/${position}.pdf`;
}

function hasPreview(document: ProcessDocumentRow): boolean {
  return document.source === 'template' && document.file_ready === 1 && document.file_key !== null;
}

/**
 * The filled document as the PDF the participants read before signing: the same renderer, page
 * size, margins, header and footer as its final copy, so both break their pages alike. The bytes rendered are
 * checked against the hash recorded at creation, so a preview never shows a changed file.
 */
export async function renderPreview(ctx: PreviewContext, document: ProcessDocumentRow): Promise<string> {
  const key = previewKey(document.process_id, document.position);
  if (await ctx.blobs.exists(key)) return key;
  const { bytes: html } = await signedBytes(ctx, document);
  // Two pages opening the same document at once both render it; their files are equivalent, either stays.
  await writeBlobBytes(ctx.blobs, key, await ctx.renderer.render(html.toString('utf8'), documentLayout(document)), 'application/pdf');
  return key;
}

/**
 * The file a participant reads of one document: an uploaded PDF as it is; a template document's
 * preview, rendered by the first page that asks for it and kept. Should rendering fail, the filled
 * HTML itself (the page shows it in a frame without scripts) rather than no document at all.
 *
 * Rendered on first need, not when the process is created: the same work either way for a process
 * someone opens, but spread over the time people take to open their links instead of piled on the
 * creation (a render costs Chromium 30–60 ms of CPU, ten times a whole creation), and none for a
 * process cancelled or expired unopened. A warm renderer adds one render to that first page call.
 */
export async function readableFile(ctx: PreviewContext, document: ProcessDocumentRow): Promise<string | undefined> {
  const file = document.file_ready === 1 ? document.file_key : null;
  if (file === null) return undefined;
  if (!hasPreview(document)) return file;
  // A renderer that fails says so in /health (its self-test); the person still gets the document.
  return renderPreview(ctx, document).catch(() => file);
}

/** Once the final files exist the previews are only a copy of what they supersede. */
export async function deletePreviews(ctx: ServiceContext, documents: ProcessDocumentRow[]): Promise<void> {
  await ctx.blobs.delete(documents.filter(hasPreview).map((document) => previewKey(document.process_id, document.position)));
}
