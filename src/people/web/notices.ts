import { focusFirstHeading, h, show } from './dom.js';
import { type MessageKey, t } from './i18n.js';
import { wordsFor } from './refusals.js';

/** A link the service does not know (mistyped, cut short, or of another instance). */
export function showUnknownLink(root: HTMLElement): void {
  show(root, h('h1', {}, t('unknownTitle')), h('p', {}, t('unknownHelp')));
  focusFirstHeading(root);
}

/** The service's address opened by itself: what it is, and where to go instead. */
export function showHome(root: HTMLElement): void {
  show(root, h('h1', {}, t('homeTitle')), h('p', {}, t('homeHelp')));
}

/** The page could not be read (no network, a refusal it has no words for): why, and a button to try again. */
export function showFailure(root: HTMLElement, title: MessageKey, error: unknown, again: () => void): void {
  const button = h('button', { type: 'button', class: 'primary' }, t('tryAgain'));
  button.addEventListener('click', again);
  show(root, h('h1', {}, t(title)), h('p', { role: 'alert', class: 'error' }, wordsFor(error)), button);
}
