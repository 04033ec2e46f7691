import type { ServiceContext } from '../../context.js';
import { withTransaction } from '../../db/transaction.js';
import { DomainError, fail } from '../../domain-error.js';
import { readBlobBytes, writeBlobBytes } from '../../files/blob-bytes.js';
import type { UploadPolicy } from '../../files/upload-policy.js';
import { isDocumentPdfKey, sha256 } from '../document-files.js';
import { startNextTurn } from '../participant/turns.js';
import { deleteAwaitedPlacements, findAwaitedPlacements } from '../placement/awaited-placements.js';
import { recordSignatureBoxes } from '../placement/box-queries.js';
import { boxRows } from '../placement/box-rows.js';
import { type Placement, placeSignatures } from '../placement/place-signatures.js';
import { recordProcessEvent } from '../process-events.js';
import { findAwaitingDocuments, findDocumentByFileKey, findProcessById, listDocuments, listParticipants, markDocumentReady } from '../queries.js';
import { inviteReaders } from '../readers/notify-readers.js';
import { listReaders } from '../readers/queries.js';
import { admitPdf } from './pdf-intake.js';

/** `invalid`: intake's reason (FILE_NOT_VALID); `refused`: the placement's message naming the field or signer. */
export type StoredOutcome = 'started' | 'waiting' | { invalid: string } | { refused: DomainError } | 'ignored';

/**
 * A PDF arrived for a document that awaited it: it must pass intake (`admitPdf`) and the placement
 * the request asked for (its pages, its tags), otherwise it is erased and the document still awaits
 * one; a repaired PDF, or one whose tags were removed, replaces the upload (the document not being
 * ready, nobody reads it meanwhile, and a second call rewrites to the same bytes); its hash
 * is kept; once every document of the process is there, the first turn of participants and the
 * readers are invited. Safe to call again for the same file.
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
  const placements = await findAwaitedPlacements(ctx.db, document.process_id, document.position);
  let placed: Placement;
  try {
    placed = await placeSignatures(intake.bytes, placements);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    await ctx.blobs.delete([key]);
    return { refused: error };
  }
  const { bytes } = placed;
  if (intake.repaired || bytes !== intake.bytes) await writeBlobBytes(ctx.blobs, key, bytes, 'application/pdf');
  const outcome = await withTransaction(ctx, async (trx): Promise<StoredOutcome> => {
    const process = await findProcessById(trx, document.process_id);
    if (process?.status !== 'CREATED' || !(await markDocumentReady(trx, document.id, sha256(bytes)))) return 'ignored';
    const participants = await listParticipants(trx, process.id);
    await recordSignatureBoxes(trx, boxRows({ processId: process.id, documentPosition: document.position, boxes: placed.boxes, participants }));
    await deleteAwaitedPlacements(trx, process.id, document.position);
    await recordProcessEvent(trx, ctx.clock, { process, action: 'DOCUMENT_UPLOADED', detail: { document: document.name } });
    if ((await listDocuments(trx, process.id)).some((d) => d.file_ready === 0)) return 'waiting';
    await startNextTurn(trx, ctx, process);
    await inviteReaders(trx, ctx, { process, readers: await listReaders(trx, process.id, 'READER') });
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
      if (typeof outcome !== 'object') return;
      throw 'refused' in outcome ? outcome.refused : fail('FILE_NOT_VALID', outcome.invalid);
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
