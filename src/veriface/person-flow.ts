import type { ServiceContext } from '../context.js';
import type { VerifaceRow } from '../db/schema.js';
import { withTransaction } from '../db/transaction.js';
import { fail } from '../domain-error.js';
import { type AttemptRecord, attemptRow } from '../identity-attempts/attempt-record.js';
import { checkIdentity, NUMBER_MISMATCH_EXPLANATION } from '../identity-attempts/check-identity.js';
import { MAX_FAILURES } from '../identity-attempts/max-failures.js';
import { insertAttempt } from '../identity-attempts/queries.js';
import { newToken } from '../ids.js';
import { countPhotoSent } from '../photos/photo-attempts.js';
import { markPhotosDecided } from '../photos/queries.js';
import type { DocumentReader } from './document/document-reader.js';
import { type FaceMatcher, UNUSABLE_PHOTO_EXPLANATIONS } from './face-matcher.js';
import { compareInShare } from './face-share/matcher-share.js';
import { checkPhoto } from './images.js';
import type { PersonView } from './person-view.js';
import { findVerifaceByToken, listStages, updateInProgress, type VerifacePatch, type VerifacePhotoKeys } from './queries.js';
import { recordStage, type VerifaceStage } from './stages.js';

/**
 * What the person's page calls, authorised by the secret token of the personal link. Every step
 * is refused once the process is no longer in progress or its expiry date has passed, even before
 * the expiry sweep has marked it.
 */
export interface PersonFlowContext extends ServiceContext {
  faceMatcher: FaceMatcher;
  documentReader: DocumentReader;
}

async function openProcess(ctx: ServiceContext, token: string): Promise<VerifaceRow> {
  const process = await findVerifaceByToken(ctx.db, token);
  if (!process) throw fail('VERIFACE_NOT_FOUND', { when: 'personLink' });
  if (process.expires_at !== null && process.expires_at <= ctx.clock.now().toISOString()) throw fail('VERIFACE_EXPIRED');
  if (process.status !== 'INPROGRESS') throw fail('VERIFACE_CLOSED');
  return process;
}

/**
 * Applies a change and records its stage together, unless the process closed meanwhile. `decided`:
 * the photos the change is a decision on, kept from then on; the process must still name them.
 * `attempt`: the identity check the decision comes from, recorded with it.
 */
async function advance(
  ctx: ServiceContext,
  process: VerifaceRow,
  change: { patch: VerifacePatch; stage: VerifaceStage; detail?: Record<string, unknown>; decided?: VerifacePhotoKeys; attempt?: AttemptRecord },
): Promise<VerifaceRow> {
  const updated: VerifaceRow = { ...process, ...change.patch, updated_at: ctx.clock.now().toISOString() };
  await withTransaction(ctx, async (trx) => {
    const { decided } = change;
    if (!(await updateInProgress(trx, process.id, { ...change.patch, updated_at: updated.updated_at }, decided))) {
      if (decided && (await updateInProgress(trx, process.id, { updated_at: updated.updated_at }))) {
        throw fail('PHOTO_MISSING', 'a photo was taken again meanwhile, finish again');
      }
      throw fail('VERIFACE_CLOSED');
    }
    if (decided) await markPhotosDecided(trx, photoKeysOf(decided), updated.updated_at);
    if (change.attempt) {
      await insertAttempt(
        trx,
        attemptRow(ctx.clock, { organizationId: process.organization_id, ownerId: process.id, participantRowId: null, record: change.attempt }),
      );
    }
    await recordStage(trx, ctx.clock, { process: updated, stage: change.stage, detail: change.detail });
  });
  return updated;
}

export type { PersonView } from './person-view.js';

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

function photoKeysOf(keys: VerifacePhotoKeys): string[] {
  return [keys.document_front, keys.document_back, keys.face].filter((key) => key !== null);
}

/**
 * Counts the photo against the day's bound, checks it as a whole image (src/veriface/images.ts)
 * and stores it under a key of its own; the photo it replaces is deleted once the process names
 * the new one, unless a decision was taken on it.
 */
async function replacePhoto(ctx: ServiceContext, process: VerifaceRow, name: 'document-front' | 'document-back' | 'face', image: Buffer): Promise<VerifaceRow> {
  await countPhotoSent(ctx, process.id);
  const type = await checkPhoto(image);
  const key = `veriface/${process.id}/${name}-${newToken(9)}.${type}`;
  await ctx.photos.store({ key, image, ownerId: process.id });
  const change = ((): { patch: VerifacePatch; stage: VerifaceStage; detail?: Record<string, unknown>; replaced: string | null } => {
    switch (name) {
      case 'document-front':
        return { patch: { document_front: key }, stage: 'document_captured', detail: { side: 'front' }, replaced: process.document_front };
      case 'document-back':
        return { patch: { document_back: key }, stage: 'document_captured', detail: { side: 'back' }, replaced: process.document_back };
      case 'face':
        return { patch: { face: key }, stage: 'face_captured', replaced: process.face };
    }
  })();
  const updated = await advance(ctx, process, change).catch(async (error: unknown) => {
    await ctx.photos.delete([key]);
    throw error;
  });
  await ctx.photos.deleteReplaced([change.replaced]);
  return updated;
}

/** A photo of the document's front or back; a new one replaces the previous, and is read while the person takes the next. */
export async function submitDocumentPhoto(ctx: PersonFlowContext, options: { token: string; side: 'front' | 'back'; image: Buffer }): Promise<PersonView> {
  const process = await openProcess(ctx, options.token);
  const updated = await replacePhoto(ctx, process, `document-${options.side}`, options.image);
  const key = options.side === 'front' ? updated.document_front : updated.document_back;
  if (key !== null) ctx.documentReader.start(key, options.image);
  return personView(updated);
}

