import sharp from 'sharp';
import { type CedulaBarcode, cedulaFromBarcode } from './barcode.js';
import type { BarcodeReader } from './barcode-reader.js';
import { type MachineZone, machineZoneIn } from './machine-zone.js';
import type { TextReader } from './text-reader.js';

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

export const NUMBER_SOURCES = ['PDF417', 'MRZ', 'OCR'] as const;
export type NumberSource = (typeof NUMBER_SOURCES)[number];

export interface NumberReading {
  source: NumberSource;
  /** Every number the source holds that may be the person's: the card's number and the national one. */
  candidates: string[];
  /**
   * OCR only: the numbers written in groups of three digits between dots, as Colombian identity
   * documents print theirs (1.001.001.010); dates and codes are not written so.
   */
  dotted: string[];
  data: DocumentData;
  machineZoneValid?: boolean;
}

/** The numbers on a document are printed with dots, spaces or dashes between groups of digits. */
const digitsOf = (text: string) => text.replace(/\D/g, '');

/** Runs of 6 to 12 digits in OCR text, their separators dropped: the candidates for a document number. */
function numbersInText(text: string): string[] {
  const runs = text.match(/\d[\d.\-\s]{4,16}\d/g) ?? [];
  return runs
    .flatMap((run) => run.split(/\s{2,}|\n/))
    .map(digitsOf)
    .filter((digits) => digits.length >= 6 && digits.length <= 12);
}

function dottedNumbersIn(text: string): string[] {
  return (text.match(/(?<![\d.])\d{1,3}(?:\.\d{3}){1,3}(?![\d.])/g) ?? []).map(digitsOf).filter((digits) => digits.length >= 6);
}

function fromBarcode(cedula: CedulaBarcode): NumberReading {
  const { personalNumber, surname, givenNames, sex, dateOfBirth, bloodGroup } = cedula;
  return {
    source: 'PDF417',
    candidates: [personalNumber],
    dotted: [],
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
    dotted: [],
    data: Object.fromEntries(Object.entries(data).filter(([, value]) => value !== undefined)),
    machineZoneValid: zone.valid,
  };
}

/** Longest side given to OCR: a card's smallest print stays legible, and a 50-megapixel photo is not read pixel by pixel. */
const OCR_MAX_SIDE = 2000;

/**
 * The older cédula's barcode, else a machine-readable zone, else any number printed on the
 * document; undefined when none is there. Nothing runs on the event loop but the parsing of what
 * the readers found: the barcode search and OCR have worker threads of their own.
 */
export async function readNumber(readers: { textReader: TextReader; barcodeReader: BarcodeReader }, image: Buffer): Promise<NumberReading | undefined> {
  const barcode = await readers.barcodeReader.read(image);
  const cedula = barcode === undefined ? undefined : cedulaFromBarcode(barcode);
  if (cedula) return fromBarcode(cedula);
  // Oriented as a person sees it (tesseract ignores EXIF) and no larger than print needs.
  const upright = await sharp(image)
    .rotate()
    .resize({ width: OCR_MAX_SIDE, height: OCR_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
    .greyscale()
    .png()
    .toBuffer();
  for (const turn of OCR_TURNS) {
    const forOcr = turn === 0 ? upright : await sharp(upright).rotate(turn).png().toBuffer();
    const reading = readingOf(await readers.textReader.read(forOcr));
    if (reading) return reading;
  }
  return undefined;
}

/**
 * The turns OCR reads a photo in, until one gives a number: tesseract reads only text that runs
 * level, and a card photographed with the phone held upright lies on its side (on the sample
 * cards, no number was read on any card turned a quarter, three quarters or upside down). The
 * other turns cost an OCR pass each, about a second, only on a photo where nothing was read.
 */
const OCR_TURNS = [0, 270, 90, 180] as const;

/** A machine-readable zone in OCR text, else its numbers; undefined when it holds neither. */
function readingOf(text: string): NumberReading | undefined {
  const zone = machineZoneIn(text);
  if (zone) return fromMachineZone(zone);
  const numbers = numbersInText(text);
  return numbers.length === 0 ? undefined : { source: 'OCR', candidates: numbers, dotted: dottedNumbersIn(text), data: {} };
}
