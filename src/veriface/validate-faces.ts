import type { ServiceContext } from '../context.js';
import { DomainError, fail } from '../domain-error.js';
import { answerMessage } from '../http/error-catalogue.js';
import { newCode } from '../ids.js';
import { checkIdentification } from './documents-catalogue.js';
import type { FaceMatcher, UnusablePhotoReason } from './face-matcher.js';
import { compareInShare } from './face-share/matcher-share.js';
import { imageBytes } from './images.js';
import { type ValidateFacesInput, VERIFACE_CODE_LENGTH } from './schemas.js';

/**
 * The document as far as this service can honestly tell: whether it shows a portrait, as the
 * front of an identity document does. No OCR and no forgery check are made, so `data` is empty.
 */
interface IdentificationCard {
  error: boolean;
  message?: UnusablePhotoReason;
  isFront: boolean;
  data: Record<string, never>;
}

export interface ValidateFacesAnswer {
  error: boolean;
  /** Why it failed: FACE_MISMATCH, or the reason a photo could not be used. */
  message?: 'FACE_MISMATCH' | UnusablePhotoReason;
  /** 0 to 100, when the two faces could be compared. */
  similarity?: number;
  code: string;
  identificationCard: IdentificationCard;
}

/**
 * POST /veriface/validate (docs/real-service.md §8.4): a face photo against an identity document's photo,
 * answered at once with the same matcher as the flows; nothing is stored. `code` names this
 * answer in the service's logs.
 */
export async function validateFaces(
  ctx: ServiceContext & { faceMatcher: FaceMatcher },
  options: { organizationId: string; input: ValidateFacesInput },
): Promise<ValidateFacesAnswer> {
  const { input } = options;
  const identification = checkIdentification(input.country, input.type, input.identification);
  if (!identification.ok) throw new DomainError(answerMessage(identification.message));
  const documentPhoto = imageBytes('documentImage', input.documentImage);
  const facePhoto = imageBytes('photo', input.photo);
  const comparison = await compareInShare(ctx, { flow: { kind: 'organization', organizationId: options.organizationId }, documentPhoto, facePhoto });
  if (!comparison) throw fail('FACE_MATCHING_DISABLED');
  const code = newCode(VERIFACE_CODE_LENGTH);
  if ('unusable' in comparison) {
    const onDocument = comparison.photo === 'document';
    return {
      error: true,
      message: comparison.unusable,
      code,
      identificationCard: {
        error: onDocument,
        ...(onDocument ? { message: comparison.unusable } : {}),
        isFront: !onDocument,
        data: {},
      },
    };
  }
  const similarity = Math.round(comparison.similarity * 100) / 100;
  return {
    error: !comparison.matches,
    ...(comparison.matches ? {} : { message: 'FACE_MISMATCH' as const }),
    similarity,
    code,
    identificationCard: { error: false, isFront: true, data: {} },
  };
}
