import { base64Of } from '../client.js';
import { alertLine, h, show } from '../dom.js';
import { type FormSignature, forgetFormSignature, formSignatureFor } from '../form-signature.js';
import { t } from '../i18n.js';
import { type SignatureInput, signatureInput } from '../signature.js';
import type { StepContext } from './step-context.js';

/** The signature drawn or typed on the page, as the sign route takes it. */
async function drawn(signature: SignatureInput): Promise<FormSignature | undefined> {
  const image = await signature.image();
  return image ? { png: await base64Of(image.png), kind: image.kind } : undefined;
}

/** The last step: consent to sign electronically, and the signature (signers) or the approval (approvers). */
export function finishStep(container: HTMLElement, step: StepContext): void {
  const { client, page } = step;
  const signer = page.participant.role === 'SIGNER';
  const alert = alertLine();
  const consent = h('input', { type: 'checkbox', id: 'consent', required: true });
  // A signature the person made in the form that took them here, if its kind is one they may use.
  const fromForm = signer ? formSignatureFor(client.token) : undefined;
  const made = fromForm && page.signatureKinds.includes(fromForm.kind) ? fromForm : undefined;
  const signature = signer ? signatureInput(page.participant.name, page.signatureKinds) : undefined;
  const formFigure = made
    ? h(
        'figure',
        { class: 'form-signature' },
        h('img', { src: `data:image/png;base64,${made.png}`, alt: t('formSignatureAlt') }),
        h('figcaption', {}, t('formSignatureMade')),
      )
    : undefined;
  const redo = made ? h('button', { type: 'button', class: 'secondary small' }, t('formSignatureRedo')) : undefined;
  const submit = h('button', { type: 'submit', class: 'primary' }, t(signer ? 'signButton' : 'approveButton'));
  const form = h(
    'form',
    { novalidate: true },
    formFigure ?? signature?.element,
    redo,
    h('div', { class: 'consent' }, consent, h('label', { for: 'consent' }, t('consent'))),
    alert.element,
    submit,
  );
  let useMade = made !== undefined;
  redo?.addEventListener('click', () => {
    // Another signature instead: the pad, as if none had been made in the form.
    useMade = false;
    forgetFormSignature(client.token);
    if (signature) formFigure?.replaceWith(signature.element);
    redo.remove();
    signature?.element.querySelector<HTMLElement>('button, canvas, input')?.focus();
  });
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
    const image = useMade && made ? { png: made.png, kind: made.kind } : signature ? await drawn(signature) : undefined;
    if (signature && !image) {
      const [only, other] = page.signatureKinds;
      alert.say(t(other !== undefined ? 'signatureRequired' : only === 'draw' ? 'drawRequired' : 'typeRequired'));
      return;
    }
    submit.disabled = true;
    const done = signer
      ? await step.attempt(async () => client.sign({ consent: true, ...(image ? { signature: image.png, signatureKind: image.kind } : {}) }), alert)
      : await step.attempt(() => client.approve({ consent: true }), alert);
    submit.disabled = false;
    if (done === undefined) return;
    if (signer) forgetFormSignature(client.token);
    await step.finished();
  });
  show(container, h('h2', {}, t(signer ? 'signTitle' : 'approveTitle')), form);
}
