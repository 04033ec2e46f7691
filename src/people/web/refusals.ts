import type { ErrorCode } from '../../error-catalogue.js';
import type { SigningRequirements } from '../contract.js';
import { ApiFailure, NetworkFailure } from './client.js';
import { type MessageKey, t } from './i18n.js';

/** Why the service could not use the last face it compared (a mismatch is no refusal: it is an answer). */
export type CameraFailure = NonNullable<SigningRequirements['camera']['lastFailure']>;

/** What the person can do about a refusal, in their words; any other refusal gets the generic words. */
const REFUSALS: Partial<Record<ErrorCode | CameraFailure, MessageKey>> = {
  OTP_CODE_INVALID: 'otpInvalid',
  OTP_CODE_EXPIRED: 'otpExpired',
  OTP_TOO_SOON: 'otpTooSoon',
  FACE_MISMATCH: 'faceMismatch',
  NO_FACE: 'noFace',
  MULTIPLE_FACES: 'multipleFaces',
  FACE_TOO_SMALL: 'faceTooSmall',
  FACE_BLURRY: 'faceBlurry',
  FACE_MATCHER_BUSY: 'busy',
  FACE_MATCHER_FAILED: 'busy',
  DOCUMENT_NO_FACE: 'documentNoFace',
  IMAGE_UNREADABLE: 'imageUnreadable',
  IMAGE_NOT_JPEG_OR_PNG: 'imageUnreadable',
  IMAGE_EMPTY: 'imageUnreadable',
  IMAGE_TOO_LARGE: 'imageTooLarge',
  DOCUMENT_NOT_OPENED: 'documentNotOpened',
  SIGNATURE_IMAGE_EMPTY: 'signatureUnreadable',
  SIGNATURE_IMAGE_TOO_LARGE: 'signatureUnreadable',
  SIGNATURE_IMAGE_NOT_PNG: 'signatureUnreadable',
  SIGNATURE_IMAGE_UNREADABLE: 'signatureUnreadable',
  TOO_MANY_REQUESTS: 'tooMany',
  FACE_COMPARISON_UNDER_WAY: 'comparisonUnderWay',
  FACE_COMPARISONS_PER_HOUR_EXCEEDED: 'comparisonsPerHour',
  FACE_COMPARISONS_EXCEEDED: 'comparisonsUsedUp',
  // Handing the place on
  DELEGATE_ALREADY_TAKES_PART: 'delegateTakesPart',
  DELEGATION_TOO_LATE: 'delegationTooLate',
  DELEGATION_NOT_ALLOWED: 'delegationTooLate',
  // The files asked of the participant
  ATTACHMENT_EMPTY: 'attachmentUnreadable',
  ATTACHMENT_TYPE_NOT_ALLOWED: 'attachmentUnreadable',
  ATTACHMENT_TOO_LARGE: 'attachmentTooLarge',
  // The declared identification number
  DOCUMENT_NUMBER_MISMATCH: 'documentNumberMismatch',
};

function wordsForCode(code: string): string {
  const words: Partial<Record<string, MessageKey>> = REFUSALS;
  return t((Object.hasOwn(words, code) ? words[code] : undefined) ?? 'genericError');
}

/** Why the last face could not be used, as the signing page's requirements report it. */
export function wordsForCameraFailure(failure: CameraFailure): string {
  return wordsForCode(failure);
}

export function wordsFor(error: unknown): string {
  if (error instanceof NetworkFailure) return t('networkError');
  if (error instanceof ApiFailure) return wordsForCode(error.code);
  return t('genericError');
}
