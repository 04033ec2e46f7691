import { LANGUAGES, type Language } from '../organizations/settings.js';

/** The first of the person's languages (Accept-Language, by weight) that the pages speak; Spanish otherwise. */
export function pageLanguage(acceptLanguage: string | undefined): Language {
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q === undefined ? 1 : Number(q.slice(2));
      return { primary: tag.toLowerCase().split('-')[0] ?? '', weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((entry) => entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const entry of ranked) {
    const found = LANGUAGES.find((language) => language === entry.primary);
    if (found) return found;
  }
  return 'es';
}
