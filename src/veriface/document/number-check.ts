import { type DocumentData, NUMBER_SOURCES, type NumberReading, type NumberSource } from './read-number.js';

/** Why no number could be compared: the photo could not be read, or held no number that can be said to be the document's. */
export const UNREAD_REASONS = [
  'IMAGE_TOO_SMALL',
  'IMAGE_BLURRY',
  'IMAGE_UNREADABLE',
  'NUMBER_NOT_FOUND',
  'MACHINE_ZONE_INVALID',
  'DOCUMENT_READER_FAILED',
  'NOT_DECLARED',
] as const;
export type UnreadReason = (typeof UNREAD_REASONS)[number];

/** What was read on one photo of a document: a number reading, or why there is none. */
export type DocumentReading = { read: true; reading: NumberReading } | { read: false; reason: UnreadReason };

/**
 * How the number read on the document compares with the declared `identification`: the same, a
 * different one (`number` is what was read, its separators dropped), or none read and why.
 */
export type NumberCheck = { result: 'MATCH' | 'MISMATCH'; readFrom: NumberSource; number: string } | { result: 'UNREAD'; reason: UnreadReason };

/** What the person declared, as the process keeps it. */
export interface DeclaredIdentity {
  identification: string | null;
  country: string | null;
  type: string | null;
}

/**
 * A number as compared: letters and digits only (documents print separators, OCR and the zones
 * add their own), upper case (passports have letters), leading zeros dropped (the older cédula's
 * barcode pads its number with them, people leave them out).
 */
export function canonicalNumber(text: string): string {
  return text
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '')
    .replace(/^0+(?=.)/, '');
}

/**
 * Colombia's cédulas (citizens' and foreigners') and identity cards for minors print their number
 * in groups of three digits between dots; read so by OCR, a number is that document's number.
 */
const DOTTED_NUMBER_DOCUMENTS: Readonly<Record<string, readonly string[]>> = { CO: ['CC', 'CE', 'TI'] };

export function printsDottedNumber(declared: DeclaredIdentity): boolean {
  if (declared.country === null || declared.type === null) return false;
  return DOTTED_NUMBER_DOCUMENTS[declared.country.toUpperCase()]?.includes(declared.type.toUpperCase()) ?? false;
}

/**
 * The verdict of one reading. The barcode holds one number, the document's. A machine-readable
 * zone holds the card's own number and, on identity cards, the national one: a number different
 * from both is a mismatch only when every check digit of the zone is right (otherwise it may be
 * OCR's error). Free OCR text holds dates and codes too: only a number printed the way the
 * declared document prints its own can be said to differ; any other only confirms.
 */
function verdictOf(reading: NumberReading, wanted: string, declared: DeclaredIdentity): NumberCheck {
  const matched = reading.candidates.find((candidate) => canonicalNumber(candidate) === wanted);
  if (matched !== undefined) return { result: 'MATCH', readFrom: reading.source, number: canonicalNumber(matched) };
  const readFrom = reading.source;
  switch (readFrom) {
    case 'PDF417':
      return { result: 'MISMATCH', readFrom, number: canonicalNumber(reading.candidates[0] ?? '') };
    case 'MRZ': {
      if (reading.machineZoneValid !== true) return { result: 'UNREAD', reason: 'MACHINE_ZONE_INVALID' };
      const number = reading.data.personalNumber ?? reading.data.documentNumber ?? reading.candidates[0] ?? '';
      return { result: 'MISMATCH', readFrom, number: canonicalNumber(number) };
    }
    case 'OCR': {
      const [printed] = reading.dotted;
      if (printed === undefined || !printsDottedNumber(declared)) return { result: 'UNREAD', reason: 'NUMBER_NOT_FOUND' };
      return { result: 'MISMATCH', readFrom, number: canonicalNumber(printed) };
    }
  }
}

/**
 * The number check of an identity attempt, over every photo of the document (front, back). The
 * most reliable source that gave a verdict decides: the barcode, then a machine-readable zone,
 * then printed text; a match of that source wins over a mismatch of the same source (the other
 * side may hold another number).
 */
export function checkNumber(declared: DeclaredIdentity, readings: readonly DocumentReading[]): NumberCheck {
  const wanted = canonicalNumber(declared.identification ?? '');
  if (wanted === '') return { result: 'UNREAD', reason: 'NOT_DECLARED' };
  const verdicts = readings.map((reading) =>
    reading.read ? verdictOf(reading.reading, wanted, declared) : { result: 'UNREAD' as const, reason: reading.reason },
  );
  for (const source of NUMBER_SOURCES) {
    const decided = verdicts.filter((verdict) => verdict.result !== 'UNREAD' && verdict.readFrom === source);
    const verdict = decided.find((v) => v.result === 'MATCH') ?? decided[0];
    if (verdict) return verdict;
  }
  return verdicts[0] ?? { result: 'UNREAD', reason: 'NUMBER_NOT_FOUND' };
}

/** What was read on the document, with the number the check found when no field of the source names it (printed text names none). */
export function dataWithNumber(data: DocumentData, check: NumberCheck): DocumentData {
  if (check.result === 'UNREAD' || data.documentNumber !== undefined) return data;
  return { ...data, documentNumber: check.number };
}
