import type { ServiceContext } from '../../context.js';
import type { Db } from '../../db/database.js';
import type { ParticipantRow, ProcessRow, ProcessStatus } from '../../db/schema.js';
import { fail } from '../../domain-error.js';
import { writeBlobBytes } from '../../files/blob-bytes.js';
import { newToken } from '../../ids.js';
import { enqueue } from '../../outbox/enqueue.js';
import type { SignatureKind } from '../../templates/signature-kinds.js';
import { imageTypeOf } from '../../veriface/images.js';
import { missingAttachments } from '../attachments/attachments-asked.js';
import { awaitingApproval, listPlaceAttachments } from '../attachments/queries.js';
import { closeProcess } from '../lifecycle/close-process.js';
import { addressDetail, type FromAddress, recordProcessEvent } from '../process-events.js';
import { listDocuments } from '../queries.js';
import { keptSignature, SIGNATURE_MAX_PIXELS, signaturePixels } from '../sealing/drawing/signature-image.js';
import { SEAL_PROCESS_JOB } from '../sealing/seal-job-name.js';
import { changeSigning, loadSigning, requirementsOf, type Signing, type SigningView, signatureKindsOf, signingView } from './signer-access.js';
import { documentsOpened, everyoneFinished, markOpened } from './signer-queries.js';
import type { SigningOutcome } from './signing-view.js';
import { startNextTurn } from './turns.js';

export type { SignerContext, SigningRequirements, SigningView } from './signer-access.js';
/**
 * The operations a participant's signing page calls, authorised by the secret token of their
 * link. Each refuses unless the process is in signature, before its expiry date, and it is the
 * participant's turn (src/documents/participant/signer-access.ts); each change is one transaction with its
 * audit line and webhook. The identity steps live in signer-otp.ts and signer-photos.ts.
 */
export { OTP_LIFETIME_MINUTES, OTP_RESEND_SECONDS, requestOtp, verifyOtp } from './signer-otp.js';
export { type PhotoKind, submitPhoto } from './signer-photos.js';
export type { SigningOutcome } from './signing-view.js';

export const REJECT_REASON_MAX_LENGTH = 1000;

/** Largest signature image (drawn or typed on the participant's page) the service keeps. */
export const SIGNATURE_IMAGE_MAX_BYTES = 512 * 1024;

/**
 * A PNG recognised by its first bytes, as the photos are, not by what the client claims; then
 * decoded and kept in the form the final documents draw (src/documents/sealing/drawing/signature-image.ts).
 */
async function signatureToKeep(image: Buffer): Promise<Buffer> {
  if (image.length === 0) throw fail('SIGNATURE_IMAGE_EMPTY');
  if (image.length > SIGNATURE_IMAGE_MAX_BYTES) throw fail('SIGNATURE_IMAGE_TOO_LARGE', `at most ${SIGNATURE_IMAGE_MAX_BYTES} bytes`);
  if (imageTypeOf(image) !== 'png') throw fail('SIGNATURE_IMAGE_NOT_PNG');
  if ((await signaturePixels(image)) > SIGNATURE_MAX_PIXELS) throw fail('SIGNATURE_IMAGE_TOO_LARGE', `at most ${SIGNATURE_MAX_PIXELS} pixels`);
  return keptSignature(image).catch(() => {
    throw fail('SIGNATURE_IMAGE_UNREADABLE');
  });
}

/** What the page shows; the first opening is recorded (and sent as a webhook), reloads are not. */
export async function openSigning(ctx: ServiceContext, options: { token: string } & FromAddress): Promise<SigningView> {
  const signing = await loadSigning(ctx, options.token);
  if (signing.participant.opened_at !== null) return signingView(ctx, signing);
  const opened = await changeSigning(ctx, signing, async ({ trx, fresh, now }) => {
    if (!(await markOpened(trx, fresh.participant.id, now))) return fresh;
    const participant: ParticipantRow = { ...fresh.participant, opened_at: now, updated_at: now };
    const detail = addressDetail(options);
    await recordProcessEvent(trx, ctx.clock, { process: fresh.process, action: 'PARTICIPANT_READ', participant, ...(detail.ip ? { detail } : {}) });
    return { process: fresh.process, participant };
  });
  return signingView(ctx, opened);
}

