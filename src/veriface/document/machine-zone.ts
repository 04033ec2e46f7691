import { parse } from 'mrz';

/** What a machine-readable zone holds, in the field names of docs/real-service.md §8.3. */
export interface MachineZone {
  format: 'TD1' | 'TD3';
  documentNumber: string;
  /** The zone's optional fields: TD1 cards (the new Colombian cédula) carry the national number there, the card's own number in documentNumber. */
  optionalData: string[];
  surname?: string;
  givenNames?: string;
  dateOfBirth?: string;
  dateOfExpiry?: string;
  sex?: string;
  nationalityCode?: string;
  issuingStateCode?: string;
  /** Whether every check digit of the zone is right. */
  valid: boolean;
}

const LINE_LENGTH = { TD1: 30, TD3: 44 } as const;
const LINE_COUNT = { TD1: 3, TD3: 2 } as const;

/**
 * Lines of OCR text that can be a zone's: spaces dropped (OCR puts some between the chevrons), and
 * the characters tesseract confuses with '<' put back.
 */
function candidateLines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.toUpperCase().replace(/\s+/g, '').replace(/[«‹(]/g, '<'))
    .filter((line) => /^[A-Z0-9<]{28,46}$/.test(line) && line.includes('<'));
}

/** Fits a line read one or two characters short or long to the zone's width: padding chevrons are what OCR loses. */
function fitted(line: string, length: number): string | undefined {
  if (Math.abs(line.length - length) > 2) return undefined;
  return line.length >= length ? line.slice(0, length) : line.padEnd(length, '<');
}

function orUndefined(value: string | null | undefined): string | undefined {
  return value ? value : undefined;
}

/**
 * The first TD3 (passport) or TD1 (identity card) zone in OCR text, parsed by `mrz` with its
 * autocorrection of the letters and digits OCR swaps (O and 0, I and 1) where the field's kind
 * says which it must be; undefined when none is there.
 */
export function machineZoneIn(text: string): MachineZone | undefined {
  const lines = candidateLines(text);
  for (const format of ['TD3', 'TD1'] as const) {
    for (let first = 0; first + LINE_COUNT[format] <= lines.length; first++) {
      const zone = lines.slice(first, first + LINE_COUNT[format]).map((line) => fitted(line, LINE_LENGTH[format]));
      if (zone.some((line) => line === undefined)) continue;
      const parsed = parseZone(zone.filter((line): line is string => line !== undefined));
      if (parsed?.format === format) return parsed;
    }
  }
  return undefined;
}

function parseZone(lines: string[]): MachineZone | undefined {
  try {
    const result = parse(lines, { autocorrect: true });
    if (result.format !== 'TD1' && result.format !== 'TD3') return undefined;
    const fields = result.fields;
    if (!fields.documentNumber) return undefined;
    return {
      format: result.format,
      documentNumber: fields.documentNumber,
      optionalData: (result.format === 'TD1' ? [fields.optional1, fields.optional2] : [fields.personalNumber]).filter((value): value is string =>
        Boolean(value),
      ),
      surname: orUndefined(fields.lastName),
      givenNames: orUndefined(fields.firstName),
      dateOfBirth: orUndefined(fields.birthDate),
      dateOfExpiry: orUndefined(fields.expirationDate),
      sex: orUndefined(fields.sex),
      nationalityCode: orUndefined(fields.nationality),
      issuingStateCode: orUndefined(fields.issuingState),
      valid: result.valid,
    };
  } catch {
    return undefined;
  }
}
