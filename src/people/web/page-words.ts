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
  // Undefined: the browser's own zone, unnamed (the local chat's). The console sets its organization's.
  let zone: string | undefined;
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
    /** Every time shown from now on is in this IANA zone, named beside it, so that all of them read as one clock. */
    setTimeZone: (timeZone: string): void => {
      zone = timeZone;
    },
    /** A date and time as people of the page's language write them, with the zone's name when one was set. */
    when: (instant: string): string => {
      const date = new Date(instant);
      if (zone === undefined) return date.toLocaleString(current, { dateStyle: 'medium', timeStyle: 'short' });
      return `${date.toLocaleString(current, { dateStyle: 'medium', timeStyle: 'short', timeZone: zone })} (${zone})`;
    },
  };
}