/**
 * The participant's page shows a document (0-based `document` of the process): recorded once in the
 * audit trail, because a signer signs only what they opened. Answers the documents opened so far.
 */
export async function openDocument(ctx: ServiceContext, options: { token: string; document: number } & FromAddress): Promise<{ openedDocuments: number[] }> {
  const signing = await loadSigning(ctx, options.token);
  return changeSigning(ctx, signing, async ({ trx, fresh }) => {
    const positions = (await listDocuments(trx, fresh.process.id)).map((d) => d.position);
    if (!positions.includes(options.document)) throw fail('SIGNING_DOCUMENT_UNKNOWN', `the process has no document ${options.document}`);
    const opened = await documentsOpened(trx, fresh.process.id, fresh.participant.participant_id);
    if (opened.includes(options.document)) return { openedDocuments: opened };
    await recordProcessEvent(trx, ctx.clock, {
      process: fresh.process,
      action: 'DOCUMENT_OPENED',
      participant: fresh.participant,
      detail: { document: options.document, ...addressDetail(options) },
    });
    return { openedDocuments: [...opened, options.document].sort((a, b) => a - b) };
  });
}

/** A signer signs only once their page showed them every document of the process. */
async function refuseUnread(trx: Db, signing: Signing): Promise<void> {
  const [documents, opened] = await Promise.all([
    listDocuments(trx, signing.process.id),
    documentsOpened(trx, signing.process.id, signing.participant.participant_id),
  ]);
  const unread = documents.filter((d) => !opened.includes(d.position));
  if (unread.length > 0) throw fail('DOCUMENT_NOT_OPENED', `open ${unread.map((d) => `"${d.name}"`).join(', ')} before signing`);
}

/**
 * Where the participant acted from, as their audit line keeps it: the page's client address and
 * browser, or the WhatsApp number of the conversation (its last four digits, as the final files
 * show phones; the full number is the participant's own).
 */
interface SignedFrom {
  ip?: string;
  userAgent?: string;
  whatsapp?: string;
}

/**
 * The participant signs (SIGNER) or approves (APPROVER), once the identity validations asked of
 * them are met. The last one finishes the process and queues its sealing; otherwise the next turn
 * is invited when nobody of this one is left to act.
 */
async function finish(
  ctx: ServiceContext,
  options: { token: string; role: ParticipantRow['role'] } & SignedFrom & { signature?: SignatureGiven },
): Promise<SigningOutcome> {
  const signing = await loadSigning(ctx, options.token);
  if (signing.participant.role !== options.role) throw fail('WRONG_ROLE');
  const { signature } = options;
  if (signature) refuseKind(signing.participant, signature.kind);
  const detail = {
    ...(signature ? { signatureKind: signature.kind } : {}),
    ...(options.ip === undefined ? {} : { ip: options.ip }),
    ...(options.userAgent === undefined ? {} : { userAgent: options.userAgent }),
    ...(options.whatsapp === undefined ? {} : { whatsapp: options.whatsapp }),
  };
  let signatureKey: string | undefined;
  if (signature?.image !== undefined) {
    const kept = await signatureToKeep(signature.image);
    // A key of its own per attempt: a signature refused below never replaces one kept.
    signatureKey = `processes/${signing.process.id}/participants/${signing.participant.participant_id}/signature-${newToken(9)}.png`;
    await writeBlobBytes(ctx.blobs, signatureKey, kept, 'image/png');
  }
  const written = signatureKey;
  return changeSigning(ctx, signing, async ({ trx, fresh, now, update }) => {
    const requirements = requirementsOf(fresh.participant);
    if (requirements.otpCode.required && !requirements.otpCode.verified) throw fail('OTP_REQUIRED');
    if (requirements.camera.required && !requirements.camera.verified) throw fail('IDENTITY_VALIDATION_REQUIRED');
    const missing = missingAttachments(await listPlaceAttachments(trx, fresh.participant.id));
    if (missing.length > 0) throw fail('ATTACHMENT_REQUIRED', `give ${missing.map((name) => `"${name}"`).join(', ')} first`);
    if (options.role === 'SIGNER') await refuseUnread(trx, fresh);
    const participant = await update({ status: 'FINISH', signed_at: now, ...(written === undefined ? {} : { signature_key: written }) });
    await recordProcessEvent(trx, ctx.clock, {
      process: fresh.process,
      action: options.role === 'SIGNER' ? 'PARTICIPANT_SIGN' : 'PARTICIPANT_APPROVE',
      participant,
      ...(options.whatsapp === undefined ? {} : { platform: 'WHATSAPP' }),
      ...(Object.keys(detail).length > 0 ? { detail } : {}),
    });
    return { status: participant.status, processStatus: await participantDone(trx, ctx, fresh.process) };
  }).catch(async (error: unknown) => {
    if (written !== undefined) await ctx.blobs.delete([written]);
    throw error;
  });
}

