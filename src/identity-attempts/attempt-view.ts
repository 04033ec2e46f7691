import crypto from 'node:crypto';
import { parseJson } from '../db/json-column.js';
import type { IdentityAttemptRow, ParticipantRow, ProcessRow } from '../db/schema.js';
import type { PhotoVault } from '../photos/photo-vault.js';
import type { NumberCheck } from '../veriface/document/number-check.js';
import type { DocumentData } from '../veriface/document/read-number.js';
import type { AttemptError, AttemptPhotoNames } from './attempt-record.js';

/**
 * One attempt as GET /veriface (docs/real-service.md §8.2) and GET /document?image=true show it:
 * the photos as URLs of 5 minutes (until they are deleted), the similarity, what was read on the
 * document and how its number compared, the outcome and its reasons.
 */
export interface AttemptView extends AttemptPhotoNames<string> {
  date: string;
  successful: boolean;
  similarity?: number;
  /** The face photo's liveness score, 0 to 1, when it was scored. */
  liveness?: number;
  identificationCardData: DocumentData;
  numberCheck: NumberCheck;
  errorMessages: AttemptError[];
  /** The SHA-256 of each photo's bytes as decided on: what the `hash` covers, kept after the photos are deleted. */
  photoSha256: AttemptPhotoNames<string>;
}

/** The fields of docs/real-service.md §8.2's ocrData this service reads; only those read are present. */
export interface OcrData {
  fullName?: string;
  givenNames?: string;
  surname?: string;
  documentNumber?: string;
  dateOfBirth?: string;
  sex?: string;
  bloodGroup?: string;
}

const OCR_FIELDS = ['fullName', 'givenNames', 'surname', 'documentNumber', 'dateOfBirth', 'sex', 'bloodGroup'] as const;

function documentDataOf(row: IdentityAttemptRow): DocumentData {
  return parseJson<DocumentData>(row.document_data) ?? {};
}

/** What an attempt decided, without its photos. */
export function attemptFacts(row: IdentityAttemptRow) {
  return {
    date: row.at,
    successful: row.successful === 1,
    ...(row.similarity === null ? {} : { similarity: row.similarity }),
    ...(row.liveness === null ? {} : { liveness: row.liveness }),
    identificationCardData: documentDataOf(row),
    numberCheck: parseJson<NumberCheck>(row.number_check) ?? { result: 'UNREAD', reason: 'NUMBER_NOT_FOUND' },
    errorMessages: parseJson<AttemptError[]>(row.error_messages) ?? [],
    photoSha256: parseJson<AttemptPhotoNames<string>>(row.photo_sha256) ?? {},
  };
}

export function attemptViews(photos: PhotoVault, rows: readonly IdentityAttemptRow[]): AttemptView[] {
  const url = (key: string | null) => (key === null ? undefined : photos.url(key));
  return rows.map((row) => {
    const [identificationCardFront, identificationCardBack, photo] = [url(row.document_front_key), url(row.document_back_key), url(row.face_key)];
    return {
      ...(identificationCardFront === undefined ? {} : { identificationCardFront }),
      ...(identificationCardBack === undefined ? {} : { identificationCardBack }),
      ...(photo === undefined ? {} : { photo }),
      ...attemptFacts(row),
    };
  });
}

/**
 * What was read on the document, from the attempt that decided (the last successful one) or else
 * the last that read anything; undefined when nothing was ever read, as the real service leaves
 * ocrData out when OCR did not succeed.
 */
export function ocrDataOf(rows: readonly IdentityAttemptRow[]): OcrData | undefined {
  const read = rows.filter((row) => Object.keys(documentDataOf(row)).length > 0);
  const chosen = read.filter((row) => row.successful === 1).at(-1) ?? read.at(-1);
  if (!chosen) return undefined;
  const data = documentDataOf(chosen);
  const ocr: OcrData = {};
  for (const field of OCR_FIELDS) {
    const value = data[field];
    if (value) ocr[field] = value;
  }
  return Object.keys(ocr).length > 0 ? ocr : undefined;
}

/** JSON with every object's keys in code-point order and no white space: one text for the same facts. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The integrity code of a finished identity validation (docs/api.md, "The hash"): the SHA-256, in
 * hex, of the canonical JSON of `subject` (who was validated, against what, and how it ended)
 * with `attempts`, each attempt's date, outcome, similarity, liveness score (when scored; an
 * attempt without one hashes as before the score existed), reasons, what was read, the number
 * check and the SHA-256 of its photos. Anyone holding the answer of GET /veriface (or of GET
 * /document?image=true) and the photos can compute it again.
 */
export function identityHash(subject: Record<string, string | number | null>, rows: readonly IdentityAttemptRow[]): string {
  const attempts = rows.map((row) => {
    const { similarity, ...facts } = attemptFacts(row);
    return { ...facts, similarity: similarity ?? null };
  });
  return crypto
    .createHash('sha256')
    .update(canonicalJson({ ...subject, attempts }), 'utf8')
    .digest('hex');
}

/**
 * What the hash of a participant's identity validation covers besides its attempts: the process,
 * the participant by number (as the final files name them), what they declared, and when they
 * were verified (null when never).
 */
export function participantHashSubject(process: ProcessRow, p: ParticipantRow): Record<string, string | null> {
  return {
    kind: 'participant',
    code: process.code,
    participant: String(p.position + 1),
    country: p.country,
    identificationType: p.identification_type,
    identificationNumber: p.identification,
    identityVerifiedAt: p.camera_verified_at,
  };
}
