import type { Language } from '../../organizations/languages.js';

/**
 * Calling codes of countries where one of the pages' other languages is what most people read.
 * Longest codes first is not needed: none of these is a prefix of another in the list.
 */
const BY_CALLING_CODE: Record<string, Language> = {
  // Portuguese: Brazil, Portugal, Angola, Mozambique, Cape Verde, Guinea-Bissau, São Tomé, Timor-Leste.
  '55': 'pt',
  '351': 'pt',
  '244': 'pt',
  '258': 'pt',
  '238': 'pt',
  '245': 'pt',
  '239': 'pt',
  '670': 'pt',
  // French: France, Monaco, Haiti, and the French-speaking countries of Africa.
  '33': 'fr',
  '377': 'fr',
  '509': 'fr',
  '221': 'fr',
  '223': 'fr',
  '224': 'fr',
  '225': 'fr',
  '226': 'fr',
  '227': 'fr',
  '228': 'fr',
  '229': 'fr',
  '241': 'fr',
  '242': 'fr',
  '243': 'fr',
  // English: North America and the Caribbean's +1, the United Kingdom, Ireland, Australia, New Zealand, South Africa, Nigeria, Kenya, Ghana.
  '1': 'en',
  '44': 'en',
  '353': 'en',
  '61': 'en',
  '64': 'en',
  '27': 'en',
  '234': 'en',
  '254': 'en',
  '233': 'en',
};

/**
 * The language to answer a number no organization has a flow for (so no organization's language
 * applies): the one most people read in the country of its calling code, Spanish otherwise, as the
 * service's market and its pages' default. `phone` is +[country code][number].
 */
export function languageOfNumber(phone: string): Language {
  const digits = phone.replace(/\D/g, '');
  for (const length of [3, 2, 1]) {
    const language = BY_CALLING_CODE[digits.slice(0, length)];
    if (language) return language;
  }
  return 'es';
}
