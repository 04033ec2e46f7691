import { BinaryBitmap, DecodeHintType, HybridBinarizer, PDF417Reader, RGBLuminanceSource } from '@zxing/library';
import { dominantSkew, type GreyImage, rotatedGrey } from './grey-rotation.js';

/** The text of a PDF417 barcode lying level (or upside down) in the image, by @zxing/library; undefined when none is found. */
function decodeLevel({ luminances, width, height }: GreyImage): string | undefined {
  const bitmap = new BinaryBitmap(new HybridBinarizer(new RGBLuminanceSource(luminances, width, height)));
  try {
    const hints = new Map<DecodeHintType, unknown>([[DecodeHintType.TRY_HARDER, true]]);
    return new PDF417Reader().decode(bitmap, hints).getText();
  } catch {
    // zxing reports "no barcode here" by throwing; nothing else is thrown by a decode.
    return undefined;
  }
}

/** Degrees from level within which zxing finds a barcode as it lies (on the sample backs, one turned 92° was read once turned back a quarter, 2° from level). */
const LEVEL_TOLERANCE = 1;

/**
 * The text of the first PDF417 barcode in a grey image (the back of Colombia's older yellow
 * cédula carries one), decoded by @zxing/library in plain JavaScript; undefined when none is
 * found. Characters are ISO-8859-1, as the cédula's barcode writes them. zxing finds a barcode
 * only within a degree or two of level or of upside down: on the sample backs it missed one
 * photographed askew by 5° and every one turned a quarter. So an image where none is found level
 * is turned by its edges' skew (grey-rotation.ts), and by that and a quarter, and searched again:
 * two more searches of about 50 ms, with the turns, where the first found nothing. A search takes
 * up to a few hundred milliseconds: it runs in the barcode reader's worker thread
 * (barcode-reader.ts), never on the service's event loop.
 */
export function decodePdf417(luminances: Uint8ClampedArray, width: number, height: number): string | undefined {
  const image = { luminances, width, height };
  const level = decodeLevel(image);
  if (level !== undefined) return level;
  const skew = dominantSkew(image);
  // A skew within zxing's own tolerance would only search the level image again.
  const turns = Math.abs(skew) < LEVEL_TOLERANCE ? [90] : [-skew, 90 - skew];
  for (const turn of turns) {
    const text = decodeLevel(rotatedGrey(image, turn));
    if (text !== undefined) return text;
  }
  return undefined;
}

/** What the older cédula's barcode holds, in the field names of docs/real-service.md §8.3. */
export interface CedulaBarcode {
  personalNumber: string;
  surname: string;
  givenNames: string;
  sex: string;
  dateOfBirth: string;
  bloodGroup: string;
}

const field = (text: string, start: number, end: number) => text.slice(start, end).replace(/\0/g, ' ').trim();

/**
 * The older cédula's barcode is fixed-width: the number (zero-padded) at characters 48 to 58, the
 * two surnames and two given names in 23 characters each from 58, sex at 151, the birth date as
 * YYYYMMDD at 152 to 160 and the blood group at 166 to 169 (the layout read by the published
 * open-source parsers). Undefined for a text of another layout.
 */
export function cedulaFromBarcode(text: string): CedulaBarcode | undefined {
  const number = field(text, 48, 58);
  if (text.length < 160 || !/^\d{6,10}$/.test(number)) return undefined;
  const birth = field(text, 152, 160);
  return {
    personalNumber: number.replace(/^0+/, ''),
    surname: [field(text, 58, 81), field(text, 81, 104)].filter(Boolean).join(' '),
    givenNames: [field(text, 104, 127), field(text, 127, 150)].filter(Boolean).join(' '),
    sex: field(text, 151, 152),
    dateOfBirth: /^\d{8}$/.test(birth) ? `${birth.slice(0, 4)}-${birth.slice(4, 6)}-${birth.slice(6, 8)}` : '',
    bloodGroup: field(text, 166, 169),
  };
}
