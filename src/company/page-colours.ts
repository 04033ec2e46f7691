import { longHex, PAGE_DEFAULT_COLOURS, type UxOptions } from './ux-options.js';

/** The colours the people's pages apply: the buttons' background, and their text. */
export interface PageColours {
  primary: string;
  onPrimary: string;
}

/** The WCAG relative luminance of a hex colour. */
function luminance(colour: string): number {
  const hex = longHex(colour);
  const [r, g, b] = [1, 3, 5].map((at) => {
    const channel = Number.parseInt(hex.slice(at, at + 2), 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** WCAG AA for normal text. */
const READABLE = 4.5;
/** The lightest background the pages draw primary-coloured text on (styles.css `--surface`). */
const SURFACE = '#f4f6f8';

/**
 * The organization's colours as its people's pages apply them, so that no organization can make
 * its pages unreadable: the primary colour is text and borders on the pages' light backgrounds, so
 * one too light for them keeps the pages' own; the alternate colour is the text on primary buttons,
 * and one too close to the primary gives way to white or black, whichever reads better. Undefined
 * when the organization chose no colour: the pages keep theirs (and the SDK's, when embedded).
 */
export function pageColours(ux: UxOptions): PageColours | undefined {
  if (ux.primaryColor === undefined && ux.alternateColor === undefined) return undefined;
  const primary =
    ux.primaryColor !== undefined && contrast(ux.primaryColor, SURFACE) >= READABLE ? longHex(ux.primaryColor) : PAGE_DEFAULT_COLOURS.primaryColor;
  const alternate = ux.alternateColor ?? PAGE_DEFAULT_COLOURS.alternateColor;
  const onPrimary =
    contrast(alternate, primary) >= READABLE ? longHex(alternate) : contrast('#ffffff', primary) >= contrast('#000000', primary) ? '#ffffff' : '#000000';
  return { primary, onPrimary };
}
