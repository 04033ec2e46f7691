import type { ServiceContext } from '../context.js';
import { DomainError, fail } from '../domain-error.js';
import { answerMessage } from '../error-catalogue.js';
import { newCode } from '../ids.js';
import type { DocumentReader } from './document/document-reader.js';
import { documentPhotoQuality } from './document/image-quality.js';
import type { DocumentData, NumberReading, NumberSource } from './document/read-number.js';
import { checkIdentification } from './documents-catalogue.js';
import { LocalFaceMatcher } from './face/local-matcher.js';
import type { FaceMatcher, MatcherFlow, UnusablePhotoReason } from './face-matcher.js';
import { imageBytes } from './images.js';
import { type CheckDocumentInput, VERIFACE_CODE_LENGTH } from './schemas.js';

/** Each check made, with what it found. Forgery and liveness are not among them: this machine makes neither. */
export interface DocumentChecks {
  imageQuality: { passed: boolean; problem?: 'IMAGE_TOO_SMALL' | 'IMAGE_BLURRY'; width: number; height: number; sharpness: number };
  /** `made: false` when FACE_MATCHER=manual: the instance has no face model to look for one. */
  portrait: { made: true; found: boolean; problem?: UnusablePhotoReason } | { made: false };
  documentNumber: { readFrom?: NumberSource; number?: string; matches: boolean; machineZoneValid?: boolean };
}

export type CheckFailure = 'IMAGE_TOO_SMALL' | 'IMAGE_BLURRY' | UnusablePhotoReason | 'DOCUMENT_NUMBER_UNREADABLE' | 'DOCUMENT_NUMBER_MISMATCH';

export interface CheckDocumentAnswer {
  code: string;
  error: boolean;
  message?: CheckFailure;
  /** The side with the portrait: a portrait was found on it. */
  isFront: boolean;
  data: DocumentData;
  checks: DocumentChecks;
  /** Said in every answer so that no client reads more into `error: false`. */
  notChecked: ['forgery', 'liveness'];
}

/** A number as it is written without its separators: passports' numbers have letters. */
const printable = (text: string) => text.replace(/[^A-Z0-9]/gi, '');

async function findPortrait(faceMatcher: FaceMatcher, image: Buffer, flow: MatcherFlow): Promise<DocumentChecks['portrait']> {
  // The document step of the face matcher's own worker threads: no second model on the event loop.
  if (!(faceMatcher instanceof LocalFaceMatcher)) return { made: false };
  const described = await faceMatcher.pool.describe('document', image, flow);
  if ('descriptor' in described) return { made: true, found: true };
  return { made: true, found: false, problem: described.unusable };
}

/**
 * POST /veriface/check (docs/real-service.md §8.3): the checks this machine can honestly make on one side of
 * an identity document: image quality, a portrait on it, and its number read (PDF417 barcode,
 * machine-readable zone or printed text) and compared with `identification`. The answer names the
 * checks made and says that forgery and liveness are not; nothing is stored.
 */
export async function checkDocument(
  ctx: ServiceContext & { faceMatcher: FaceMatcher; documentReader: DocumentReader },
  options: { organizationId: string; input: CheckDocumentInput },
): Promise<CheckDocumentAnswer> {
  const { input } = options;
  const identification = checkIdentification(input.country, input.type, input.identification);
  if (!identification.ok) throw new DomainError(answerMessage(identification.message));
  const bytes = imageBytes('image', input.image);
  const quality = await documentPhotoQuality(bytes);
  if (!quality) throw fail('IMAGE_UNREADABLE', 'image could not be decoded');
  const [portrait, reading] = quality.passed
    ? await Promise.all([findPortrait(ctx.faceMatcher, bytes, { kind: 'organization', id: options.organizationId }), ctx.documentReader.readNumber(bytes)])
    : [{ made: false } as const, undefined];
  // Separators dropped on both sides; the letters of a passport's number count as much as its digits.
  const wanted = printable(input.identification).toUpperCase();
  const matched = wanted === '' ? undefined : reading?.candidates.find((candidate) => printable(candidate).toUpperCase() === wanted);
  const number = matched ?? reading?.candidates[0];
  const checks: DocumentChecks = {
    imageQuality: quality,
    portrait,
    documentNumber: {
      matches: matched !== undefined,
      ...(reading ? { readFrom: reading.source } : {}),
      ...(number ? { number: printable(number) } : {}),
      ...(reading?.machineZoneValid === undefined ? {} : { machineZoneValid: reading.machineZoneValid }),
    },
  };
  const isFront = portrait.made && portrait.found;
  // The back of a cédula has its code and no portrait: only a side with neither lacks one.
  const isBack = reading?.source === 'PDF417' || (reading?.source === 'MRZ' && reading.data.personalNumber !== undefined && !isFront);
  const portraitProblem = portrait.made && !portrait.found && !isBack ? portrait.problem : undefined;
  const failure = firstFailure(quality.problem, portraitProblem, reading, matched);
  const data: DocumentData = reading ? { ...reading.data, ...(number && !reading.data.documentNumber ? { documentNumber: printable(number) } : {}) } : {};
  return {
    code: newCode(VERIFACE_CODE_LENGTH),
    error: failure !== undefined,
    ...(failure ? { message: failure } : {}),
    isFront,
    data,
    checks,
    notChecked: ['forgery', 'liveness'],
  };
}

function firstFailure(
  quality: 'IMAGE_TOO_SMALL' | 'IMAGE_BLURRY' | undefined,
  portraitProblem: UnusablePhotoReason | undefined,
  reading: NumberReading | undefined,
  matched: string | undefined,
): CheckFailure | undefined {
  if (quality) return quality;
  if (portraitProblem) return portraitProblem;
  if (!reading) return 'DOCUMENT_NUMBER_UNREADABLE';
  if (matched === undefined) return 'DOCUMENT_NUMBER_MISMATCH';
  return undefined;
}
