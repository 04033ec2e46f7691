import type { Clock } from '../clock.js';
import type { IdentityAttemptRow } from '../db/schema.js';
import { newObjectId } from '../ids.js';
import type { NumberCheck } from '../veriface/document/number-check.js';
import type { DocumentData } from '../veriface/document/read-number.js';

/** Which part of the evidence a reason is about, as the real service keys its attempts' errorMessages. */
export type AttemptErrorKey = 'ID_FRONT' | 'ID_BACK' | 'PHOTO' | 'ID_NUMBER';

/** One reason an attempt did not succeed, or one thing it could not check (an unreadable number). */
export interface AttemptError {
  key: AttemptErrorKey;
  error: string;
}

/** The photos of an attempt by their names in GET /veriface's attempts. */
export interface AttemptPhotoNames<T> {
  identificationCardFront?: T;
  identificationCardBack?: T;
  photo?: T;
}

/** An identity check as decided, before it is stored. */
export interface AttemptRecord {
  keys: { documentFront: string | null; documentBack: string | null; face: string | null };
  photoSha256: AttemptPhotoNames<string>;
  similarity?: number;
  /** The face photo's liveness score, 0 to 1, when the matcher scored it. */
  liveness?: number;
  numberCheck: NumberCheck;
  data: DocumentData;
  successful: boolean;
  errorMessages: AttemptError[];
}

/** The row of an attempt of `ownerId` (a signing process, with its participant, or a face validation). */
export function attemptRow(
  clock: Clock,
  options: { organizationId: string; ownerId: string; participantRowId: string | null; record: AttemptRecord },
): IdentityAttemptRow {
  const { record } = options;
  const now = clock.now();
  return {
    id: newObjectId(now),
    organization_id: options.organizationId,
    owner_id: options.ownerId,
    participant_row_id: options.participantRowId,
    at: now.toISOString(),
    document_front_key: record.keys.documentFront,
    document_back_key: record.keys.documentBack,
    face_key: record.keys.face,
    photo_sha256: JSON.stringify(record.photoSha256),
    similarity: record.similarity ?? null,
    liveness: record.liveness ?? null,
    number_check: JSON.stringify(record.numberCheck),
    document_data: JSON.stringify(record.data),
    successful: record.successful ? 1 : 0,
    error_messages: JSON.stringify(record.errorMessages),
  };
}
