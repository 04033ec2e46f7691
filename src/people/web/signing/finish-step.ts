import { base64Of } from '../client.js';
import { alertLine, h, show } from '../dom.js';
import { t } from '../i18n.js';
import { signatureInput } from '../signature.js';
import type { StepContext } from './step-context.js';

/** The last step: consent to sign electronically, and the signature (signers) or the approval (approvers). */
export function finishStep(container: HTMLElement, step: StepContext): void {
  const { client, page } = step;
  const signer = page.participant.role === 'SIGNER';
  const alert = alertLine();
  const consent = h('input', { type: 'checkbox', id: 'consent', required: true });
  const signature = signer ? signatureInput(page.participant.name, page.signatureKinds) : undefined;
  const submit = h('button', { type: 'submit', class: 'primary' }, t(signer ? 'signButton' : 'approveButton'));
  const form = h(
    'form',
    { novalidate: true },
    signature?.element,
    h('div', { class: 'consent' }, consent, h('label', { for: 'consent' }, t('consent'))),
    alert.element,
    submit,
  );
  // The refusal is about the box: once it is ticked, the message would only mislead.
  consent.addEventListener('change', () => {
    if (consent.checked && alert.element.textContent === t('consentRequired')) alert.say('');
  });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (!consent.checked) {
      alert.say(t('consentRequired'));
      consent.focus();
      return;
    }
    const image = signature ? await signature.image() : undefined;
    if (signature && !image) {
      const [only, other] = page.signatureKinds;
      alert.say(t(other !== undefined ? 'signatureRequired' : only === 'draw' ? 'drawRequired' : 'typeRequired'));
      return;
    }
    submit.disabled = true;
    const done = signer
      ? await step.attempt(
          async () => client.sign({ consent: true, ...(image ? { signature: await base64Of(image.png), signatureKind: image.kind } : {}) }),
          alert,
        )
      : await step.attempt(() => client.approve({ consent: true }), alert);
    submit.disabled = false;
    if (done === undefined) return;
    await step.finished();
  });
  show(container, h('h2', {}, t(signer ? 'signTitle' : 'approveTitle')), form);
}
