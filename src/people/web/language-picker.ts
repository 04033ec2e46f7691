import { LANGUAGES } from '../../organizations/languages.js';
import { LANGUAGE_NAMES } from '../words.js';
import { h } from './dom.js';
import { chooseLanguage, currentLanguage, isLanguage, onLanguageChange, t } from './i18n.js';

/**
 * The one language picker of every page (signing, face validation, the service's address, the SDK's
 * frame): each language by its own name, so a person who cannot read the current one finds theirs.
 * It sits outside what the flows redraw, so focus stays on it while the page changes language.
 */
export function languagePicker(): HTMLElement {
  const label = h('label', { for: 'language' }, t('language'));
  const select = h('select', { id: 'language' }, ...LANGUAGES.map((language) => h('option', { value: language, lang: language }, LANGUAGE_NAMES[language])));
  select.value = currentLanguage();
  select.addEventListener('change', () => {
    if (isLanguage(select.value)) chooseLanguage(select.value);
  });
  onLanguageChange(() => {
    label.textContent = t('language');
    select.value = currentLanguage();
  });
  return h('header', { class: 'language' }, label, select);
}
