import { LANGUAGES, type Language } from '../../organizations/languages.js';

export function isLanguage(value: unknown): value is Language {
  return LANGUAGES.some((language) => language === value);
}

/**
 * The words of a page whose catalogue is its own (the console's, the local chat's): the page's
 * language, kept here, and its words in it. The people's pages have theirs in i18n.ts, with the
 * listeners their flows need.
 */
export function pageWords<K extends string>(catalogue: Readonly<Record<Language, Readonly<Record<K | 'title', string>>>>) {
  let current: Language = 'es';
  /** The words for `key` in the page's language, with `{name}` replaced by the values given. */
  const say = (key: K, values: Record<string, string | number> = {}): string =>
    catalogue[current][key].replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(values, name) ? String(values[name]) : whole));
  return {
    say,
    currentLanguage: (): Language => current,
    setLanguage: (language: Language): void => {
      current = language;
      document.documentElement.lang = language;
      document.title = catalogue[current].title;
    },
    /** A date and time as people of the page's language write them. */
    when: (instant: string): string => new Date(instant).toLocaleString(current, { dateStyle: 'medium', timeStyle: 'short' }),
  };
}
