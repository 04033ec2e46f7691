import { alertLine, h, show } from '../dom.js';
import { askForSignIn, type Me, RefusedError, signInWithCode } from './api.js';
import { say } from './words.js';

/** What the page says for a refused sign-in. */
export function refusalWords(error: unknown): string {
  if (!(error instanceof RefusedError)) return say('failed');
  if (error.refusal === 'invalid') return say('signInInvalid');
  if (error.refusal === 'too-many') return say('tooMany');
  if (error.refusal === 'origin') return say('wrongAddress');
  return say('failed');
}

/**
 * Sign-in: the e-mail first, then the code for who reads the e-mail on another device (the link
 * itself opens the console where it is opened). What it says after sending is the same whether or
 * not the e-mail is a user's.
 */
export function drawSignIn(container: HTMLElement, options: { notice?: string; signedIn(me: Me): void }): void {
  const alert = alertLine();
  const email = h('input', { id: 'email', type: 'email', name: 'email', autocomplete: 'email', required: true, inputmode: 'email' });
  const askForm = h(
    'form',
    { class: 'sign-in', novalidate: true },
    h('label', { for: 'email' }, say('email')),
    email,
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, say('sendLink'))),
  );
  askForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (!email.checkValidity() || email.value.trim() === '') {
      email.focus();
      return;
    }
    const button = askForm.querySelector('button');
    if (button) button.disabled = true;
    try {
      await askForSignIn(email.value.trim());
      drawCode(email.value.trim());
    } catch (error) {
      alert.say(refusalWords(error));
    } finally {
      if (button) button.disabled = false;
    }
  });

  const drawCode = (address: string) => {
    const code = h('input', { id: 'code', type: 'text', name: 'code', inputmode: 'numeric', autocomplete: 'one-time-code', maxlength: 6, required: true });
    const codeForm = h(
      'form',
      { class: 'sign-in' },
      h('label', { for: 'code' }, say('code')),
      code,
      h(
        'div',
        { class: 'actions' },
        h('button', { type: 'submit', class: 'primary' }, say('enterWithCode')),
        h('button', { type: 'button', class: 'link', onclick: () => drawSignIn(container, options) }, say('otherEmail')),
      ),
    );
    codeForm.addEventListener('submit', async (event) => {
      event.preventDefault();
      try {
        options.signedIn(await signInWithCode(address, code.value));
      } catch (error) {
        alert.say(refusalWords(error));
        code.focus();
      }
    });
    show(container, h('h1', { tabindex: '-1' }, say('signInTitle')), h('p', { role: 'status' }, say('sent', { email: address })), alert.element, codeForm);
    code.focus();
  };

  show(
    container,
    h('h1', { tabindex: '-1' }, say('signInTitle')),
    options.notice ? h('p', { role: 'status' }, options.notice) : null,
    h('p', { class: 'hint' }, say('signInIntro')),
    alert.element,
    askForm,
  );
}
