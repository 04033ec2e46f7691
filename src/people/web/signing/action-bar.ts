import { h } from '../dom.js';
import { t } from '../i18n.js';

function smooth(): ScrollBehavior {
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth';
}

/**
 * The bar that stays in reach at the bottom of the screen while it is the person's turn: the next
 * place they sign (each outlined box in turn, announced to screen readers) and the way to the
 * step, which sits after the documents; out of the way while the step is on the screen.
 */
export function actionBar(root: HTMLElement, step: HTMLElement, options: { places: number; stepLabel: string }): HTMLElement {
  const said = h('p', { class: 'visually-hidden', 'aria-live': 'polite' });
  let place = -1;
  const next = h('button', { type: 'button', class: 'secondary' }, t('nextPlace'));
  next.addEventListener('click', () => {
    const marks = [...root.querySelectorAll<HTMLElement>('.sign-here')];
    if (marks.length === 0) return;
    place = (place + 1) % marks.length;
    for (const mark of marks) mark.classList.remove('current');
    const mark = marks[place];
    if (!mark) return;
    mark.classList.add('current');
    mark.scrollIntoView({ block: 'center', inline: 'center', behavior: smooth() });
    const name = mark.closest('.document')?.querySelector('h3')?.textContent ?? '';
    said.textContent = t('placeOf', { place: place + 1, places: marks.length, page: mark.dataset.signPage ?? '', name });
  });
  const toStep = h('button', { type: 'button', class: 'primary' }, options.stepLabel);
  toStep.addEventListener('click', () => {
    step.scrollIntoView({ block: 'start', behavior: smooth() });
    const heading = step.querySelector<HTMLElement>('h2, h3');
    if (!heading) return;
    heading.tabIndex = -1;
    heading.focus({ preventScroll: true });
  });
  const bar = h('div', { class: 'action-bar' }, options.places > 0 ? next : '', toStep, said);
  // Once the step is on the screen the bar has done its job, and at the bottom it would cover the
  // signature pad or the button that signs: it steps aside (taking no room from the layout, so the
  // page does not jump) until the person scrolls back up to the documents.
  // The step counts as on the screen once it reaches the upper three quarters: its top edge peeking
  // out under the bar is not yet it.
  new IntersectionObserver(
    (entries) => {
      const inView = entries.some((entry) => entry.isIntersecting);
      bar.classList.toggle('aside', inView);
    },
    { rootMargin: '0px 0px -25% 0px' },
  ).observe(step);
  return bar;
}
