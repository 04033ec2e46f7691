import type { ParticipantRow } from '../../db/schema.js';
import { type DomainError, fail } from '../../domain-error.js';
import { attemptRow } from '../../identity-attempts/attempt-record.js';
import { type CheckedPhotos, checkIdentity, NUMBER_MISMATCH_EXPLANATION, type SuspectReason } from '../../identity-attempts/check-identity.js';
import { MAX_FAILURES } from '../../identity-attempts/max-failures.js';
import { insertAttempt } from '../../identity-attempts/queries.js';
import { newToken } from '../../ids.js';
import { countPhotoSent } from '../../photos/photo-attempts.js';
import { markPhotosDecided } from '../../photos/queries.js';
import { UNUSABLE_PHOTO_EXPLANATIONS } from '../../veriface/face-matcher.js';
import { compareInShare } from '../../veriface/face-share/matcher-share.js';
import { checkPhoto } from '../../veriface/images.js';
import type { EffectiveValidations } from '../identity-validations.js';
import { validationsOf } from '../notify-participants.js';
import { addressDetail, type FromAddress, recordProcessEvent } from '../process-events.js';
import type { ParticipantPatch } from '../queries.js';
import { changeSigning, loadSigning, type SignerContext, type Signing, type SigningView, signingView } from './signer-access.js';
import { countFailure } from './signer-queries.js';

export type PhotoKind = 'face' | 'documentFront' | 'documentBack';

function photoPatch(kind: PhotoKind, key: string): ParticipantPatch {
  switch (kind) {
    case 'face':
      return { face_key: key };
    case 'documentFront':
      return { document_front_key: key };
    case 'documentBack':
      return { document_back_key: key };
  }
}

function photoKey(participant: ParticipantRow, kind: PhotoKind): string | null {
  switch (kind) {
    case 'face':
      return participant.face_key;
    case 'documentFront':
      return participant.document_front_key;
    case 'documentBack':
      return participant.document_back_key;
  }
}

/** The photos of the participant's identity evidence, as a decision on them keeps them. */
function evidenceKeys(participant: ParticipantRow): string[] {
  return [participant.face_key, participant.document_front_key, participant.document_back_key].filter((key) => key !== null);
}

/** The face and every document photo the participant's validations ask for are stored. */
function allCaptured(participant: ParticipantRow, validations: EffectiveValidations): boolean {
  return (
    participant.face_key !== null &&
    participant.document_front_key !== null &&
    (!validations.options.identificationCardBack || participant.document_back_key !== null)
  );
}

type CompareOutcome = { signing: Signing } | { refused: DomainError };

/**
 * Checks the identity once every asked photo is there, outside any transaction (the readers and
 * the matcher may be slow; src/identity-attempts/check-identity.ts), then records the attempt and
 * its result: verified when the number read is not another and the faces match; a number read
 * that differs from the declared `identification`, or a face that does not match, is a failure,
 * the third of which blocks (the block reason says which); a number mismatch is answered 422 so
 * the page asks for the document's photo again. A photo that could not be used is kept on the
 * audit trail and answered 422 with its reason, so the page asks for a retake, without counting
 * against the person; a matcher that cannot decide, or a match whose face photo's liveness score is
 * suspect (LIVENESS_SUSPECT), or whose document's sides say different numbers (DOCUMENT_FAKE), blocks
 * at once for a person to review.
 */
async function checkPhotos(ctx: SignerContext, signing: Signing, photos: CheckedPhotos): Promise<SigningView> {
  const { participant: asked } = signing;
  const { verdict, attempt } = await checkIdentity(ctx, {
    declared: { identification: asked.identification, country: asked.country, type: asked.identification_type },
    photos,
    // The faces are compared within the participant's share of the face matcher (src/veriface/face-share/).
    compare: (pair) => compareInShare(ctx, { flow: { kind: 'participant', process: signing.process, participant: signing.participant }, ...pair }),
  });
  const outcome = await changeSigning(ctx, signing, async ({ trx, fresh, now, update }): Promise<CompareOutcome> => {
    const { process, participant } = fresh;
    // A check that finished first (another photo sent meanwhile) already decided; one of photos
    // a retake replaced meanwhile decides nothing: the retake's own check will.
    if (participant.camera_verified_at !== null) return { signing: fresh };
    if (participant.face_key !== photos.face || participant.document_front_key !== photos.documentFront) return { signing: fresh };
    if (participant.document_back_key !== photos.documentBack) return { signing: fresh };
    // Every attempt's photos are its evidence: no retake deletes them.
    await markPhotosDecided(trx, evidenceKeys(participant), now);
    await insertAttempt(
      trx,
      attemptRow(ctx.clock, { organizationId: process.organization_id, ownerId: process.id, participantRowId: participant.id, record: attempt }),
    );
    const block = async (
      reason: 'FACE_MISMATCH' | 'DOCUMENT_NUMBER_MISMATCH' | 'MANUAL_REVIEW_REQUIRED' | SuspectReason,
      patch: ParticipantPatch,
      detail?: Record<string, unknown>,
    ): Promise<CompareOutcome> => {
      const blocked = await update({ ...patch, status: 'BLOCK', block_reason: reason });
      await recordProcessEvent(trx, ctx.clock, { process, action: 'PARTICIPANT_BLOCK', participant: blocked, message: reason, ...(detail ? { detail } : {}) });
      return { refused: fail('PARTICIPANT_BLOCKED') };
    };
    const number = attempt.numberCheck.result;
    switch (verdict.kind) {
      case 'manual':
        return block('MANUAL_REVIEW_REQUIRED', {});
      case 'unusable': {
        const { reason, photo } = verdict;
        const noted = await update({ camera_last_failure: reason });
        await recordProcessEvent(trx, ctx.clock, { process, action: 'PHOTO_UNUSABLE', participant: noted, message: reason, detail: { reason, photo } });
        return { refused: fail(reason, UNUSABLE_PHOTO_EXPLANATIONS[reason]) };
      }
      case 'suspect': {
        // The faces match, but the photos may not be honest: a person reviews, as with MANUAL_REVIEW_REQUIRED.
        const { reason, similarity, liveness } = verdict;
        return block(
          reason,
          { similarity, camera_last_failure: null },
          { similarity, ...(liveness === undefined ? {} : { liveness }), documentNumber: number },
        );
      }
      case 'match': {
        const { similarity } = verdict;
        const verified = await update({ similarity, camera_verified_at: now, camera_last_failure: null });
        await recordProcessEvent(trx, ctx.clock, {
          process,
          action: 'IDENTITY_VERIFIED',
          participant: verified,
          detail: { similarity, documentNumber: number },
        });
        return { signing: { process, participant: verified } };
      }
      case 'faceMismatch':
      case 'numberMismatch': {
        const reason = verdict.kind === 'faceMismatch' ? 'FACE_MISMATCH' : 'DOCUMENT_NUMBER_MISMATCH';
        const failures = await countFailure(trx, participant.id, 'camera_failures', now);
        if (failures === undefined) throw fail('SIGNING_CONFLICT', 'the participant changed meanwhile, try again');
        const similarity = verdict.kind === 'faceMismatch' ? { similarity: verdict.similarity } : {};
        await recordProcessEvent(trx, ctx.clock, { process, action: 'IDENTITY_FAILED', participant, detail: { ...similarity, reason, failures } });
        // The last comparison's similarity is kept so the integrator sees how far it was.
        const failure: ParticipantPatch = { ...similarity, camera_failures: failures, camera_last_failure: reason };
        if (failures >= MAX_FAILURES) return block(reason, failure);
        if (reason === 'FACE_MISMATCH') return { signing: { process, participant: await update(failure) } };
        // The document is asked for again: its photos are the attempt's now, no longer the participant's.
        await update({ ...failure, document_front_key: null, document_back_key: null });
        return { refused: fail('DOCUMENT_NUMBER_MISMATCH', NUMBER_MISMATCH_EXPLANATION) };
      }
    }
  });
  if ('refused' in outcome) throw outcome.refused;
  return signingView(ctx, outcome.signing);
}

