import type { ServiceContext } from '../context.js';
import type { VerifaceRow } from '../db/schema.js';
import { MAX_FAILURES } from '../documents/participant/signer-access.js';
import { ApiError, badRequest, notFound } from '../http/errors.js';
import { type FaceMatcher, UNUSABLE_PHOTO_EXPLANATIONS } from './face-matcher.js';
import { IMAGE_MAX_BYTES, imageTypeOf } from './images.js';
import { findVerifaceByToken, listStages, updateInProgress, type VerifacePatch } from './queries.js';
import { recordStage, type VerifaceStage } from './stages.js';

/**
 * What the person's page calls, authorised by the secret token of the personal link. Every step
 * is refused once the process is no longer in progress or its expiry date has passed, even before
 * the expiry sweep has marked it.
 */
export interface PersonFlowContext extends ServiceContext {
  faceMatcher: FaceMatcher;
}

async function openProcess(ctx: ServiceContext, token: string): Promise<VerifaceRow> {
  const process = await findVerifaceByToken(ctx.db, token);
  if (!process) throw notFound('VERIFACE_NOT_FOUND');
  if (process.expires_at !== null && process.expires_at <= ctx.clock.now().toISOString()) throw badRequest('VERIFACE_EXPIRED');
  if (process.status !== 'INPROGRESS') throw badRequest('VERIFACE_CLOSED');
  return process;
}

/** Applies a change and records its stage together, unless the process closed meanwhile. */
async function advance(
  ctx: ServiceContext,
  process: VerifaceRow,
  change: { patch: VerifacePatch; stage: VerifaceStage; detail?: Record<string, unknown> },
): Promise<VerifaceRow> {
  const updated: VerifaceRow = { ...process, ...change.patch, updated_at: ctx.clock.now().toISOString() };
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await updateInProgress(trx, process.id, { ...change.patch, updated_at: updated.updated_at }))) throw badRequest('VERIFACE_CLOSED');
    await recordStage(trx, ctx.clock, { process: updated, stage: change.stage, detail: change.detail });
  });
  ctx.outbox.wake();
  return updated;
}

export interface PersonView {
  code: string;
  name: string;
  platform: 'whatsapp' | 'web';
  country: string;
  documentType: string;
  captured: { documentFront: boolean; documentBack: boolean; face: boolean };
}

function personView(process: VerifaceRow): PersonView {
  return {
    code: process.code,
    name: process.name,
    platform: process.platform,
    country: process.country,
    documentType: process.document_type,
    captured: { documentFront: process.document_front !== null, documentBack: process.document_back !== null, face: process.face !== null },
  };
}

/** The person opened the link: recorded once, however often the page is reloaded. */
export async function openVeriface(ctx: ServiceContext, options: { token: string }): Promise<PersonView> {
  const process = await openProcess(ctx, options.token);
  const stages = await listStages(ctx.db, process.id);
  if (!stages.some((s) => s.stage === 'opened')) await advance(ctx, process, { patch: {}, stage: 'opened' });
  return personView(process);
}

async function storePhoto(ctx: ServiceContext, process: VerifaceRow, name: string, image: Buffer): Promise<string> {
  if (image.length === 0) throw badRequest('IMAGE_EMPTY');
  if (image.length > IMAGE_MAX_BYTES) throw new ApiError(413, `IMAGE_TOO_LARGE: at most ${IMAGE_MAX_BYTES} bytes`);
  const type = imageTypeOf(image);
  if (!type) throw new ApiError(415, 'IMAGE_NOT_JPEG_OR_PNG');
  const key = `veriface/${process.id}/${name}.${type}`;
  await ctx.photos.store({ key, image, ownerId: process.id });
  return key;
}

