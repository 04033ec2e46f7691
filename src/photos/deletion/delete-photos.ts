import type { ServiceContext } from '../../context.js';
import type { ProcessRow, VerifaceRow } from '../../db/schema.js';
import { withTransaction } from '../../db/transaction.js';
import { recordProcessEvent } from '../../documents/process-events.js';
import { findProcessByCode } from '../../documents/queries.js';
import { fail } from '../../domain-error.js';
import { findVerifaceByCode } from '../../veriface/queries.js';
import { recordStage } from '../../veriface/stages.js';
import { forgetPhotoBlobs, listPhotoKeys } from '../queries.js';
import { clearProcessPhotos, clearVerifacePhotos } from './queries.js';

/** Why photos were deleted, as the audit trail says it. */
export type DeletionReason = 'retention' | 'on request';

/**
 * Deletes every photo of a signing process (earlier attempts included), clears the participants'
 * photo keys, and writes PHOTOS_DELETED in the audit trail with its webhook. The bytes go first:
 * if anything stops after that, the records are still there and the next deletion finishes the
 * job and writes the line, so a deletion is never left unrecorded. Answers how many were deleted.
 */
export async function deleteProcessPhotos(ctx: ServiceContext, options: { process: ProcessRow; reason: DeletionReason }): Promise<number> {
  const { process, reason } = options;
  const keys = await listPhotoKeys(ctx.db, process.id);
  await ctx.photos.erase(keys);
  await withTransaction(ctx, async (trx) => {
    await forgetPhotoBlobs(trx, keys);
    await clearProcessPhotos(trx, process.id, ctx.clock.now().toISOString());
    await recordProcessEvent(trx, ctx.clock, {
      process,
      action: 'PHOTOS_DELETED',
      ...(reason === 'on request' ? { platform: 'API' } : {}),
      message: reason,
      detail: { deleted: keys.length, reason },
    });
  });
  return keys.length;
}

/** The same for a face validation, recorded as its stage `photos_deleted` (webhook veriface.photos_deleted). */
export async function deleteVerifacePhotos(ctx: ServiceContext, options: { process: VerifaceRow; reason: DeletionReason }): Promise<number> {
  const { process, reason } = options;
  const keys = await listPhotoKeys(ctx.db, process.id);
  await ctx.photos.erase(keys);
  await withTransaction(ctx, async (trx) => {
    await forgetPhotoBlobs(trx, keys);
    await clearVerifacePhotos(trx, process.id, ctx.clock.now().toISOString());
    await recordStage(trx, ctx.clock, { process, stage: 'photos_deleted', detail: { deleted: keys.length, reason } });
  });
  return keys.length;
}

export interface PhotosDeleted {
  code: string;
  deleted: number;
}

/** DELETE /document/photos: only once the process has ended, while its participants may still need them. */
export async function deleteProcessPhotosOnRequest(ctx: ServiceContext, options: { organizationId: string; code: string }): Promise<PhotosDeleted> {
  const process = await findProcessByCode(ctx.db, options.organizationId, options.code);
  if (!process) throw fail('DOCUMENT_NOT_FOUND', { when: 'elsewhere' });
  if (process.status === 'CREATED') throw fail('PHOTOS_IN_USE', 'the process is still in signature; its photos can be deleted once it ends');
  return { code: process.code, deleted: await deleteProcessPhotos(ctx, { process, reason: 'on request' }) };
}

/** DELETE /veriface/photos: only once the validation is no longer in progress. */
export async function deleteVerifacePhotosOnRequest(ctx: ServiceContext, options: { organizationId: string; code: string }): Promise<PhotosDeleted> {
  const process = await findVerifaceByCode(ctx.db, options.organizationId, options.code);
  if (!process) throw fail('VERIFACE_NOT_FOUND', { when: 'elsewhere' });
  if (process.status === 'INPROGRESS') throw fail('PHOTOS_IN_USE', 'the validation is still in progress; its photos can be deleted once it ends');
  return { code: process.code, deleted: await deleteVerifacePhotos(ctx, { process, reason: 'on request' }) };
}
