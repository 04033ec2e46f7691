import { LANGUAGES, type Language } from '../../../organizations/languages.js';
import { LOCAL_CHAT_WORDS, type LocalChatWordKey } from '../../words-local-chat.js';

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
export function say(key: LocalChatWordKey, values: Record<string, string | number> = {}): string {
  return LOCAL_CHAT_WORDS[current][key].replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(values, name) ? String(values[name]) : whole));
}
