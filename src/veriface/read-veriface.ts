import type { ServiceContext } from '../context.js';
import { parseJson } from '../db/json-column.js';
import type { VerifaceRow } from '../db/schema.js';
import { fail } from '../domain-error.js';
import { type AttemptView, attemptViews, identityHash, type OcrData, ocrDataOf } from '../identity-attempts/attempt-view.js';
import { listAttempts } from '../identity-attempts/queries.js';
import { findVerifaceByCode, listStages } from './queries.js';

export interface VerifaceView {
  code: string;
  email: string;
  platform: 'whatsapp' | 'web';
  status: string;
  name: string;
  userEmail?: string;
  phone: string;
  country: string;
  identificationType: string;
  identificationNumber: string;
  expiredDate?: string;
  custom?: Record<string, unknown>;
  targetWebhooks?: string[];
  tags?: string[];
  /** 0 to 100, once the face was compared with the document. */
  similarity?: number;
  /** Why the process did not end APPROVED: FACE_MISMATCH, MANUAL_REVIEW_REQUIRED. */
  reason?: string;
  /** The user who decided the BLOCKED process by hand, and the reason they gave. */
  emailValidated?: string;
  reviewReason?: string;
  /** Short-lived (5 minutes) download URLs of the photos captured so far; none once they were deleted. */
  photos: { documentFront?: string; documentBack?: string; face?: string };
  /** When the photos were deleted, by the retention purge or on request. */
  photosDeletedAt?: string;
  stages: { stage: string; at: string; detail?: Record<string, unknown> }[];
  /** What was read on the document (docs/real-service.md §8.2 names), once anything was. */
  ocrData?: OcrData;
  /** Every identity check, oldest first, with its photos (URLs of 5 minutes), similarity, what was read, outcome and reasons. */
  attempts: AttemptView[];
  /** The 64-hex integrity code of the validation, once it is over (docs/api.md, "The hash"). */
  hash?: string;
  createdAt: string;
  updatedAt: string;
}

/** A validation is over, and its facts fixed, in these states; BLOCKED still waits for a person's decision. */
const FINISHED: readonly VerifaceRow['status'][] = ['APPROVED', 'VALIDATED', 'INVALIDATED', 'EXPIRED'];

/** What the hash of a face validation covers besides its attempts (docs/api.md, "The hash"). */
export function verifaceHashSubject(row: VerifaceRow): Record<string, string> {
  return {
    kind: 'veriface',
    code: row.code,
    status: row.status,
    country: row.country,
    identificationType: row.document_type,
    identificationNumber: row.identification,
  };
}

/**
 * What the public key reads of a face validation: its state and result, the person's name, and when
 * each stage happened. No ID number, phone, e-mail, photo, `custom` or stage details (a reviewer's
 * e-mail and reason): the public key sits in integrators' web pages.
 */
export interface PublicVerifaceView {
  code: string;
  platform: VerifaceRow['platform'];
  status: string;
  name: string;
  expiredDate?: string;
  similarity?: number;
  reason?: string;
  stages: { stage: string; at: string }[];
  createdAt: string;
  updatedAt: string;
}

function photoUrls(ctx: ServiceContext, row: VerifaceRow): VerifaceView['photos'] {
  const url = (key: string) => ctx.photos.url(key);
  return {
    ...(row.document_front === null ? {} : { documentFront: url(row.document_front) }),
    ...(row.document_back === null ? {} : { documentBack: url(row.document_back) }),
    ...(row.face === null ? {} : { face: url(row.face) }),
  };
}

async function loadVeriface(ctx: ServiceContext, options: { organizationId: string; code: string }) {
  const row = await findVerifaceByCode(ctx.db, options.organizationId, options.code);
  if (!row) throw fail('VERIFACE_NOT_FOUND', { when: 'elsewhere' });
  return { row, stages: await listStages(ctx.db, row.id) };
}

/** The process as the real service's GET /veriface names its fields, with every stage and its time. */
export async function readVeriface(ctx: ServiceContext, options: { organizationId: string; code: string }): Promise<VerifaceView> {
  const { row, stages } = await loadVeriface(ctx, options);
  const attempts = await listAttempts(ctx.db, { organizationId: options.organizationId, ownerId: row.id });
  const ocrData = ocrDataOf(attempts);
  const custom = parseJson<Record<string, unknown>>(row.custom);
  const targetWebhooks = parseJson<string[]>(row.target_webhooks);
  const tags = parseJson<string[]>(row.tags);
  return {
    code: row.code,
    email: row.creator_email,
    platform: row.platform,
    status: row.status,
    name: row.name,
    ...(row.user_email === null ? {} : { userEmail: row.user_email }),
    phone: row.phone,
    country: row.country,
    identificationType: row.document_type,
    identificationNumber: row.identification,
    ...(row.expires_at === null ? {} : { expiredDate: row.expires_at }),
    ...(custom === undefined ? {} : { custom }),
    ...(targetWebhooks === undefined ? {} : { targetWebhooks }),
    ...(tags === undefined ? {} : { tags }),
    ...(row.similarity === null ? {} : { similarity: row.similarity }),
    ...(row.result_reason === null ? {} : { reason: row.result_reason }),
    ...(row.email_validated === null ? {} : { emailValidated: row.email_validated }),
    ...(row.review_reason === null ? {} : { reviewReason: row.review_reason }),
    photos: photoUrls(ctx, row),
    ...(row.photos_deleted_at === null ? {} : { photosDeletedAt: row.photos_deleted_at }),
    stages: stages.map((s) => {
      const detail = parseJson<Record<string, unknown>>(s.detail);
      return { stage: s.stage, at: s.at, ...(detail === undefined ? {} : { detail }) };
    }),
    ...(ocrData === undefined ? {} : { ocrData }),
    attempts: attemptViews(ctx.photos, attempts),
    ...(FINISHED.includes(row.status) ? { hash: identityHash(verifaceHashSubject(row), attempts) } : {}),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** A face validation as the public key reads it (`PublicVerifaceView`): each field named here. */
export async function readPublicVeriface(ctx: ServiceContext, options: { organizationId: string; code: string }): Promise<PublicVerifaceView> {
  const { row, stages } = await loadVeriface(ctx, options);
  return {
    code: row.code,
    platform: row.platform,
    status: row.status,
    name: row.name,
    ...(row.expires_at === null ? {} : { expiredDate: row.expires_at }),
    ...(row.similarity === null ? {} : { similarity: row.similarity }),
    ...(row.result_reason === null ? {} : { reason: row.result_reason }),
    stages: stages.map((s) => ({ stage: s.stage, at: s.at })),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
