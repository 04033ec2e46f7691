import crypto from 'node:crypto';
import { fail } from '../domain-error.js';
import type { PhotoVault } from '../photos/photo-vault.js';
import type { DocumentReader } from '../veriface/document/document-reader.js';
import { checkNumber, type DeclaredIdentity, type DocumentReading, dataWithNumber, type NumberCheck } from '../veriface/document/number-check.js';
import type { DocumentData } from '../veriface/document/read-number.js';
import { checkSides, type SidesCheck } from '../veriface/document/sides-check.js';
import type { FaceComparison, PhotoRole, UnusablePhotoReason } from '../veriface/face-matcher.js';
import type { AttemptError, AttemptPhotoNames, AttemptRecord } from './attempt-record.js';

/** What an identity check decided; the flow records it in its own way (counts, blocks, stages). */
export type IdentityVerdict =
  /** The number read on the document is not the declared one: a failed attempt, the faces not compared. */
  | { kind: 'numberMismatch' }
  /** No machine decides on this instance (FACE_MATCHER=manual): a person reviews. */
  | { kind: 'manual' }
  | { kind: 'unusable'; reason: UnusablePhotoReason; photo: PhotoRole }
  | { kind: 'match'; similarity: number; liveness?: number }
  /**
   * The faces match but something says the photos may not be honest: the face photo's liveness
   * score is below the line (LIVENESS_SUSPECT: a printed or on-screen face, perhaps), or the
   * document's two sides say different numbers (DOCUMENT_FAKE: src/veriface/document/sides-check.ts).
   * Never approved by a machine, a person reviews; the person is told only that their validation
   * is under review.
   */
  | { kind: 'suspect'; reason: SuspectReason; similarity: number; liveness?: number }
  | { kind: 'faceMismatch'; similarity: number; liveness?: number };

/** Why a match still goes to a person. */
export type SuspectReason = 'LIVENESS_SUSPECT' | 'DOCUMENT_FAKE';

export interface IdentityCheck {
  verdict: IdentityVerdict;
  attempt: AttemptRecord;
}

export interface IdentityCheckContext {
  photos: PhotoVault;
  documentReader: DocumentReader;
}

/** The face matcher as the flow may use it: within its share (src/veriface/face-share/matcher-share.ts). */
export type CompareFaces = (photos: { documentPhoto: Buffer; facePhoto: Buffer }) => Promise<FaceComparison | undefined>;

/** The keys of the photos a check is made on. */
export interface CheckedPhotos {
  documentFront: string;
  documentBack: string | null;
  face: string;
}

const sha256 = (bytes: Buffer) => crypto.createHash('sha256').update(bytes).digest('hex');

async function readPhoto(photos: PhotoVault, key: string): Promise<Buffer> {
  const bytes = await photos.read(key);
  if (!bytes) throw fail('PHOTO_MISSING');
  return bytes;
}

/** What was read on the document's photos, the front's fields first. */
function dataOf(readings: readonly DocumentReading[]): DocumentData {
  const merged: DocumentData = {};
  for (const reading of [...readings].reverse()) if (reading.read) Object.assign(merged, reading.reading.data);
  return merged;
}

function errorsOf(verdict: IdentityVerdict, numberCheck: NumberCheck, sides: SidesCheck): AttemptError[] {
  const errors: AttemptError[] = [];
  if (numberCheck.result === 'MISMATCH') errors.push({ key: 'ID_NUMBER', error: 'DOCUMENT_NUMBER_MISMATCH' });
  // Recorded whatever the faces gave: the integrator sees that the sides disagreed.
  if (sides.result === 'DISAGREE') errors.push({ key: 'ID_BACK', error: 'DOCUMENT_FAKE' });
  // Recorded even when the attempt succeeds: the integrator sees what could not be checked.
  if (numberCheck.result === 'UNREAD' && numberCheck.reason !== 'NOT_DECLARED') errors.push({ key: 'ID_NUMBER', error: 'DOCUMENT_NUMBER_UNREADABLE' });
  if (verdict.kind === 'unusable') errors.push({ key: verdict.photo === 'document' ? 'ID_FRONT' : 'PHOTO', error: verdict.reason });
  if (verdict.kind === 'faceMismatch') errors.push({ key: 'PHOTO', error: 'FACE_MISMATCH' });
  if (verdict.kind === 'manual') errors.push({ key: 'PHOTO', error: 'MANUAL_REVIEW_REQUIRED' });
  if (verdict.kind === 'suspect' && verdict.reason === 'LIVENESS_SUSPECT') errors.push({ key: 'PHOTO', error: 'LIVENESS_SUSPECT' });
  return errors;
}

