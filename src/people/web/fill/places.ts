/*
 * The countries the questionnaire's inputs offer: calling codes for phones, the identity documents
 * of each country the real service lists (docs/real-service.md §2.3), and the territorial divisions
 * a `department` question lists. Country names come from the browser (Intl.DisplayNames), in the
 * page's language.
 */

/** Calling codes, by ISO country code: Latin America first, then the countries people often sign from. */
export const CALLING_CODES: readonly (readonly [string, string])[] = [
  ['CO', '57'],
  ['MX', '52'],
  ['CL', '56'],
  ['PE', '51'],
  ['EC', '593'],
  ['VE', '58'],
  ['AR', '54'],
  ['BO', '591'],
  ['BR', '55'],
  ['PY', '595'],
  ['UY', '598'],
  ['CR', '506'],
  ['SV', '503'],
  ['GT', '502'],
  ['HN', '504'],
  ['NI', '505'],
  ['PA', '507'],
  ['DO', '1'],
  ['AW', '297'],
  ['US', '1'],
  ['CA', '1'],
  ['ES', '34'],
  ['PT', '351'],
  ['FR', '33'],
  ['IT', '39'],
  ['DE', '49'],
  ['GB', '44'],
];

/** The identity documents of each country an `identification` question takes. */
export const IDENTIFICATION_TYPES: Readonly<Record<string, readonly string[]>> = {
  CO: ['CC', 'CE', 'PPT', 'DL', 'PASSPORT'],
  MX: ['CURP', 'PASSPORT'],
  CL: ['RUT', 'RUN', 'PASSPORT'],
  SV: ['DUI', 'PASSPORT'],
  CR: ['CCCR', 'PASSPORT'],
  PE: ['DNI', 'PASSPORT'],
  UY: ['CI', 'PASSPORT'],
  VE: ['CI', 'PASSPORT'],
  HN: ['DNI', 'PASSPORT'],
  PA: ['CI', 'PASSPORT'],
  ES: ['DNI', 'PASSPORT'],
  EC: ['CI', 'PASSPORT'],
  AW: ['CI', 'PASSPORT'],
};

/** A `department` question's list, by country (default CO). */
export const DEPARTMENTS: Readonly<Record<string, readonly string[]>> = {
  CO: [
    'Amazonas',
    'Antioquia',
    'Arauca',
    'Atlántico',
    'Bogotá D.C.',
    'Bolívar',
    'Boyacá',
    'Caldas',
    'Caquetá',
    'Casanare',
    'Cauca',
    'Cesar',
    'Chocó',
    'Córdoba',
    'Cundinamarca',
    'Guainía',
    'Guaviare',
    'Huila',
    'La Guajira',
    'Magdalena',
    'Meta',
    'Nariño',
    'Norte de Santander',
    'Putumayo',
    'Quindío',
    'Risaralda',
    'San Andrés y Providencia',
    'Santander',
    'Sucre',
    'Tolima',
    'Valle del Cauca',
    'Vaupés',
    'Vichada',
  ],
  MX: [
    'Aguascalientes',
    'Baja California',
    'Baja California Sur',
    'Campeche',
    'Chiapas',
    'Chihuahua',
    'Ciudad de México',
    'Coahuila',
    'Colima',
    'Durango',
    'Estado de México',
    'Guanajuato',
    'Guerrero',
    'Hidalgo',
    'Jalisco',
    'Michoacán',
    'Morelos',
    'Nayarit',
    'Nuevo León',
    'Oaxaca',
    'Puebla',
    'Querétaro',
    'Quintana Roo',
    'San Luis Potosí',
    'Sinaloa',
    'Sonora',
    'Tabasco',
    'Tamaulipas',
    'Tlaxcala',
    'Veracruz',
    'Yucatán',
    'Zacatecas',
  ],
};

/** A country's name in the page's language, or its code where the browser knows none. */
export function countryName(code: string, language: string): string {
  try {
    return new Intl.DisplayNames([language], { type: 'region' }).of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}
