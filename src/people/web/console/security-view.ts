import { startRegistration } from '@simplewebauthn/browser';
import type { ConsoleWordKey } from '../../words-console.js';
import { alertLine, h, show, statusLine } from '../dom.js';
import { type Refusal, RefusedError } from './api.js';
import {
  addPasskey,
  confirmTotp,
  enrolTotp,
  noPasskeysHere,
  type Passkey,
  passkeyOptions,
  passkeys,
  removePasskey,
  type TotpEnrolment,
  totpEnabled,
} from './security-api.js';
import type { ViewOptions } from './view-refusal.js';
import { say, when } from './words.js';

/** The words for the service's refusals on this page. */
const REFUSAL_WORDS: Partial<Record<Refusal, ConsoleWordKey>> = {
  'wrong-code': 'totpConfirmWrong',
  'totp-not-started': 'totpEnrolDropped',
  'totp-on': 'totpAlreadyOn',
  'passkey-invalid': 'passkeyNotAdded',
  'passkey-gone': 'passkeyGone',
  'too-many': 'tooMany',
};

/** What the page says for a refusal on this page; a lost session goes to the console. */
function refusalWords(error: unknown): string {
  // Not the service's refusal: the browser's, when the device made no passkey (the person closed its prompt, or it has none to offer).
  if (!(error instanceof RefusedError)) return say('passkeyNotAdded');
  return say(REFUSAL_WORDS[error.refusal] ?? 'failed');
}

/**
 * The signed-in user's own ways to sign in: their passkeys (added, listed, removed) and the code of
 * an authenticator app as a second step (turned on here; an admin resets it when the phone is lost).
 */
export class SecurityView {
  private readonly alert = alertLine();
  private readonly status = statusLine();
  /** The enrolment begun and not yet confirmed: its secret is shown again when the page is drawn again (another language). */
  private enrolment: TotpEnrolment | undefined;

  constructor(private readonly options: ViewOptions) {}

  async draw(container: HTMLElement): Promise<void> {
    let found: Passkey[];
    let totpOn: boolean;
    try {
      [found, totpOn] = await Promise.all([passkeys(), totpEnabled()]);
    } catch (error) {
      return this.refused(error);
    }
    if (totpOn) this.enrolment = undefined;
    const redraw = () => this.draw(container);
    show(
      container,
      h('h1', { id: 'security-heading', tabindex: '-1' }, say('security')),
      h('p', { class: 'hint' }, say('securityIntro')),
      this.alert.element,
      this.status.element,
      h(
        'section',
        { 'aria-labelledby': 'passkeys-heading' },
        h('h2', { id: 'passkeys-heading' }, say('passkeys')),
        h('p', { class: 'hint' }, say('passkeysIntro')),
        found.length === 0
          ? h('p', { class: 'hint' }, say('noPasskeys'))
          : h('ul', { class: 'passkeys', 'aria-labelledby': 'passkeys-heading' }, ...found.map((passkey, at) => this.passkeyItem(passkey, at + 1, redraw))),
        this.addButton(redraw),
      ),
      h(
        'section',
        { 'aria-labelledby': 'totp-heading' },
        h('h2', { id: 'totp-heading' }, say('totp')),
        h('p', {}, say(totpOn ? 'totpOn' : 'totpOff')),
        totpOn ? null : this.enrolment ? this.enrolmentForm(this.enrolment, redraw) : this.enrolButton(container),
      ),
    );
  }

  private refused(error: unknown): void {
    if (error instanceof RefusedError && error.refusal === 'session') this.options.refused(error);
    else this.alert.say(refusalWords(error));
  }

  /** Runs one change: the page says nothing old while it runs, and what went wrong after. */
  private async change(work: () => Promise<void>): Promise<void> {
    this.alert.say('');
    this.status.say('');
    try {
      await work();
    } catch (error) {
      this.refused(error);
    }
  }

  private passkeyItem(passkey: Passkey, n: number, redraw: () => Promise<void>): HTMLElement {
    const remove = () =>
      this.change(async () => {
        await removePasskey(passkey.id);
        await redraw();
        this.status.say(say('passkeyRemoved'));
      });
    return h(
      'li',
      { class: 'passkey' },
      say('passkeyAddedOn', { n, date: when(passkey.createdAt) }),
      passkey.lastUsedAt ? ` · ${say('passkeyUsedOn', { date: when(passkey.lastUsedAt) })}` : null,
      ' ',
      h(
        'button',
        { type: 'button', class: 'secondary small', 'aria-label': say('removePasskeyNamed', { n }), onclick: () => void remove() },
        say('removePasskey'),
      ),
    );
  }

  private addButton(redraw: () => Promise<void>): HTMLElement {
    const unusable = noPasskeysHere();
    if (unusable !== undefined) return h('p', { class: 'hint' }, say(unusable));
    const button = h('button', { type: 'button', class: 'secondary' }, say('addPasskey'));
    button.addEventListener('click', () => {
      button.disabled = true;
      void this.change(async () => {
        const optionsJSON = await passkeyOptions();
        await addPasskey(await startRegistration({ optionsJSON }));
        await redraw();
        this.status.say(say('passkeyAdded'));
      }).finally(() => {
        button.disabled = false;
      });
    });
    return button;
  }

  private enrolButton(container: HTMLElement): HTMLElement {
    const start = () =>
      this.change(async () => {
        this.enrolment = await enrolTotp();
        await this.draw(container);
        container.querySelector<HTMLElement>('#totp-enrolment-heading')?.focus();
      });
    return h('button', { type: 'button', class: 'secondary', onclick: () => void start() }, say('enrolTotp'));
  }

  /** The secret, shown as its QR code and as text, and the field for the app's first code that turns it on. */
  private enrolmentForm(enrolment: TotpEnrolment, redraw: () => Promise<void>): HTMLElement {
    const code = h('input', {
      id: 'totp-confirm-code',
      type: 'text',
      name: 'totp-confirm-code',
      inputmode: 'numeric',
      autocomplete: 'one-time-code',
      maxlength: 6,
    });
    const form = h(
      'form',
      { class: 'admin-form', novalidate: true },
      h('label', { for: 'totp-confirm-code' }, say('totpCode')),
      code,
      h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, say('confirmTotp'))),
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const typed = code.value.replace(/\s/g, '');
      if (!/^\d{6}$/.test(typed)) {
        this.alert.say(say('totpFormat'));
        code.focus();
        return;
      }
      void this.change(async () => {
        try {
          await confirmTotp(typed);
        } catch (error) {
          // Five wrong codes drop the enrolment: its secret is no use any more.
          if (error instanceof RefusedError && error.refusal === 'totp-not-started') {
            this.enrolment = undefined;
            await redraw();
          } else {
            code.select();
            code.focus();
          }
          throw error;
        }
        this.enrolment = undefined;
        await redraw();
        this.status.say(say('totpConfirmed'));
      });
    });
    return h(
      'div',
      { class: 'new-key', id: 'totp-enrolment' },
      h('h3', { id: 'totp-enrolment-heading', tabindex: '-1' }, say('enrolTotp')),
      h(
        'ol',
        {},
        h('li', {}, say('enrolStepScan'), h('img', { class: 'qr', src: enrolment.qr, alt: say('totpQr') })),
        h('li', {}, say('enrolStepKey'), ' ', h('code', { id: 'totp-secret' }, enrolment.secret)),
        h('li', {}, say('enrolStepCode')),
      ),
      h('p', { class: 'hint' }, say('enrolShownOnce')),
      form,
    );
  }
}
