import { ISO_COUNTRY_CODES } from './iso-countries.js';

export interface LocalizedName {
  en: string;
  es: string;
}

/** How a document's number is written, where the format is well known and stable. */
export interface NumberFormat {
  pattern: RegExp;
  /** Completes the sentence "does not match the format of a CO CC (…)". */
  description: string;
}

export interface DocumentType {
  type: string;
  name: LocalizedName;
  number?: NumberFormat;
}

export interface CatalogueCountry {
  country: string;
  name: LocalizedName;
  documents: readonly DocumentType[];
}

/** Accepted with every ISO 3166-1 country code, so it is listed once here rather than under each country. */
export const PASSPORT: DocumentType = { type: 'PASSPORT', name: { en: 'Passport', es: 'Pasaporte' } };

const digits = (min: number, max: number): NumberFormat => {
  const pattern = new RegExp(min === max ? `^\\d{${min}}$` : `^\\d{${min},${max}}$`);
  if (min === max) return { pattern, description: `${min} digits` };
  return { pattern, description: max === min + 1 ? `${min} or ${max} digits` : `${min} to ${max} digits` };
};

/** Chile's RUN and RUT share one format: 7 or 8 digits, then a check digit or K. */
const chileanRun: NumberFormat = { pattern: /^\d{7,8}-?[\dK]$/i, description: '7 or 8 digits and a check digit (0-9 or K)' };

/**
 * The national identity documents per country. Numbers are checked only where the format is settled
 * (fixed length, fixed letters); documents whose numbering varies by region or era carry no pattern,
 * because refusing a real document is worse than accepting a typo the document check will catch.
 */
