import type { ServiceContext } from '../../context.js';
import { unlockParticipant } from '../../documents/participant/unlock-participant.js';
import { PROCESS_CODE_LENGTH } from '../../documents/schemas.js';
import { fail } from '../../domain-error.js';
import { contentTypeOf } from '../../files/blob-store.js';
import { reviewVeriface } from '../../veriface/review-veriface.js';
import { recordedAlongside } from '../audit.js';
import type { ConsoleUser } from '../sessions.js';
import type { ReviewDecision, ReviewKind, ReviewPhoto } from './contract.js';
import { findBlockedParticipant, findBlockedVeriface } from './queries.js';

export interface ReviewDecisionInput {
  kind: ReviewKind;
  code: string;
  decision: ReviewDecision;
  reason: string;
}

/**
 * A console user decides one item of the review queue through the API's own decisions, so the
 * state, the process's audit trail and the webhooks are those of POST /veriface/review and POST
 * /document/unlock, with the user as who decided, and the console's audit log records it with the
 * reason in the same transaction. The API takes a signer's reason with an approval only (a rejection's is
 * IDENTITY_REJECTED, a reset has none): the console's audit log keeps it for every decision.
 */
export async function decideReview(
  ctx: ServiceContext,
  options: { user: ConsoleUser; input: ReviewDecisionInput; address: string },
): Promise<{ decided: true }> {
  const { user, input } = options;
  const { organizationId } = user;
  const alongside = recordedAlongside(ctx.clock, {
    user,
    action: 'REVIEW_DECIDED',
    address: options.address,
    detail: { kind: input.kind, code: input.code, decision: input.decision, reason: input.reason },
  });
  if (input.kind === 'validation') {
    if (input.decision === 'reset') throw fail('REVIEW_NOT_FOUND');
    await reviewVeriface(ctx, {
      organizationId,
      input: { code: input.code, decision: input.decision, email: user.email, reason: input.reason },
      alongside,
    });
  } else {
    const message = input.decision === 'approve' ? { message: input.reason } : {};
    await unlockParticipant(ctx, { organizationId, input: { code: input.code, email: user.email, status: input.decision, ...message }, alongside });
  }
  return { decided: true };
}

/** The photo's blob key and whose it is, of an item waiting in the organization's queue only. */
async function photoKey(
  ctx: ServiceContext,
  options: { organizationId: string; kind: ReviewKind; code: string; photo: ReviewPhoto },
): Promise<{ key: string | null; name: string }> {
  const { organizationId, code, photo } = options;
  if (options.kind === 'validation') {
    const row = await findBlockedVeriface(ctx.db, organizationId, code);
    if (!row) throw fail('REVIEW_NOT_FOUND');
    const key = row.photos_deleted_at !== null ? null : { documentFront: row.document_front, documentBack: row.document_back, face: row.face }[photo];
    return { key, name: row.name };
  }
  const row = await findBlockedParticipant(ctx.db, organizationId, code.slice(0, PROCESS_CODE_LENGTH), code.slice(PROCESS_CODE_LENGTH));
  if (!row) throw fail('REVIEW_NOT_FOUND');
  return { key: { documentFront: row.document_front_key, documentBack: row.document_back_key, face: row.face_key }[photo], name: row.name };
}

/**
 * A photo of an item waiting in the organization's review queue, decrypted, with whose it is (for
 * the audit log): only to a session of that organization, and only while the item waits (a decided
 * one, or another organization's, answers REVIEW_NOT_FOUND).
 */
export async function readReviewPhoto(
  ctx: ServiceContext,
  options: { organizationId: string; kind: ReviewKind; code: string; photo: ReviewPhoto },
): Promise<{ image: Buffer; contentType: string; name: string }> {
  const { key, name } = await photoKey(ctx, options);
  const image = key === null ? undefined : await ctx.photos.read(key);
  if (key === null || !image) throw fail('FILE_NOT_FOUND');
  return { image, contentType: contentTypeOf(key), name };
}
