import type { ServiceContext } from '../../context.js';
import type { IdentityAttemptRow, VerifaceRow } from '../../db/schema.js';
import { PROCESS_CODE_LENGTH } from '../../documents/schemas.js';
import { attemptFacts } from '../../identity-attempts/attempt-view.js';
import { listAttempts } from '../../identity-attempts/queries.js';
import type { IdentityView } from '../identity-views.js';
import type { ReviewItem, ReviewKind, ReviewPhoto, SimilarityBand } from './contract.js';
import { type BlockedParticipantRow, listBlockedParticipants, listBlockedVerifaces } from './queries.js';

/** How many of each kind the queue shows: a longer queue is a matter for the organization, not for paging. */
export const QUEUE_LIMIT = 100;

/** How far below the matcher's threshold a similarity still reads as borderline rather than low. */
const BORDERLINE_MARGIN = 15;

export function similarityBand(similarity: number, threshold: number): SimilarityBand {
  if (similarity >= threshold) return 'high';
  return similarity >= threshold - BORDERLINE_MARGIN ? 'borderline' : 'low';
}

/** What the person's attempts say: each one's outcome, and the last number read with how it compared. */
function attemptsPart(rows: readonly IdentityAttemptRow[]): Pick<ReviewItem, 'attempts' | 'numberRead' | 'numberCheck' | 'liveness'> {
  const facts = rows.map(attemptFacts);
  const last = facts.at(-1);
  const check = last?.numberCheck;
  return {
    attempts: facts.map((fact) => ({
      date: fact.date,
      successful: fact.successful,
      ...(fact.similarity === undefined ? {} : { similarity: fact.similarity }),
      reasons: fact.errorMessages.map((error) => error.error),
    })),
    ...(check === undefined ? {} : { numberCheck: check.result }),
    ...(check !== undefined && check.result !== 'UNREAD' ? { numberRead: check.number } : {}),
    ...(last?.liveness === undefined ? {} : { liveness: last.liveness }),
  };
}

function photosOf(keys: Record<ReviewPhoto, string | null>): ReviewPhoto[] {
  return (['documentFront', 'documentBack', 'face'] as const).filter((photo) => keys[photo] !== null);
}

function similarityPart(similarity: number | null, threshold: number): Pick<ReviewItem, 'similarity' | 'band'> {
  return similarity === null ? {} : { similarity, band: similarityBand(similarity, threshold) };
}

async function signerItem(ctx: ServiceContext, organizationId: string, row: BlockedParticipantRow, threshold: number): Promise<ReviewItem> {
  const attempts = (await listAttempts(ctx.db, { organizationId, ownerId: row.process_id })).filter((attempt) => attempt.participant_row_id === row.id);
  return {
    kind: 'signer',
    code: `${row.process_code}${row.participant_id}`,
    name: row.name,
    process: { code: row.process_code, name: row.process_name },
    blockedAt: row.updated_at,
    reason: row.block_reason ?? 'BLOCKED',
    ...similarityPart(row.similarity, threshold),
    ...(row.identification === null ? {} : { numberDeclared: row.identification }),
    failures: row.camera_failures + row.otp_failures,
    ...attemptsPart(attempts),
    photos: photosOf({ documentFront: row.document_front_key, documentBack: row.document_back_key, face: row.face_key }),
    decisions: ['approve', 'reject', 'reset'],
  };
}

async function validationItem(ctx: ServiceContext, row: VerifaceRow, threshold: number): Promise<ReviewItem> {
  const attempts = await listAttempts(ctx.db, { organizationId: row.organization_id, ownerId: row.id });
  const deleted = row.photos_deleted_at !== null;
  return {
    kind: 'validation',
    code: row.code,
    name: row.name,
    blockedAt: row.updated_at,
    reason: row.result_reason ?? 'BLOCKED',
    ...similarityPart(row.similarity, threshold),
    numberDeclared: row.identification,
    failures: attempts.filter((attempt) => attempt.successful === 0).length,
    ...attemptsPart(attempts),
    photos: deleted ? [] : photosOf({ documentFront: row.document_front, documentBack: row.document_back, face: row.face }),
    decisions: ['approve', 'reject'],
  };
}

/** The organization's blocked signers and face validations, newest first. */
export async function readReviewQueue(ctx: ServiceContext, options: { organizationId: string; threshold: number }): Promise<{ data: ReviewItem[] }> {
  const [participants, verifaces] = await Promise.all([
    listBlockedParticipants(ctx.db, options.organizationId, QUEUE_LIMIT),
    listBlockedVerifaces(ctx.db, options.organizationId, QUEUE_LIMIT),
  ]);
  const items = [
    ...(await Promise.all(participants.map((row) => signerItem(ctx, options.organizationId, row, options.threshold)))),
    ...(await Promise.all(verifaces.map((row) => validationItem(ctx, row, options.threshold)))),
  ];
  items.sort((a, b) => (a.blockedAt < b.blockedAt ? 1 : a.blockedAt > b.blockedAt ? -1 : 0));
  return { data: items.slice(0, QUEUE_LIMIT) };
}

/** Whose item a queue code names: a validation's own code, or a signer's process and participant. */
function whose(kind: ReviewKind, code: string, name: string): Pick<IdentityView, 'kind' | 'process' | 'participant' | 'name'> {
  if (kind === 'validation') return { kind, process: code, name };
  return { kind, process: code.slice(0, PROCESS_CODE_LENGTH), participant: code.slice(PROCESS_CODE_LENGTH), name };
}

/** The identity data an item of the queue shows: its ID numbers (declared, read), when it has any. */
export function numbersShown(item: ReviewItem): IdentityView[] {
  if (item.numberDeclared === undefined && item.numberRead === undefined) return [];
  return [{ ...whose(item.kind, item.code, item.name), field: 'identification' }];
}

/** A photo of the queue served to a session. */
export function photoViewed(options: { kind: ReviewKind; code: string; photo: ReviewPhoto; name: string }): IdentityView {
  return { ...whose(options.kind, options.code, options.name), photo: options.photo };
}
