import { alertLine, h } from '../dom.js';
import { t } from '../i18n.js';
import { collectsFilesOnly } from './page-frame.js';
import type { StepContext } from './step-context.js';

/** Rejecting the document (or, in a process that only collects files, declining to give them), with a reason, offered under every step. */
export function rejectControl(step: StepContext): HTMLElement {
  const title = collectsFilesOnly(step.page) ? t('rejectFiles') : t('rejectTitle');
  const open = h(
    'button',
    { type: 'button', class: 'link danger', 'aria-expanded': 'false' },
    collectsFilesOnly(step.page) ? t('rejectFiles') : t('rejectButton'),
  );
  const alert = alertLine();
  const reason = h('textarea', { id: 'reject-reason', rows: 3, maxlength: 1000 });
  const confirm = h('button', { type: 'submit', class: 'danger' }, t('rejectConfirm'));
  const cancel = h('button', { type: 'button', class: 'secondary' }, t('rejectCancel'));
  const form = h(
    'form',
    { class: 'reject', hidden: true, novalidate: true },
    h('h2', {}, title),
    h('label', { for: reason.id }, t('rejectLabel')),
    reason,
    alert.element,
    h('div', { class: 'actions' }, confirm, cancel),
  );
  open.addEventListener('click', () => {
    form.hidden = false;
    open.setAttribute('aria-expanded', 'true');
    reason.focus();
  });
  cancel.addEventListener('click', () => {
    form.hidden = true;
    open.setAttribute('aria-expanded', 'false');
    open.focus();
  });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const text = reason.value.trim();
    if (text === '') {
      alert.say(t('rejectReasonRequired'));
      reason.focus();
      return;
    }
    confirm.disabled = true;
    const done = await step.attempt(() => step.client.reject({ reason: text }), alert);
    confirm.disabled = false;
    if (done === undefined) return;
    await step.finished();
  });
  return h('div', { class: 'reject-area' }, open, form);
}