/**
 * Stores a photo the participant's camera validation asks for, once it is checked as a whole
 * image (src/veriface/images.ts) and counted against the day's bound. A retake replaces the
 * previous photo of its kind, which is deleted unless a decision was taken on it. With 'photo' the
 * face alone verifies the participant; with 'identification' the face is compared with the
 * document once every asked photo is there, again after each retake.
 */
export async function submitPhoto(ctx: SignerContext, options: { token: string; kind: PhotoKind; image: Buffer } & FromAddress): Promise<SigningView> {
  const { kind } = options;
  const signing = await loadSigning(ctx, options.token);
  const validations = validationsOf(signing.participant);
  const mode = validations.camera ? validations.options.camera : undefined;
  if (mode === undefined) throw fail('CAMERA_NOT_REQUIRED');
  if (kind !== 'face' && mode !== 'identification') throw fail('DOCUMENT_PHOTO_NOT_REQUIRED');
  if (kind === 'documentBack' && !validations.options.identificationCardBack) throw fail('DOCUMENT_PHOTO_NOT_REQUIRED');
  // The photos a verification was decided on are its evidence: they are not replaced afterwards.
  if (signing.participant.camera_verified_at !== null) throw fail('IDENTITY_ALREADY_VERIFIED');
  const { process, participant } = signing;
  await countPhotoSent(ctx, participant.id);
  const type = await checkPhoto(options.image);
  // A key of its own per upload: a photo refused below (or racing a verification) never
  // overwrites one a decision was made on.
  const key = `processes/${process.id}/participants/${participant.participant_id}/${kind}-${newToken(9)}.${type}`;
  await ctx.photos.store({ key, image: options.image, ownerId: process.id });

  const stored = await changeSigning(ctx, signing, async ({ trx, fresh, now, update }): Promise<{ signing: Signing; replaced: string | null }> => {
    if (fresh.participant.camera_verified_at !== null) throw fail('IDENTITY_ALREADY_VERIFIED');
    const verifiedNow = mode === 'photo';
    const updated = await update({ ...photoPatch(kind, key), ...(verifiedNow ? { camera_verified_at: now } : {}) });
    await recordProcessEvent(trx, ctx.clock, {
      process: fresh.process,
      action: 'PHOTO_CAPTURED',
      participant: updated,
      detail: { kind, ...addressDetail(options) },
    });
    if (verifiedNow) {
      await markPhotosDecided(trx, [key], now);
      await recordProcessEvent(trx, ctx.clock, { process: fresh.process, action: 'IDENTITY_VERIFIED', participant: updated });
    }
    return { signing: { process: fresh.process, participant: updated }, replaced: photoKey(fresh.participant, kind) };
  }).catch(async (error: unknown) => {
    await ctx.photos.delete([key]);
    throw error;
  });
  await ctx.photos.deleteReplaced([stored.replaced]);
  // Read while the person takes the next photo; the check waits for it.
  if (kind !== 'face') ctx.documentReader.start(key, options.image);

  const { participant: current } = stored.signing;
  const stillToCompare = mode === 'identification' && current.camera_verified_at === null && allCaptured(current, validations);
  const { face_key: face, document_front_key: documentFront, document_back_key: documentBack } = current;
  if (stillToCompare && face !== null && documentFront !== null) return checkPhotos(ctx, stored.signing, { face, documentFront, documentBack });
  return signingView(ctx, stored.signing);
}
