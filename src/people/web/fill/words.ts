import { FILL_WORDS, type FillWordKey } from '../../words-fill.js';
import { currentLanguage } from '../i18n.js';

/** The questionnaire's words for `key` in the page's language, with `{name}` replaced by the values given. */
export function tf(key: FillWordKey, values: Record<string, string | number> = {}): string {
  return FILL_WORDS[currentLanguage()][key].replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(values, name) ? String(values[name]) : whole));
}