/**
 * After a participant finished (signed, approved, or gave their files): the next turn is invited
 * when nobody of this one is left to act; after the last one the process finishes and its sealing
 * is queued, in the caller's transaction (the process row locked). A process without a document
 * waits for its creator to approve every file given (PUT /attachments), which calls this again.
 * Answers the process's status.
 */
export async function participantDone(trx: Db, ctx: ServiceContext, process: ProcessRow): Promise<ProcessStatus> {
  if (!(await everyoneFinished(trx, process.id))) {
    await startNextTurn(trx, ctx, process);
    return process.status;
  }
  if (await awaitingApproval(trx, process.id)) return process.status;
  const closed = await closeProcess(trx, ctx.clock, { process, to: 'FINISH' });
  // Unreachable while the process row is locked; refusing rolls the participant's step back with it.
  if (!closed) throw fail('DOCUMENT_NOT_IN_SIGNATURE');
  await enqueue(trx, ctx.clock, [{ kind: 'job', organizationId: closed.organization_id, payload: { name: SEAL_PROCESS_JOB, data: { processId: closed.id } } }]);
  return closed.status;
}

/**
 * How the participant signed: `kind`, drawn or their name typed; `image`, the PNG of it, placed
 * where they sign in the final documents (without one a typed signature is their name, written by
 * the seal in a handwriting-like font).
 */
export interface SignatureGiven {
  kind: SignatureKind;
  image?: Buffer;
}

/** Only the kinds the participant's template allows them (docs/real-service.md §2.3 `allow`), whatever the page offered. */
function refuseKind(participant: ParticipantRow, kind: SignatureKind): void {
  const allowed = signatureKindsOf(participant);
  if (!allowed.includes(kind)) {
    throw fail('SIGNATURE_KIND_NOT_ALLOWED', `this signature must be ${allowed.map((k) => (k === 'draw' ? 'drawn ("draw")' : 'typed ("font")')).join(' or ')}`);
  }
}

/** Without `signature`, the participant signs with their name, typed by the seal. */
export async function signDocument(ctx: ServiceContext, options: { token: string; signature?: SignatureGiven } & SignedFrom): Promise<SigningOutcome> {
  return finish(ctx, { ...options, signature: options.signature ?? { kind: 'font' }, role: 'SIGNER' });
}

export async function approveDocument(ctx: ServiceContext, options: { token: string } & SignedFrom): Promise<SigningOutcome> {
  return finish(ctx, { ...options, role: 'APPROVER' });
}

/** Any participant may reject whose turn it is: the process ends REJECTED with their reason. */
export async function rejectDocument(ctx: ServiceContext, options: { token: string; reason: string } & FromAddress): Promise<SigningOutcome> {
  const signing = await loadSigning(ctx, options.token);
  const reason = options.reason.trim();
  if (reason.length === 0 || reason.length > REJECT_REASON_MAX_LENGTH) throw fail('REJECT_REASON_REQUIRED');
  return changeSigning(ctx, signing, async ({ trx, fresh, now, update }) => {
    const participant = await update({ status: 'REJECT', rejected_at: now, reject_reason: reason });
    const detail = addressDetail(options);
    const closed = await closeProcess(trx, ctx.clock, {
      process: fresh.process,
      to: 'REJECTED',
      participant,
      message: reason,
      ...(detail.ip ? { detail } : {}),
    });
    // Unreachable while the process row is locked; refusing rolls the rejection back with it.
    if (!closed) throw fail('DOCUMENT_NOT_IN_SIGNATURE');
    return { status: participant.status, processStatus: closed.status };
  });
}
