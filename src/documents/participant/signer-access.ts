import type { ServiceContext } from '../../context.js';
import type { Db } from '../../db/database.js';
import type { ParticipantRow, ProcessRow } from '../../db/schema.js';
import { withTransaction } from '../../db/transaction.js';
import { type DomainError, fail } from '../../domain-error.js';
import { DOCUMENT_URL_LIFETIME_SECONDS } from '../../files/document-url-lifetime.js';
import { SIGNATURE_KINDS, type SignatureKind } from '../../templates/signature-kinds.js';
import type { DocumentReader } from '../../veriface/document/document-reader.js';
import { type FaceMatcher, UNUSABLE_PHOTO_REASONS, type UnusablePhotoReason } from '../../veriface/face-matcher.js';
import { attachmentsAsked } from '../attachments/attachments-asked.js';
import { listPlaceAttachments } from '../attachments/queries.js';
import type { EffectiveValidations } from '../identity-validations.js';
import { validationsOf } from '../notify-participants.js';
import { listSignatureBoxes } from '../placement/box-queries.js';
import { findParticipantByToken, findProcessById, listDocuments, type ParticipantPatch, updateParticipant } from '../queries.js';
import { documentsOpened, findParticipantById, lockProcess } from './signer-queries.js';
import type { SigningBox, SigningRequirements, SigningView } from './signing-view.js';

/**
 * What every operation of the signer's page shares: the participant found by the secret token of
 * their link, the refusals, one transaction per change, and the view the page shows.
 */
export type SignerContext = ServiceContext & { faceMatcher: FaceMatcher; documentReader: DocumentReader };

export interface Signing {
  process: ProcessRow;
  participant: ParticipantRow;
}

/** Why the participant cannot act now, if they cannot. */
function refusal(signing: Signing, now: string): DomainError | undefined {
  const { process, participant } = signing;
  // Past its date a process is expired even before the sweep marks it; a process that ended
  // otherwise first keeps saying why it ended.
  const pastExpiry = process.expires_at !== null && process.expires_at <= now;
  if (process.status === 'EXPIRED' || (process.status === 'CREATED' && pastExpiry)) return fail('DOCUMENT_EXPIRED');
  if (process.status !== 'CREATED') return fail('DOCUMENT_NOT_IN_SIGNATURE');
  switch (participant.status) {
    case 'NOTIFICATION':
      return undefined;
    case 'PENDING':
      return fail('NOT_YOUR_TURN');
    case 'BLOCK':
      return fail('PARTICIPANT_BLOCKED');
    case 'FINISH':
    case 'REJECT':
      return fail('PARTICIPANT_ALREADY_DONE');
  }
}

/** The participant of the link and their process, in whatever state they are. */
export async function findSigning(ctx: ServiceContext, token: string): Promise<Signing> {
  const participant = await findParticipantByToken(ctx.db, token);
  if (!participant) throw fail('SIGNING_LINK_NOT_FOUND');
  const process = await findProcessById(ctx.db, participant.process_id);
  // Unreachable through the foreign key; a link without its process is still no link.
  if (!process) throw fail('SIGNING_LINK_NOT_FOUND');
  return { process, participant };
}

/** The participant of the link and their process, refused unless it is their turn in a process in signature. */
export async function loadSigning(ctx: ServiceContext, token: string): Promise<Signing> {
  const signing = await findSigning(ctx, token);
  const refused = refusal(signing, ctx.clock.now().toISOString());
  if (refused) throw refused;
  return signing;
}

export interface ChangeTools {
  trx: Db;
  /** The process and participant as they are now, inside the transaction, after the refusals. */
  fresh: Signing;
  now: string;
  /** Changes the participant while it is still their turn; answers the changed row. */
  update(patch: ParticipantPatch): Promise<ParticipantRow>;
}

/**
 * Runs one change of a participant in one transaction: the process is locked and both rows read
 * again, so a change that raced this one (another tab, a cancellation, the expiry date) is seen and
 * refused; then the change with its audit lines and messages; the outbox is woken after commit.
 */