/**
 * One identity check on stored photos: the document's number (read since the photo was stored,
 * src/veriface/document/document-reader.ts) compared with the declared one, then, unless it
 * differs, the face compared with the document's portrait and its liveness scored; a match whose
 * liveness is suspect, or whose document's two sides say different numbers, goes to a person. Runs outside any transaction: the
 * readers and the matcher may be slow. A number that cannot be read decides nothing, and is
 * recorded.
 */
export async function checkIdentity(
  ctx: IdentityCheckContext,
  options: { declared: DeclaredIdentity; photos: CheckedPhotos; compare: CompareFaces },
): Promise<IdentityCheck> {
  const { photos } = options;
  const [front, back, face] = await Promise.all([
    readPhoto(ctx.photos, photos.documentFront),
    photos.documentBack === null ? undefined : readPhoto(ctx.photos, photos.documentBack),
    readPhoto(ctx.photos, photos.face),
  ]);
  const [frontReading, backReading] = await Promise.all([
    ctx.documentReader.readingOf(photos.documentFront, async () => front),
    photos.documentBack !== null && back !== undefined ? ctx.documentReader.readingOf(photos.documentBack, async () => back) : undefined,
  ]);
  const readings = backReading === undefined ? [frontReading] : [frontReading, backReading];
  const numberCheck = checkNumber(options.declared, readings);
  const sides = checkSides(options.declared, frontReading, backReading);
  const verdict = await (async (): Promise<IdentityVerdict> => {
    if (numberCheck.result === 'MISMATCH') return { kind: 'numberMismatch' };
    const comparison = await options.compare({ documentPhoto: front, facePhoto: face });
    if (!comparison) return { kind: 'manual' };
    if ('unusable' in comparison) return { kind: 'unusable', reason: comparison.unusable, photo: comparison.photo };
    // Two decimals, as the real service shows it, whatever precision a matcher answers with.
    const similarity = Math.round(comparison.similarity * 100) / 100;
    const { liveness } = comparison;
    if (!comparison.matches) return { kind: 'faceMismatch', similarity, ...(liveness ? { liveness: liveness.score } : {}) };
    if (sides.result === 'DISAGREE') return { kind: 'suspect', reason: 'DOCUMENT_FAKE', similarity, ...(liveness ? { liveness: liveness.score } : {}) };
    if (liveness?.suspect) return { kind: 'suspect', reason: 'LIVENESS_SUSPECT', similarity, liveness: liveness.score };
    return { kind: 'match', similarity, ...(liveness ? { liveness: liveness.score } : {}) };
  })();
  const photoSha256: AttemptPhotoNames<string> = {
    identificationCardFront: sha256(front),
    ...(back === undefined ? {} : { identificationCardBack: sha256(back) }),
    photo: sha256(face),
  };
  return {
    verdict,
    attempt: {
      keys: { documentFront: photos.documentFront, documentBack: photos.documentBack, face: photos.face },
      photoSha256,
      ...('similarity' in verdict ? { similarity: verdict.similarity } : {}),
      ...('liveness' in verdict && verdict.liveness !== undefined ? { liveness: verdict.liveness } : {}),
      numberCheck,
      data: dataWithNumber(dataOf(readings), numberCheck),
      successful: verdict.kind === 'match',
      errorMessages: errorsOf(verdict, numberCheck, sides),
    },
  };
}

/**
 * Blocks that wait for a person's review rather than follow failed tries: the person is told their
 * validation is under review, never why (a suspect liveness score is not theirs to learn, nor to
 * work around).
 */
export const REVIEW_REASONS: readonly string[] = ['MANUAL_REVIEW_REQUIRED', 'LIVENESS_SUSPECT', 'DOCUMENT_FAKE'];

export const awaitsReview = (reason: string | null): boolean => reason !== null && REVIEW_REASONS.includes(reason);

/** The detail of DOCUMENT_NUMBER_MISMATCH for whoever reads the API's answer; the pages say it in the person's words. */
export const NUMBER_MISMATCH_EXPLANATION = 'the number on the identity document is not the one declared; photograph your own document again';