export const DOCUMENTS_CATALOGUE: readonly CatalogueCountry[] = [
  {
    country: 'AR',
    name: { en: 'Argentina', es: 'Argentina' },
    documents: [{ type: 'DNI', name: { en: 'National identity document', es: 'Documento nacional de identidad' }, number: digits(7, 8) }],
  },
  {
    country: 'AW',
    name: { en: 'Aruba', es: 'Aruba' },
    documents: [{ type: 'CI', name: { en: 'Identity card', es: 'Cédula de identidad' } }],
  },
  {
    country: 'BO',
    name: { en: 'Bolivia', es: 'Bolivia' },
    documents: [{ type: 'CI', name: { en: 'Identity card', es: 'Cédula de identidad' } }],
  },
  {
    country: 'BR',
    name: { en: 'Brazil', es: 'Brasil' },
    documents: [
      { type: 'CPF', name: { en: 'Individual taxpayer registry (CPF)', es: 'Registro de personas físicas (CPF)' }, number: digits(11, 11) },
      // The RG is issued by each state with its own numbering.
      { type: 'RG', name: { en: 'General registry (RG)', es: 'Registro general (RG)' } },
      { type: 'CNH', name: { en: 'Driver license (CNH)', es: 'Licencia de conducir (CNH)' }, number: digits(11, 11) },
    ],
  },
  {
    country: 'CL',
    name: { en: 'Chile', es: 'Chile' },
    documents: [
      { type: 'RUT', name: { en: 'Tax identification number (RUT)', es: 'Rol único tributario (RUT)' }, number: chileanRun },
      { type: 'RUN', name: { en: 'National identification number (RUN)', es: 'Rol único nacional (RUN)' }, number: chileanRun },
    ],
  },
  {
    country: 'CO',
    name: { en: 'Colombia', es: 'Colombia' },
    documents: [
      { type: 'CC', name: { en: 'Citizenship card', es: 'Cédula de ciudadanía' }, number: digits(6, 10) },
      { type: 'CE', name: { en: 'Foreigner identity card', es: 'Cédula de extranjería' } },
      // The number printed on the card is the NUIP: 10 or 11 digits.
      { type: 'TI', name: { en: 'Identity card for minors', es: 'Tarjeta de identidad' }, number: digits(10, 11) },
      { type: 'PPT', name: { en: 'Temporary protection permit', es: 'Permiso por protección temporal' } },
      // The reference names Colombia's passport both `PA` and `PASSPORT`: `PA` is kept for Colombia as
      // integrators already send it, and `PASSPORT` (below, for every country) is accepted too.
      { type: 'PA', name: { en: 'Passport', es: 'Pasaporte' } },
      // Listed among Colombia's identification types in the reference (§2.3).
      { type: 'DL', name: { en: 'Driver license', es: 'Licencia de conducción' } },
    ],
  },
  {
    country: 'CR',
    name: { en: 'Costa Rica', es: 'Costa Rica' },
    documents: [
      { type: 'CCCR', name: { en: 'Costa Rican identity card', es: 'Cédula de identidad costarricense' }, number: digits(9, 9) },
      {
        type: 'DIMEX',
        name: { en: 'Foreigner identity document (DIMEX)', es: 'Documento de identidad migratorio para extranjeros (DIMEX)' },
        number: digits(11, 12),
      },
    ],
  },
  {
    country: 'CU',
    name: { en: 'Cuba', es: 'Cuba' },
    documents: [{ type: 'CI', name: { en: 'Identity card', es: 'Carné de identidad' }, number: digits(11, 11) }],
  },
  {
    country: 'DO',
    name: { en: 'Dominican Republic', es: 'República Dominicana' },
    documents: [{ type: 'CIE', name: { en: 'Identity and electoral card', es: 'Cédula de identidad y electoral' }, number: digits(11, 11) }],
  },
  {
    country: 'EC',
    name: { en: 'Ecuador', es: 'Ecuador' },
    documents: [{ type: 'CI', name: { en: 'Identity card', es: 'Cédula de identidad' }, number: digits(10, 10) }],
  },
  {
    country: 'ES',
    name: { en: 'Spain', es: 'España' },
    documents: [
      {
        type: 'DNI',
        name: { en: 'National identity document', es: 'Documento nacional de identidad' },
        number: { pattern: /^\d{8}[A-Z]$/i, description: '8 digits and a letter' },
      },
      {
        type: 'NIE',
        name: { en: 'Foreigner identity number', es: 'Número de identidad de extranjero' },
        number: { pattern: /^[XYZ]\d{7}[A-Z]$/i, description: 'X, Y or Z, 7 digits and a letter' },
      },
    ],
  },
  {
    country: 'GT',
    name: { en: 'Guatemala', es: 'Guatemala' },
    documents: [{ type: 'DPI', name: { en: 'Personal identification document', es: 'Documento personal de identificación' }, number: digits(13, 13) }],
  },
  {
    country: 'HN',
    name: { en: 'Honduras', es: 'Honduras' },
    documents: [{ type: 'DNI', name: { en: 'National identity document', es: 'Documento nacional de identificación' }, number: digits(13, 13) }],
  },
  {
    country: 'MX',
    name: { en: 'Mexico', es: 'México' },
    documents: [
      // Which of the card's several numbers an integrator sends is not settled, so none is imposed.
      { type: 'INE', name: { en: 'Voter identification card (INE)', es: 'Credencial para votar (INE)' } },
      {
        type: 'CURP',
        name: { en: 'Unique population registry key (CURP)', es: 'Clave única de registro de población (CURP)' },
        number: { pattern: /^[A-Z]{4}\d{6}[HMX][A-Z]{5}[A-Z\d]\d$/i, description: '18 characters in the CURP format' },
      },
    ],
  },
  {
    country: 'NI',
    name: { en: 'Nicaragua', es: 'Nicaragua' },
    documents: [
      {
        type: 'CI',
        name: { en: 'Identity card', es: 'Cédula de identidad' },
        number: { pattern: /^\d{3}-?\d{6}-?\d{4}[A-Z]$/i, description: '13 digits and a letter' },
      },
    ],
  },
  {
    country: 'PA',
    name: { en: 'Panama', es: 'Panamá' },
    // Panamanian numbers mix province codes and letters (8-123-456, PE-1-234, E-8-12345): no single pattern.
    documents: [{ type: 'CI', name: { en: 'Identity card', es: 'Cédula de identidad' } }],
  },
  {
    country: 'PE',
    name: { en: 'Peru', es: 'Perú' },
    documents: [
      { type: 'DNI', name: { en: 'National identity document', es: 'Documento nacional de identidad' }, number: digits(8, 8) },
      { type: 'CE', name: { en: 'Foreigner card', es: 'Carné de extranjería' } },
    ],
  },
  {
    country: 'PR',
    name: { en: 'Puerto Rico', es: 'Puerto Rico' },
    documents: [
      { type: 'DL', name: { en: 'Driver license', es: 'Licencia de conducir' } },
      { type: 'ID', name: { en: 'Identification card', es: 'Tarjeta de identificación' } },
    ],
  },
  {
    country: 'PY',
    name: { en: 'Paraguay', es: 'Paraguay' },
    documents: [{ type: 'CI', name: { en: 'Identity card', es: 'Cédula de identidad' } }],
  },
  {
    country: 'SV',
    name: { en: 'El Salvador', es: 'El Salvador' },
    documents: [
      {
        type: 'DUI',
        name: { en: 'Unique identity document', es: 'Documento único de identidad' },
        number: { pattern: /^\d{8}-?\d$/, description: '8 digits and a check digit' },
      },
    ],
  },
  {
    country: 'US',
    name: { en: 'United States', es: 'Estados Unidos' },
    // Identity documents only: a Social Security number is not one.
    documents: [
      { type: 'DL', name: { en: 'Driver license', es: 'Licencia de conducir' } },
      { type: 'ID', name: { en: 'State identification card', es: 'Tarjeta de identificación estatal' } },
    ],
  },
  {
    country: 'UY',
    name: { en: 'Uruguay', es: 'Uruguay' },
    documents: [
      {
        type: 'CI',
        name: { en: 'Identity card', es: 'Cédula de identidad' },
        number: { pattern: /^\d{6,7}-?\d$/, description: '6 or 7 digits and a check digit' },
      },
    ],
  },
  {
    country: 'VE',
    name: { en: 'Venezuela', es: 'Venezuela' },
    documents: [{ type: 'CI', name: { en: 'Identity card', es: 'Cédula de identidad' } }],
  },
];

