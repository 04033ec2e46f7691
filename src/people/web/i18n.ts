import type { Language } from '../../organizations/languages.js';
import { type MessageKey, WORDS } from '../words.js';

export type { Language, MessageKey };

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && Object.hasOwn(WORDS, value);
}

let current: Language = 'es';
const listeners: (() => void)[] = [];

export function currentLanguage(): Language {
  return current;
}

export function setLanguage(language: Language): void {
  current = language;
  document.documentElement.lang = language;
}

/** Another language chosen on the page: the words change, then whatever is shown is drawn again in them. */
export function chooseLanguage(language: Language): void {
  setLanguage(language);
  document.title = t('title');
  for (const listener of listeners) listener();
}

/** `listener` runs each time the person chooses another language. */
export function onLanguageChange(listener: () => void): void {
  listeners.push(listener);
}

/** The words for `key` in the page's language, with `{name}` replaced by the values given. */
export function t(key: MessageKey, values: Record<string, string | number> = {}): string {
  return WORDS[current][key].replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(values, name) ? String(values[name]) : whole));
}
