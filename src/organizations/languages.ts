/**
 * The languages of the people's pages (the SDK's), of the messages sent to people and of the final
 * documents. A module of its own, free of server code, because the pages' browser code imports it too.
 */
export const LANGUAGES = ['es', 'en', 'pt', 'fr'] as const;
export type Language = (typeof LANGUAGES)[number];

export function isLanguage(value: unknown): value is Language {
  return LANGUAGES.some((language) => language === value);
}

/**
 * What one person reads: the language stored for them (given when they were created, or chosen in
 * the console), else their organization's. Stored values come from a Joi `valid(...LANGUAGES)`, so
 * the fallback only covers the null of "not given".
 */
export function personLanguage(stored: string | null | undefined, organization: Language): Language {
  return isLanguage(stored) ? stored : organization;
}