const isoCodes = new Set(ISO_COUNTRY_CODES);
const byCountry = new Map(DOCUMENTS_CATALOGUE.map((entry) => [entry.country, entry]));

/** Any ISO 3166-1 alpha-2 code, upper case: a passport from anywhere is accepted. */
export function isSupportedCountry(code: string): boolean {
  return isoCodes.has(code);
}

/** The national documents of the country followed by PASSPORT; empty for a code that is not ISO. */
export function documentTypesOf(country: string): DocumentType[] {
  if (!isSupportedCountry(country)) return [];
  return [...(byCountry.get(country)?.documents ?? []), PASSPORT];
}

export function isSupportedDocument(country: string, type: string): boolean {
  return findDocument(country, type) !== undefined;
}

export type IdentificationCheck = { ok: true } | { ok: false; message: string };

/**
 * Checks country, type and number together, in that order, answering the first problem in Joi's
 * wording with the field names of POST /veriface (`country`, `type`, `identification`).
 */
export function checkIdentification(country: string, type: string, number: string): IdentificationCheck {
  if (!isSupportedCountry(country)) return { ok: false, message: '"country" must be a supported country code' };
  const document = findDocument(country, type);
  if (!document) return { ok: false, message: `"type" must be a document type supported for ${country}` };
  if (document.number && !document.number.pattern.test(number)) {
    return { ok: false, message: `"identification" does not match the format of a ${country} ${type} (${document.number.description})` };
  }
  return { ok: true };
}

function findDocument(country: string, type: string): DocumentType | undefined {
  return documentTypesOf(country).find((document) => document.type === type);
}
