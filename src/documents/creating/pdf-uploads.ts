import type { ServiceContext } from '../../context.js';
import { withTransaction } from '../../db/transaction.js';
import { fail } from '../../domain-error.js';
import { readBlobBytes, writeBlobBytes } from '../../files/blob-bytes.js';
import type { UploadPolicy } from '../../files/routes.js';
import { isDocumentPdfKey, sha256 } from '../document-files.js';
import { startNextTurn } from '../participant/turns.js';
import { recordProcessEvent } from '../process-events.js';
import { findAwaitingDocuments, findDocumentByFileKey, findProcessById, listDocuments, markDocumentReady } from '../queries.js';
import { admitPdf } from './pdf-intake.js';

export type StoredOutcome = 'started' | 'waiting' | { invalid: string } | 'ignored';

/**
 * A PDF arrived for a document that awaited it: it must pass intake (`admitPdf`), otherwise it is
 * erased and the document still awaits one; a repaired PDF replaces the upload (the document not
 * being ready, nobody reads it meanwhile, and a second call repairs to the same bytes); its hash
 * is kept; once every document of the process is there, the first turn of participants is
 * invited. Safe to call again for the same file.
 */
export async function documentStored(ctx: ServiceContext, key: string): Promise<StoredOutcome> {
  const document = await findDocumentByFileKey(ctx.db, key);
  if (!document || document.file_ready === 1) return 'ignored';
  const uploaded = await readBlobBytes(ctx.blobs, key);
  if (!uploaded) return 'ignored';
  const intake = await admitPdf(uploaded);
  if (!intake.accepted) {
    await ctx.blobs.delete([key]);
    return { invalid: intake.reason };
  }
  const { bytes } = intake;
  if (intake.repaired) await writeBlobBytes(ctx.blobs, key, bytes, 'application/pdf');
  const outcome = await withTransaction(ctx, async (trx): Promise<StoredOutcome> => {
    const process = await findProcessById(trx, document.process_id);
    if (process?.status !== 'CREATED' || !(await markDocumentReady(trx, document.id, sha256(bytes)))) return 'ignored';
    await recordProcessEvent(trx, ctx.clock, { process, action: 'DOCUMENT_UPLOADED', detail: { document: document.name } });
    if ((await listDocuments(trx, process.id)).some((d) => d.file_ready === 0)) return 'waiting';
    await startNextTurn(trx, ctx, process);
    return 'started';
  });
  return outcome;
}

/** Upload URLs of awaited PDFs: only while the document still awaits its file and the process is in signature. */
export function documentPdfUploadPolicy(ctx: ServiceContext): UploadPolicy {
  const awaiting = async (key: string) => {
    const document = await findDocumentByFileKey(ctx.db, key);
    if (!document) return 'missing';
    const process = await findProcessById(ctx.db, document.process_id);
    if (process?.status !== 'CREATED') return 'missing';
    return document.file_ready === 0 ? 'awaiting' : 'ready';
  };
  return {
    matches: isDocumentPdfKey,
    contentTypes: ['application/pdf'],
    writeOnce: true,
    async ensureTarget(key) {
      const state = await awaiting(key);
      if (state === 'missing') throw fail('DOCUMENT_NOT_FOUND', { when: 'uploadUrl' });
      if (state === 'ready') throw fail('DOCUMENT_ALREADY_UPLOADED');
    },
    claim: async (key) => (await awaiting(key)) === 'awaiting',
    async stored(key) {
      const outcome = await documentStored(ctx, key);
      if (typeof outcome === 'object') throw fail('FILE_NOT_VALID', outcome.invalid);
    },
  };
}

/**
 * With an S3 store, PDFs go straight to the bucket and the service is not told: this sweep looks
 * for the awaited ones that have arrived. Answers how many processes it started.
 */
export async function collectUploadedPdfs(ctx: ServiceContext): Promise<number> {
  let started = 0;
  for (const document of await findAwaitingDocuments(ctx.db, 500)) {
    if (document.file_key && (await documentStored(ctx, document.file_key)) === 'started') started++;
  }
  return started;
}