/** A photo of the document's front or back; a new one replaces the previous. */
export async function submitDocumentPhoto(ctx: ServiceContext, options: { token: string; side: 'front' | 'back'; image: Buffer }): Promise<PersonView> {
  const process = await openProcess(ctx, options.token);
  const key = await storePhoto(ctx, process, `document-${options.side}`, options.image);
  const patch: VerifacePatch = options.side === 'front' ? { document_front: key } : { document_back: key };
  return personView(await advance(ctx, process, { patch, stage: 'document_captured', detail: { side: options.side } }));
}

/** The photo of the person's face; a new one replaces the previous. */
export async function submitFacePhoto(ctx: ServiceContext, options: { token: string; image: Buffer }): Promise<PersonView> {
  const process = await openProcess(ctx, options.token);
  const key = await storePhoto(ctx, process, 'face', options.image);
  return personView(await advance(ctx, process, { patch: { face: key }, stage: 'face_captured' }));
}

async function readPhoto(ctx: ServiceContext, key: string): Promise<Buffer> {
  const bytes = await ctx.photos.read(key);
  if (!bytes) throw new ApiError(409, 'PHOTO_MISSING');
  return bytes;
}

/** What the person's page is told once the photos were compared: never the similarity. */
export interface FinishView {
  code: string;
  status: VerifaceRow['status'];
  /** Faces that did not match the document so far; the MAX_FAILURES-th blocks. */
  failures: number;
}

/**
 * Compares the face with the document. A match APPROVES the process; a real mismatch is a failed
 * attempt (stage `rejected`, the process stays in progress for a retake) and the MAX_FAILURES-th
 * BLOCKS it for a person to review, as the real service blocks after too many attempts; a photo
 * that could not be used is recorded (stage `photo_unusable`) and answered 422 with its reason,
 * without counting; a matcher that cannot decide BLOCKS it at once for manual review.
 */
export async function finishVeriface(ctx: PersonFlowContext, options: { token: string }): Promise<FinishView> {
  const process = await openProcess(ctx, options.token);
  if (process.document_front === null) throw badRequest('DOCUMENT_PHOTO_REQUIRED');
  if (process.face === null) throw badRequest('FACE_PHOTO_REQUIRED');
  const comparison = await ctx.faceMatcher.compare({
    documentPhoto: await readPhoto(ctx, process.document_front),
    facePhoto: await readPhoto(ctx, process.face),
  });
  const earlier = (await listStages(ctx.db, process.id)).filter((s) => s.stage === 'rejected').length;
  if (!comparison) {
    await advance(ctx, process, {
      patch: { status: 'BLOCKED', result_reason: 'MANUAL_REVIEW_REQUIRED' },
      stage: 'blocked',
      detail: { reason: 'MANUAL_REVIEW_REQUIRED' },
    });
    return { code: process.code, status: 'BLOCKED', failures: earlier };
  }
  if ('unusable' in comparison) {
    const { unusable: reason, photo } = comparison;
    await advance(ctx, process, { patch: {}, stage: 'photo_unusable', detail: { reason, photo } });
    throw new ApiError(422, `${reason}: ${UNUSABLE_PHOTO_EXPLANATIONS[reason]}`);
  }
  // Two decimals, as the real service shows it, whatever precision a matcher answers with.
  const similarity = Math.round(comparison.similarity * 100) / 100;
  if (comparison.matches) {
    await advance(ctx, process, { patch: { status: 'APPROVED', similarity }, stage: 'approved', detail: { similarity } });
    return { code: process.code, status: 'APPROVED', failures: earlier };
  }
  const failures = earlier + 1;
  const failed = await advance(ctx, process, {
    patch: { similarity },
    stage: 'rejected',
    detail: { similarity, reason: 'FACE_MISMATCH', failures },
  });
  if (failures < MAX_FAILURES) return { code: process.code, status: 'INPROGRESS', failures };
  await advance(ctx, failed, {
    patch: { status: 'BLOCKED', result_reason: 'FACE_MISMATCH' },
    stage: 'blocked',
    detail: { reason: 'FACE_MISMATCH', failures },
  });
  return { code: process.code, status: 'BLOCKED', failures };
}