export async function changeSigning<T>(ctx: ServiceContext, signing: Signing, change: (tools: ChangeTools) => Promise<T>): Promise<T> {
  const result = await withTransaction(ctx, async (trx) => {
    const process = await lockProcess(trx, ctx.dialect, signing.process.id);
    const participant = await findParticipantById(trx, signing.participant.id);
    if (!process || !participant) throw fail('SIGNING_LINK_NOT_FOUND');
    const now = ctx.clock.now().toISOString();
    const fresh = { process, participant };
    const refused = refusal(fresh, now);
    if (refused) throw refused;
    let current = participant;
    const update = async (patch: ParticipantPatch): Promise<ParticipantRow> => {
      const at = ctx.clock.now().toISOString();
      // The process lock makes a lost race unreachable here; the condition still guarantees it.
      if (!(await updateParticipant(trx, participant.id, { ...patch, updated_at: at }, ['NOTIFICATION']))) {
        throw fail('SIGNING_CONFLICT', 'the participant changed meanwhile, try again');
      }
      current = { ...current, ...patch, updated_at: at };
      return current;
    };
    return change({ trx, fresh, now, update });
  });
  return result;
}

export type { SigningRequirements, SigningView } from './signing-view.js';

function cameraFailureOf(value: string | null): 'FACE_MISMATCH' | 'DOCUMENT_NUMBER_MISMATCH' | UnusablePhotoReason | undefined {
  if (value === 'FACE_MISMATCH' || value === 'DOCUMENT_NUMBER_MISMATCH') return value;
  return UNUSABLE_PHOTO_REASONS.find((reason) => reason === value);
}

/** The kinds of signature the participant may use, as kept from their template when the process was created. */
export function signatureKindsOf(participant: Pick<ParticipantRow, 'signature_kinds'>): SignatureKind[] {
  if (participant.signature_kinds === null) return [...SIGNATURE_KINDS];
  const kept: unknown = JSON.parse(participant.signature_kinds);
  return SIGNATURE_KINDS.filter((kind) => Array.isArray(kept) && kept.includes(kind));
}

export function requirementsOf(participant: ParticipantRow, validations: EffectiveValidations = validationsOf(participant)): SigningRequirements {
  const mode = validations.camera ? validations.options.camera : undefined;
  const medium = validations.otpCode ? validations.options.otpCode : undefined;
  const lastFailure = cameraFailureOf(participant.camera_last_failure);
  return {
    otpCode: { required: validations.otpCode, ...(medium ? { medium } : {}), verified: participant.otp_verified_at !== null },
    camera: {
      required: validations.camera,
      ...(mode ? { mode } : {}),
      documentBack: mode === 'identification' && validations.options.identificationCardBack,
      captured: {
        face: participant.face_key !== null,
        documentFront: participant.document_front_key !== null,
        documentBack: participant.document_back_key !== null,
      },
      verified: participant.camera_verified_at !== null,
      failures: participant.camera_failures,
      ...(lastFailure ? { lastFailure } : {}),
    },
  };
}

export function requirementsMet(requirements: SigningRequirements): boolean {
  return (!requirements.otpCode.required || requirements.otpCode.verified) && (!requirements.camera.required || requirements.camera.verified);
}

/** The participant's own boxes only: where others sign is none of their business. */
async function boxesOf(db: Db, participant: ParticipantRow): Promise<SigningBox[]> {
  const rows = await listSignatureBoxes(db, participant.process_id);
  return rows
    .filter((row) => row.participant_row_id === participant.id)
    .map((row) => ({ document: row.document_position, page: row.page, left: row.left_pt, bottom: row.bottom_pt, width: row.width_pt, height: row.height_pt }));
}

export async function signingView(ctx: ServiceContext, signing: Signing): Promise<SigningView> {
  const { process, participant } = signing;
  const [documents, boxes, openedDocuments, attachments] = await Promise.all([
    listDocuments(ctx.db, process.id),
    boxesOf(ctx.db, participant),
    documentsOpened(ctx.db, process.id, participant.participant_id),
    listPlaceAttachments(ctx.db, participant.id),
  ]);
  const requirements = requirementsOf(participant);
  return {
    code: process.code,
    name: process.name,
    documents: await Promise.all(
      documents.flatMap((d) =>
        d.file_ready === 1 && d.file_key !== null
          ? [ctx.blobs.presign(d.file_key, { method: 'GET', expiresInSeconds: DOCUMENT_URL_LIFETIME_SECONDS }).then((url) => ({ name: d.name, url }))]
          : [],
      ),
    ),
    participant: { id: participant.participant_id, name: participant.name, role: participant.role, status: participant.status },
    requirements,
    canSign: requirementsMet(requirements) && attachments.every((row) => row.optional === 1 || row.file_key !== null),
    boxes,
    openedDocuments,
    attachments: attachmentsAsked(attachments),
  };
}
