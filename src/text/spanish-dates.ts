/** The month names of dates written in Spanish in documents, January first. */
export const SPANISH_MONTHS: readonly string[] = [
  'enero',
  'febrero',
  'marzo',
  'abril',
  'mayo',
  'junio',
  'julio',
  'agosto',
  'septiembre',
  'octubre',
  'noviembre',
  'diciembre',
];

/**
 * `15 de enero de 2024`, or `05 de marzo de 2026` with `twoDigitDay`; `month` counts from 1.
 * Undefined for a month that does not exist, so each caller decides what stands in its place.
 */
export function spanishDate(date: { year: number; month: number; day: number }, options: { twoDigitDay?: boolean } = {}): string | undefined {
  const monthName = SPANISH_MONTHS[date.month - 1];
  if (monthName === undefined) return undefined;
  const day = options.twoDigitDay ? String(date.day).padStart(2, '0') : String(date.day);
  return `${day} de ${monthName} de ${date.year}`;
}
