import { startAuthentication } from '@simplewebauthn/browser';
import { alertLine, h, show } from '../dom.js';
import { askForSignIn, type Me, RefusedError, signInWithCode } from './api.js';
import { noPasskeysHere, oidcSignIn, passkeySignInOptions, signInWithPasskey, signInWithTotp } from './security-api.js';
import { say } from './words.js';

/** What the page says for a refused sign-in. */
export function refusalWords(error: unknown): string {
  if (!(error instanceof RefusedError)) return say('failed');
  if (error.refusal === 'invalid') return say('signInInvalid');
  if (error.refusal === 'too-many') return say('tooMany');
  if (error.refusal === 'origin') return say('wrongAddress');
  return say('failed');
}

/** What the page says when a passkey did not sign the person in: the browser's refusal or the service's. */
function passkeyRefusalWords(error: unknown): string {
  if (error instanceof RefusedError) return error.refusal === 'invalid' ? say('passkeyRefused') : refusalWords(error);
  // The person closed the browser's prompt, or the device holds no passkey for the site.
  return say('passkeyCancelled');
}

export interface SignInOptions {
  notice?: string;
  signedIn(me: Me): void;
}

/**
 * Sign-in: the e-mail first, then the code for who reads the e-mail on another device (the link
 * itself opens the console where it is opened). What it says after sending is the same whether or
 * not the e-mail is a user's. A passkey, or the organization's single sign-on, are the other ways.
 */
export function drawSignIn(container: HTMLElement, options: SignInOptions): void {
  const alert = alertLine();
  const email = h('input', { id: 'email', type: 'email', name: 'email', autocomplete: 'email', required: true, inputmode: 'email' });
  const typedEmail = (): string | undefined => (email.checkValidity() && email.value.trim() !== '' ? email.value.trim() : undefined);
  const askForm = h(
    'form',
    { class: 'sign-in', novalidate: true },
    h('label', { for: 'email' }, say('email')),
    email,
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, say('sendLink'))),
  );
  const busy = async (button: HTMLButtonElement, work: () => Promise<void>) => {
    button.disabled = true;
    try {
      await work();
    } finally {
      button.disabled = false;
    }
  };
  askForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const address = typedEmail();
    const button = askForm.querySelector('button');
    if (address === undefined || !button) {
      email.focus();
      return;
    }
    void busy(button, async () => {
      try {
        await askForSignIn(address);
        drawCode(address);
      } catch (error) {
        alert.say(refusalWords(error));
      }
    });
  });

  const withPasskey = h('button', { type: 'button', class: 'secondary' }, say('passkeySignIn'));
  withPasskey.addEventListener('click', () =>
    busy(withPasskey, async () => {
      alert.say('');
      try {
        const optionsJSON = await passkeySignInOptions(typedEmail());
        options.signedIn(await signInWithPasskey(await startAuthentication({ optionsJSON })));
      } catch (error) {
        alert.say(passkeyRefusalWords(error));
      }
    }),
  );

  const withOrganization = h('button', { type: 'button', class: 'secondary' }, say('oidcSignIn'));
  withOrganization.addEventListener('click', () =>
    busy(withOrganization, async () => {
      const address = typedEmail();
      if (address === undefined) {
        alert.say(say('oidcNeedsEmail'));
        email.focus();
        return;
      }
      try {
        const url = await oidcSignIn(address);
        if (url === null) alert.say(say('oidcNone'));
        else location.assign(url);
      } catch (error) {
        alert.say(refusalWords(error));
      }
    }),
  );

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
    h(
      'section',
      { class: 'other-ways', 'aria-labelledby': 'other-ways-heading' },
      h('h2', { id: 'other-ways-heading' }, say('otherWays')),
      noPasskeysHere() === undefined ? h('div', { class: 'way' }, h('p', { class: 'hint' }, say('passkeySignInHint')), withPasskey) : null,
      h('div', { class: 'way' }, h('p', { class: 'hint' }, say('oidcSignInHint')), withOrganization),
    ),
  );
}

/**
 * The second step of a sign-in for a user with the code of an authenticator app turned on: the
 * session the e-mail or single sign-on began opens nothing until the code is typed.
 */
export function drawSecondFactor(container: HTMLElement, options: { signedIn(me: Me): void; startAgain(notice: string): void }): void {
  const alert = alertLine();
  const code = h('input', {
    id: 'totp-code',
    type: 'text',
    name: 'totp-code',
    inputmode: 'numeric',
    autocomplete: 'one-time-code',
    maxlength: 6,
    required: true,
    'aria-describedby': 'second-factor-intro',
  });
  const form = h(
    'form',
    { class: 'sign-in', novalidate: true },
    h('label', { for: 'totp-code' }, say('totpCode')),
    code,
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'submit', class: 'primary' }, say('enter')),
      h('button', { type: 'button', class: 'link', onclick: () => options.startAgain('') }, say('startAgain')),
    ),
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const typed = code.value.replace(/\s/g, '');
    if (!/^\d{6}$/.test(typed)) {
      alert.say(say('totpFormat'));
      code.focus();
      return;
    }
    try {
      options.signedIn(await signInWithTotp(typed));
    } catch (error) {
      if (error instanceof RefusedError && error.refusal === 'second-factor-over') return options.startAgain(say('totpWornOut'));
      if (error instanceof RefusedError && error.refusal === 'wrong-code') {
        alert.say(say('totpWrong'));
      } else {
        alert.say(refusalWords(error));
      }
      code.select();
      code.focus();
    }
  });
  show(container, h('h1', { tabindex: '-1' }, say('secondFactorTitle')), h('p', { id: 'second-factor-intro' }, say('secondFactorIntro')), alert.element, form);
}
