import sharp from 'sharp';
import type { ServiceContext } from '../context.js';
import { DomainError, fail } from '../domain-error.js';
import { answerMessage } from '../http/error-catalogue.js';
import { newCode } from '../ids.js';
import { type CedulaBarcode, cedulaFromBarcode, pdf417TextIn } from './document/barcode.js';
import { imageQuality } from './document/image-quality.js';
import { type MachineZone, machineZoneIn } from './document/machine-zone.js';
import type { TextReader } from './document/text-reader.js';
import { checkIdentification } from './documents-catalogue.js';
import { decodeImage } from './face/decode-image.js';
import { LocalFaceMatcher } from './face/local-matcher.js';
import type { FaceMatcher, MatcherFlow, UnusablePhotoReason } from './face-matcher.js';
import { imageBytes } from './images.js';
import { type CheckDocumentInput, VERIFACE_CODE_LENGTH } from './schemas.js';

/** What was read from the document, in the field names of docs/real-service.md §8.3; only what was found is present. */
export interface DocumentData {
  documentNumber?: string;
  personalNumber?: string;
  surname?: string;
  givenNames?: string;
  fullName?: string;
  dateOfBirth?: string;
  dateOfExpiry?: string;
  sex?: string;
  bloodGroup?: string;
  nationalityCode?: string;
  issuingStateCode?: string;
}

type NumberSource = 'PDF417' | 'MRZ' | 'OCR';

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

/** The numbers on a document are printed with dots, spaces or dashes between groups of digits. */
const digitsOf = (text: string) => text.replace(/\D/g, '');

/** A number as it is written without its separators: passports' numbers have letters. */
const printable = (text: string) => text.replace(/[^A-Z0-9]/gi, '');

/** Runs of 6 to 12 digits in OCR text, their separators dropped: the candidates for a document number. */
function numbersInText(text: string): string[] {
  const runs = text.match(/\d[\d.\-\s]{4,16}\d/g) ?? [];
  return runs
    .flatMap((run) => run.split(/\s{2,}|\n/))
    .map(digitsOf)
    .filter((digits) => digits.length >= 6 && digits.length <= 12);
}

interface NumberReading {
  source: NumberSource;
  /** Every number the source holds that may be the person's: the card's number and the national one. */
  candidates: string[];
  data: DocumentData;
  machineZoneValid?: boolean;
}

function fromBarcode(cedula: CedulaBarcode): NumberReading {
  const { personalNumber, surname, givenNames, sex, dateOfBirth, bloodGroup } = cedula;
  return {
    source: 'PDF417',
    candidates: [personalNumber],
    data: { documentNumber: personalNumber, personalNumber, surname, givenNames, fullName: `${givenNames} ${surname}`.trim(), sex, dateOfBirth, bloodGroup },
  };
}

function fromMachineZone(zone: MachineZone): NumberReading {
  const { documentNumber, surname, givenNames, dateOfBirth, dateOfExpiry, sex, nationalityCode, issuingStateCode } = zone;
  const [personalNumber] = zone.optionalData.filter((value) => digitsOf(value).length >= 6);
  const fullName = [givenNames, surname].filter(Boolean).join(' ') || undefined;
  const data: DocumentData = {
    documentNumber,
    personalNumber,
    surname,
    givenNames,
    fullName,
    dateOfBirth,
    dateOfExpiry,
    sex,
    nationalityCode,
    issuingStateCode,
  };
  return {
    source: 'MRZ',
    candidates: [documentNumber, ...zone.optionalData],
    data: Object.fromEntries(Object.entries(data).filter(([, value]) => value !== undefined)),
    machineZoneValid: zone.valid,
  };
}

/** Longest side given to OCR: a card's smallest print stays legible, and a 50-megapixel photo is not read pixel by pixel. */
const OCR_MAX_SIDE = 2000;

/** The older cédula's barcode, else a machine-readable zone, else any number printed on the document. */
async function readNumber(ctx: { textReader: TextReader }, image: Buffer): Promise<NumberReading | undefined> {
  const barcode = await pdf417TextIn(image);
  const cedula = barcode === undefined ? undefined : cedulaFromBarcode(barcode);
  if (cedula) return fromBarcode(cedula);
  // Oriented as a person sees it (tesseract ignores EXIF) and no larger than print needs.
  const forOcr = await sharp(image)
    .rotate()
    .resize({ width: OCR_MAX_SIDE, height: OCR_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
    .greyscale()
    .png()
    .toBuffer();
  const text = await ctx.textReader.read(forOcr);
  const zone = machineZoneIn(text);
  if (zone) return fromMachineZone(zone);
  const numbers = numbersInText(text);
  return numbers.length === 0 ? undefined : { source: 'OCR', candidates: numbers, data: {} };
}

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
  ctx: ServiceContext & { faceMatcher: FaceMatcher; textReader: TextReader },
  options: { organizationId: string; input: CheckDocumentInput },
): Promise<CheckDocumentAnswer> {
  const { input } = options;
  const identification = checkIdentification(input.country, input.type, input.identification);
  if (!identification.ok) throw new DomainError(answerMessage(identification.message));
  const bytes = imageBytes('image', input.image);
  const decoded = await decodeImage(bytes);
  const size = await sharp(bytes)
    .metadata()
    .catch(() => undefined);
  if (!decoded || !size?.width || !size.height) throw fail('IMAGE_UNREADABLE', 'image could not be decoded');
  const oriented = (size.orientation ?? 1) >= 5 ? { width: size.height, height: size.width } : { width: size.width, height: size.height };
  const quality = await imageQuality(decoded, oriented);
  const [portrait, reading] = quality.passed
    ? await Promise.all([findPortrait(ctx.faceMatcher, bytes, { kind: 'organization', id: options.organizationId }), readNumber(ctx, bytes)])
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
