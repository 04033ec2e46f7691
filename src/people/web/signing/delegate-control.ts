import type { DelegateInput, SigningPage } from '../../contract.js';
import { alertLine, h } from '../dom.js';
import { type MessageKey, t } from '../i18n.js';
import type { StepContext } from './step-context.js';

type Field = Exclude<keyof DelegateInput, 'reason'>;

/** Each field of the delegate: its words, input type and autocomplete hint. */
const FIELDS: Record<Field, { label: MessageKey; type: string; autocomplete: string }> = {
  name: { label: 'delegateName', type: 'text', autocomplete: 'off' },
  email: { label: 'delegateEmail', type: 'email', autocomplete: 'off' },
  phone: { label: 'delegatePhone', type: 'tel', autocomplete: 'off' },
  identification: { label: 'delegateIdentification', type: 'text', autocomplete: 'off' },
  identificationType: { label: 'delegateIdentificationType', type: 'text', autocomplete: 'off' },
  country: { label: 'delegateCountry', type: 'text', autocomplete: 'off' },
};

/**
 * Handing the place to another person (when the organization allows it), offered under the step
 * like rejecting: the fields the place's validations need, and the reason, all required.
 */
export function delegateControl(step: StepContext, needs: NonNullable<SigningPage['delegation']>): HTMLElement {
  const open = h('button', { type: 'button', class: 'link', 'aria-expanded': 'false' }, t('delegateButton'));
  const alert = alertLine();
  const fields: Field[] = [
    'name',
    'email',
    ...(needs.phone ? (['phone'] as const) : []),
    ...(needs.identification ? (['identification', 'identificationType', 'country'] as const) : []),
  ];
  const inputs = fields.map((field) => {
    const spec = FIELDS[field];
    const input = h('input', { id: `delegate-${field}`, type: spec.type, autocomplete: spec.autocomplete, required: true, maxlength: 200 });
    return { field, input, label: h('label', { for: input.id }, t(spec.label)) };
  });
  const reason = h('textarea', { id: 'delegate-reason', rows: 3, maxlength: 1000, required: true });
  const confirm = h('button', { type: 'submit' }, t('delegateConfirm'));
  const cancel = h('button', { type: 'button', class: 'secondary' }, t('delegateCancel'));
  const form = h(
    'form',
    { class: 'delegate', hidden: true, novalidate: true },
    h('h2', {}, t('delegateTitle')),
    h('p', {}, t('delegateHelp')),
    ...inputs.flatMap(({ label, input }) => [label, input]),
    h('label', { for: reason.id }, t('delegateReason')),
    reason,
    alert.element,
    h('div', { class: 'actions' }, confirm, cancel),
  );
  open.addEventListener('click', () => {
    form.hidden = false;
    open.setAttribute('aria-expanded', 'true');
    inputs[0]?.input.focus();
  });
  cancel.addEventListener('click', () => {
    form.hidden = true;
    open.setAttribute('aria-expanded', 'false');
    open.focus();
  });
  const firstEmpty = () => [...inputs.map(({ input }) => input), reason].find((element) => element.value.trim() === '');
  // The "fill every field" notice goes once every field is filled, so it never contradicts the form.
  form.addEventListener('input', () => {
    if (alert.element.textContent === t('delegateFieldsRequired') && !firstEmpty()) alert.say('');
  });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const empty = firstEmpty();
    if (empty) {
      alert.say(t('delegateFieldsRequired'));
      empty.focus();
      return;
    }
    const given: Partial<Record<Field, string>> = {};
    for (const { field, input } of inputs) given[field] = input.value.trim();
    confirm.disabled = true;
    const done = await step.attempt(
      () => step.client.delegate({ name: given.name ?? '', email: given.email ?? '', ...given, reason: reason.value.trim() }),
      alert,
    );
    confirm.disabled = false;
    if (done === undefined) return;
    await step.reload();
  });
  return h('div', { class: 'delegate-area' }, open, form);
}
