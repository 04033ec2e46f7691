import { LANGUAGES, type Language } from '../../../organizations/languages.js';
import { CONSOLE_WORDS, type ConsoleWordKey } from '../../words-console.js';

let current: Language = 'es';

export function isLanguage(value: unknown): value is Language {
  return LANGUAGES.some((language) => language === value);
}

export function currentLanguage(): Language {
  return current;
}

export function setLanguage(language: Language): void {
  current = language;
  document.documentElement.lang = language;
  document.title = say('title');
}

/** The words for `key` in the page's language, with `{name}` replaced by the values given. */
export function say(key: ConsoleWordKey, values: Record<string, string | number> = {}): string {
  return CONSOLE_WORDS[current][key].replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(values, name) ? String(values[name]) : whole));
}

/** A date and time as people of the page's language write them. */
export function when(instant: string): string {
  return new Date(instant).toLocaleString(current, { dateStyle: 'medium', timeStyle: 'short' });
}