/** The photo of the person's face; a new one replaces the previous. */
export async function submitFacePhoto(ctx: ServiceContext, options: { token: string; image: Buffer }): Promise<PersonView> {
  const process = await openProcess(ctx, options.token);
  return personView(await replacePhoto(ctx, process, 'face', options.image));
}

/** What checking the photos decided; the people's route tells the page the similarity only once the validation is over. */
export interface FinishView {
  code: string;
  status: VerifaceRow['status'];
  /** Identity checks that failed so far (a face or the document's number that did not match); the MAX_FAILURES-th blocks. */
  failures: number;
  /** The comparison's, when faces were compared. */
  similarity?: number;
}

/**
 * Checks the identity (src/identity-attempts/check-identity.ts): the number read on the document
 * against the declared `identification`, then the face against the document. A match APPROVES
 * the process; a number read that differs, or a face that does not match, is a failed attempt
 * (stage `rejected`, the process stays in progress for a retake; a number mismatch is answered
 * 422 DOCUMENT_NUMBER_MISMATCH so the page asks for the document again) and the MAX_FAILURES-th
 * BLOCKS it for a person to review, as the real service blocks after too many attempts, its
 * reason saying which; a photo that could not be used is recorded (stage `photo_unusable`) and
 * answered 422 with its reason, without counting; a matcher that cannot decide, or a match whose
 * face photo's liveness score is suspect (LIVENESS_SUSPECT) or whose document's sides say different
 * numbers (DOCUMENT_FAKE), BLOCKS it at once for a person to review. Every check is recorded as an attempt with its photos, kept as evidence.
 */
export async function finishVeriface(ctx: PersonFlowContext, options: { token: string }): Promise<FinishView> {
  const process = await openProcess(ctx, options.token);
  if (process.document_front === null) throw fail('DOCUMENT_PHOTO_REQUIRED');
  if (process.face === null) throw fail('FACE_PHOTO_REQUIRED');
  const { verdict, attempt } = await checkIdentity(ctx, {
    declared: { identification: process.identification, country: process.country, type: process.document_type },
    photos: { documentFront: process.document_front, documentBack: process.document_back, face: process.face },
    // The faces are compared within the validation's share of the face matcher (src/veriface/face-share/).
    compare: (pair) => compareInShare(ctx, { flow: { kind: 'validation', process }, ...pair }),
  });
  const decision = { decided: process, attempt };
  const earlier = (await listStages(ctx.db, process.id)).filter((s) => s.stage === 'rejected').length;
  const number = attempt.numberCheck.result;
  switch (verdict.kind) {
    case 'manual':
      await advance(ctx, process, {
        patch: { status: 'BLOCKED', result_reason: 'MANUAL_REVIEW_REQUIRED' },
        stage: 'blocked',
        detail: { reason: 'MANUAL_REVIEW_REQUIRED', documentNumber: number },
        ...decision,
      });
      return { code: process.code, status: 'BLOCKED', failures: earlier };
    case 'unusable': {
      const { reason, photo } = verdict;
      await advance(ctx, process, { patch: {}, stage: 'photo_unusable', detail: { reason, photo }, ...decision });
      throw fail(reason, UNUSABLE_PHOTO_EXPLANATIONS[reason]);
    }
    case 'match': {
      const { similarity } = verdict;
      await advance(ctx, process, {
        patch: { status: 'APPROVED', similarity },
        stage: 'approved',
        detail: { similarity, documentNumber: number },
        ...decision,
      });
      return { code: process.code, status: 'APPROVED', failures: earlier, similarity };
    }
    case 'suspect': {
      // The faces match, but the photos may not be honest: a person decides, as with MANUAL_REVIEW_REQUIRED.
      const { reason, similarity, liveness } = verdict;
      await advance(ctx, process, {
        patch: { status: 'BLOCKED', result_reason: reason, similarity },
        stage: 'blocked',
        detail: { reason, similarity, ...(liveness === undefined ? {} : { liveness }), documentNumber: number },
        ...decision,
      });
      return { code: process.code, status: 'BLOCKED', failures: earlier, similarity };
    }
    case 'faceMismatch':
    case 'numberMismatch': {
      const reason = verdict.kind === 'faceMismatch' ? 'FACE_MISMATCH' : 'DOCUMENT_NUMBER_MISMATCH';
      const similarity = verdict.kind === 'faceMismatch' ? verdict.similarity : undefined;
      const failures = earlier + 1;
      const retry = failures < MAX_FAILURES;
      const failed = await advance(ctx, process, {
        // A document whose number differs is asked for again: its photos are the attempt's now, no longer the process's.
        patch: similarity === undefined ? (retry ? { document_front: null, document_back: null } : {}) : { similarity },
        stage: 'rejected',
        detail: { ...(similarity === undefined ? {} : { similarity }), reason, failures },
        ...decision,
      });
      if (!retry) {
        await advance(ctx, failed, { patch: { status: 'BLOCKED', result_reason: reason }, stage: 'blocked', detail: { reason, failures } });
        return { code: process.code, status: 'BLOCKED', failures, ...(similarity === undefined ? {} : { similarity }) };
      }
      if (reason === 'DOCUMENT_NUMBER_MISMATCH') throw fail('DOCUMENT_NUMBER_MISMATCH', NUMBER_MISMATCH_EXPLANATION);
      return { code: process.code, status: 'INPROGRESS', failures, ...(similarity === undefined ? {} : { similarity }) };
    }
  }
}
