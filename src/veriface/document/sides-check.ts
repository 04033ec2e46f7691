import { canonicalNumber, type DeclaredIdentity, type DocumentReading, printsDottedNumber } from './number-check.js';
import type { NumberReading } from './read-number.js';

/**
 * Whether the two sides of one document say the same number: the one printed on the front (read
 * by OCR, as the declared document prints it) and the one its back holds in machine-readable form
 * (the older cédula's PDF417 barcode, or the new one's machine-readable zone with every check digit
 * right, which carries the national number). `UNCHECKED` when either is not there to compare.
 */
export type SidesCheck = { result: 'AGREE' | 'DISAGREE'; printed: string; held: string } | { result: 'UNCHECKED' };

/** The number the back holds in a form a forger cannot alter by retouching the print: undefined when it holds none read surely. */
function heldNumber(reading: NumberReading): string | undefined {
  if (reading.source === 'PDF417') return reading.data.personalNumber;
  if (reading.source === 'MRZ' && reading.machineZoneValid === true) return reading.data.personalNumber;
  return undefined;
}

/**
 * The front's printed number against the back's held one. Each side is read on its own photo;
 * a front and a back of two different cards (one person's back under another's front, or a front
 * whose printed number was retouched) disagree. OCR can misread one digit of a print, so a
 * disagreement is a reason for a person to look (DOCUMENT_FAKE, reviewed), never a refusal by
 * itself.
 */
export function checkSides(declared: DeclaredIdentity, front: DocumentReading, back: DocumentReading | undefined): SidesCheck {
  if (!back?.read || !front.read || front.reading.source !== 'OCR' || !printsDottedNumber(declared)) return { result: 'UNCHECKED' };
  const held = heldNumber(back.reading);
  const [first] = front.reading.dotted;
  if (held === undefined || first === undefined) return { result: 'UNCHECKED' };
  const wanted = canonicalNumber(held);
  const printed = front.reading.dotted.find((number) => canonicalNumber(number) === wanted) ?? first;
  return { result: canonicalNumber(printed) === wanted ? 'AGREE' : 'DISAGREE', printed: canonicalNumber(printed), held: wanted };
}
