import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiFailure } from '../src/people/web/client.js';
import { type Language, setLanguage } from '../src/people/web/i18n.js';
import { wordsFor } from '../src/people/web/refusals.js';

describe("a refused signature image tells the person what to do, in the page's four languages", () => {
  // The page's words need only the root element whose lang they set; the browser tests run the real page.
  const root = { lang: '' };
  beforeAll(() => vi.stubGlobal('document', { documentElement: root }));
  afterAll(() => {
    setLanguage('es');
    vi.unstubAllGlobals();
  });

  const expected: Record<Language, string> = {
    es: 'No pudimos leer tu firma. Bórrala y firma otra vez.',
    en: 'We could not read your signature. Clear it and sign again.',
    pt: 'Não conseguimos ler sua assinatura. Apague-a e assine de novo.',
    fr: "Nous n'avons pas pu lire votre signature. Effacez-la et signez à nouveau.",
  };
  for (const [language, words] of Object.entries(expected) as [Language, string][]) {
    it(`${language}: every refusal of the signature image asks to clear it and sign again`, () => {
      setLanguage(language);
      expect(root.lang).toBe(language);
      for (const code of ['SIGNATURE_IMAGE_EMPTY', 'SIGNATURE_IMAGE_TOO_LARGE', 'SIGNATURE_IMAGE_NOT_PNG', 'SIGNATURE_IMAGE_UNREADABLE']) {
        expect(wordsFor(new ApiFailure(422, code, code))).toBe(words);
      }
    });
  }
});
