import type { Readable } from 'node:stream';
import type { ServiceContext } from '../context.js';
import { findProcessByCode, listDocuments } from '../documents/queries.js';
import { finalFileNames } from '../documents/sealing/final-file-names.js';
import { finalFileKeys } from '../documents/sealing/final-file-queries.js';
import { fail } from '../domain-error.js';
import { contentDisposition, downloadHeaders } from '../files/download-headers.js';
import { organizationLanguage } from '../organizations/settings.js';

/** Which file of a process: a document as it is signed, its signed PDF, or the evidence certificate. */
export type ProcessFileKind = 'document' | 'signed' | 'certificate';

/** Where the file is stored and the name it is saved as (the final files' own names, as the API's URLs give them). */
async function fileOf(
  ctx: ServiceContext,
  options: { organizationId: string; code: string; file: ProcessFileKind; document: number },
): Promise<{ key: string; name?: string }> {
  const process = await findProcessByCode(ctx.db, options.organizationId, options.code);
  if (!process) throw fail('DOCUMENT_NOT_FOUND', { when: 'download' });
  const documents = await listDocuments(ctx.db, process.id);
  const document = documents.find((d) => d.position === options.document);
  if (options.file === 'document') {
    const key = document?.file_ready === 1 ? document.file_key : null;
    if (key === null) throw fail('FILE_NOT_FOUND');
    return { key };
  }
  const sealed = process.sealed_at === null ? undefined : await finalFileKeys(ctx.db, process.id);
  if (!sealed) throw fail('FILE_NOT_FOUND');
  const names = finalFileNames(process, documents, await organizationLanguage(ctx.db, process.organization_id));
  if (options.file === 'certificate') return { key: sealed.certificate, name: names.certificate };
  const key = sealed.documents[options.document];
  const name = names.documents[options.document];
  if (key === undefined) throw fail('FILE_NOT_FOUND');
  return { key, ...(name === undefined ? {} : { name }) };
}

/**
 * A file of one of the organization's processes, to download from the console: found by the
 * process's code in the session's organization only (another organization's answers as an unknown
 * code), read from the store as the API's download URLs read it, with the headers of every
 * download (src/files/download-headers.ts) and saved as an attachment.
 */
export async function readProcessFile(
  ctx: ServiceContext,
  options: { organizationId: string; code: string; file: ProcessFileKind; document: number },
): Promise<{ body: Readable; headers: Record<string, string> }> {
  const { key, name } = await fileOf(ctx, options);
  const blob = await ctx.blobs.read(key);
  if (!blob) throw fail('FILE_NOT_FOUND');
  return {
    body: blob.body,
    headers: { ...downloadHeaders(key, name), 'content-disposition': contentDisposition('attachment', key, name), 'content-length': String(blob.size) },
  };
}
