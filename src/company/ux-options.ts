import { isRecord } from '../is-record.js';

/** The real service's `uxOptions` (REFERENCE §10): the colours of the organization's pages. */
export interface UxOptions {
  primaryColor?: string;
  alternateColor?: string;
}

/** `#RGB` or `#RRGGBB`. */
export const HEX_COLOUR = /^#(?:[0-9a-fA-F]{3}){1,2}$/;

/** The people's pages' own colours (src/people/web/styles.css `--primary`, `--on-primary`), answered when the organization set none. */
export const PAGE_DEFAULT_COLOURS = { primaryColor: '#0b4f8a', alternateColor: '#ffffff' } as const;

/** The six-digit lower-case form of a hex colour. */
export function longHex(colour: string): string {
  const digits = colour.slice(1).toLowerCase();
  return `#${digits.length === 3 ? [...digits].map((d) => d + d).join('') : digits}`;
}

export function isWhite(colour: string): boolean {
  return longHex(colour) === '#ffffff';
}

/** The stored JSON, keeping only well-formed colours. */
export function uxOptionsOf(stored: string): UxOptions {
  const parsed: unknown = JSON.parse(stored);
  if (!isRecord(parsed)) return {};
  const colour = (value: unknown) => (typeof value === 'string' && HEX_COLOUR.test(value) ? value : undefined);
  const primaryColor = colour(parsed.primaryColor);
  const alternateColor = colour(parsed.alternateColor);
  return { ...(primaryColor === undefined ? {} : { primaryColor }), ...(alternateColor === undefined ? {} : { alternateColor }) };
}

/** PUT /company merges `uxOptions` key by key: a colour not sent stays as it was. */
export function mergeUxOptions(stored: UxOptions, sent: UxOptions): UxOptions {
  return { ...stored, ...sent };
}
