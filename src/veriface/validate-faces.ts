import type { ServiceContext } from '../context.js';
import { DomainError, fail } from '../domain-error.js';
import { answerMessage } from '../error-catalogue.js';
import { newCode } from '../ids.js';
import type { DocumentReader } from './document/document-reader.js';
import { checkNumber, dataWithNumber, type NumberCheck } from './document/number-check.js';
import type { DocumentData } from './document/read-number.js';
import { checkIdentification } from './documents-catalogue.js';
import type { FaceMatcher, UnusablePhotoReason } from './face-matcher.js';
import { compareInShare } from './face-share/matcher-share.js';
import { imageBytes } from './images.js';
import { type ValidateFacesInput, VERIFACE_CODE_LENGTH } from './schemas.js';

/**
 * The document as far as this service can honestly tell: whether it shows a portrait, as the
 * front of an identity document does, what was read on it and how its number compared with
 * `identification`. No forgery check is made.
 */
interface IdentificationCard {
  error: boolean;
  message?: UnusablePhotoReason | 'DOCUMENT_NUMBER_MISMATCH';
  isFront: boolean;
  data: DocumentData;
  numberCheck: NumberCheck;
}

export interface ValidateFacesAnswer {
  error: boolean;
  /** Why it failed: FACE_MISMATCH, DOCUMENT_NUMBER_MISMATCH, LIVENESS_SUSPECT, or the reason a photo could not be used. */
  message?: 'FACE_MISMATCH' | 'DOCUMENT_NUMBER_MISMATCH' | 'LIVENESS_SUSPECT' | UnusablePhotoReason;
  /** 0 to 100, when the two faces could be compared. */
  similarity?: number;
  /** The face photo's liveness score, 0 to 1, when the faces were compared. */
  liveness?: number;
  code: string;
  identificationCard: IdentificationCard;
}

/**
 * POST /veriface/validate (docs/real-service.md §8.4): a face photo against an identity document's
 * photo, answered at once with the same matcher and readers as the flows; nothing is stored. The
 * document's number is read (off the event loop, beside the comparison) and compared with
 * `identification`: a number read and different fails with DOCUMENT_NUMBER_MISMATCH, one that
 * cannot be read fails nothing and says why in `numberCheck`. A match whose face photo's liveness
 * score is below LIVENESS_THRESHOLD fails with LIVENESS_SUSPECT, as the flows send it to a person
 * rather than approve it; the score is in `liveness`. `code` names this answer in the service's logs.
 */
export async function validateFaces(
  ctx: ServiceContext & { faceMatcher: FaceMatcher; documentReader: DocumentReader },
  options: { organizationId: string; input: ValidateFacesInput },
): Promise<ValidateFacesAnswer> {
  const { input } = options;
  const identification = checkIdentification(input.country, input.type, input.identification);
  if (!identification.ok) throw new DomainError(answerMessage(identification.message));
  const documentPhoto = imageBytes('documentImage', input.documentImage);
  const facePhoto = imageBytes('photo', input.photo);
  // Read while the faces are compared; a read never fails (it says why nothing was read).
  const reading = ctx.documentReader.read(documentPhoto);
  const comparison = await compareInShare(ctx, { flow: { kind: 'organization', organizationId: options.organizationId }, documentPhoto, facePhoto });
  if (!comparison) throw fail('FACE_MATCHING_DISABLED');
  const read = await reading;
  const numberCheck = checkNumber({ identification: input.identification, country: input.country, type: input.type }, [read]);
  const data = dataWithNumber(read.read ? read.reading.data : {}, numberCheck);
  const mismatch = numberCheck.result === 'MISMATCH';
  const code = newCode(VERIFACE_CODE_LENGTH);
  if ('unusable' in comparison) {
    const onDocument = comparison.photo === 'document';
    const cardMessage = onDocument ? comparison.unusable : mismatch ? ('DOCUMENT_NUMBER_MISMATCH' as const) : undefined;
    return {
      error: true,
      message: comparison.unusable,
      code,
      identificationCard: { error: cardMessage !== undefined, ...(cardMessage ? { message: cardMessage } : {}), isFront: !onDocument, data, numberCheck },
    };
  }
  const similarity = Math.round(comparison.similarity * 100) / 100;
  const { liveness } = comparison;
  const message = mismatch
    ? ('DOCUMENT_NUMBER_MISMATCH' as const)
    : !comparison.matches
      ? ('FACE_MISMATCH' as const)
      : liveness?.suspect
        ? ('LIVENESS_SUSPECT' as const)
        : undefined;
  return {
    error: message !== undefined,
    ...(message ? { message } : {}),
    similarity,
    ...(liveness ? { liveness: liveness.score } : {}),
    code,
    identificationCard: { error: mismatch, ...(mismatch ? { message: 'DOCUMENT_NUMBER_MISMATCH' as const } : {}), isFront: true, data, numberCheck },
  };
}
