import type { ProcessDocumentRow, ProcessRow } from '../db/schema.js';
import { type PreviewContext, readableFile } from '../documents/preview/document-preview.js';
import { finalFileNames } from '../documents/sealing/final-file-names.js';
import { finalFileKeys } from '../documents/sealing/final-file-queries.js';
import { contentTypeOf } from '../files/blob-store.js';
import { DOCUMENT_URL_LIFETIME_SECONDS } from '../files/document-url-lifetime.js';
import type { Language } from '../organizations/settings.js';
import type { PageDocument } from './contract.js';

/**
 * The documents a person's page shows, each with a download URL of five minutes: while the process
 * runs, what participants read (an uploaded PDF, a template document's preview); once sealed, the
 * signed files and the evidence certificate, named in the organization's language.
 */
export async function pageDocuments(ctx: PreviewContext, process: ProcessRow, documents: ProcessDocumentRow[], language: Language): Promise<PageDocument[]> {
  const download = async (name: string, key: string, kind: PageDocument['kind'] = 'document', downloadName?: string): Promise<PageDocument> => ({
    kind,
    name,
    url: await ctx.blobs.presign(key, {
      method: 'GET',
      expiresInSeconds: DOCUMENT_URL_LIFETIME_SECONDS,
      ...(downloadName === undefined ? {} : { downloadName }),
    }),
    contentType: contentTypeOf(key),
  });
  const sealed = process.status === 'FINISH' && process.sealed_at !== null ? await finalFileKeys(ctx.db, process.id) : undefined;
  if (sealed) {
    const names = finalFileNames(process, documents, language);
    const signed = documents.flatMap((d) => {
      const key = sealed.documents[d.position];
      return key === undefined ? [] : [download(d.name, key, 'document', names.documents[d.position])];
    });
    return Promise.all([...signed, download(process.name, sealed.certificate, 'certificate', names.certificate)]);
  }
  const readable = await Promise.all(documents.map(async (d) => ({ name: d.name, position: d.position, key: await readableFile(ctx, d) })));
  return Promise.all(
    readable.flatMap(({ name, position, key }) => (key === undefined ? [] : [download(name, key).then((document) => ({ ...document, position }))])),
  );
}
