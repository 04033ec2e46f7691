import { applicability } from '../../../templates/question-applicability.js';
import { OPTION_TYPES } from '../../../templates/question-types.js';
import type { FillAnswer, FillConfirmation, FillError, FillForm, FillPreview, FillSubmitted } from '../../contract.js';
import type { FillWordKey } from '../../words-fill.js';
import { ApiFailure, base64Of, linkTokenOf, NetworkFailure, type PeopleClient } from '../client.js';
import { alertLine, h, redraw, show } from '../dom.js';
import { type FormSignature, keepFormSignature } from '../form-signature.js';
import { onLanguageChange, t } from '../i18n.js';
import { wordsFor } from '../refusals.js';
import { type SignatureInput, signatureInput } from '../signature.js';
import { type Field, fieldFor } from './fields.js';
import { MaskPreview } from './preview.js';
import { clearFill, loadFill, newSubmissionKey, type SavedFill, saveFill } from './saved-answers.js';
import { tf } from './words.js';

/** The person's words for why /document/save refused an answer; the service's own message where none fits. */
const REASON_WORDS: Partial<Record<FillError['reason'], FillWordKey>> = {
  required: 'errRequired',
  option: 'errOption',
  email: 'errEmail',
  phone: 'errPhone',
  number: 'errNumber',
  min: 'errMin',
  max: 'errMax',
  date: 'errDate',
  digits: 'errDigits',
  identification: 'errIdentification',
  pattern: 'errPattern',
  'too-long': 'errTooLong',
  image: 'errImage',
};

function wordsOf(error: FillError): string {
  const key = REASON_WORDS[error.reason];
  return key === undefined ? error.message : tf(key);
}

/** What a refused link says, in words. */
const UNAVAILABLE: Partial<Record<string, FillWordKey>> = {
  REFERENCE_LINK_NOT_FOUND: 'linkNotFound',
  LINK_NOT_FOUND: 'linkNotFound',
  REFERENCE_LINK_DISABLED: 'linkDisabled',
  REFERENCE_LINK_EXPIRED: 'linkExpired',
  REFERENCE_LINK_USED_UP: 'linkUsedUp',
  PREBUILT_COMPLETED: 'prebuiltCompleted',
  PREBUILT_CANCELLED: 'prebuiltCancelled',
  PREBUILT_EXPIRED: 'linkExpired',
  FILL_SESSION_EXPIRED: 'sessionExpired',
  FILL_SESSION_USED: 'prebuiltCompleted',
};

/** Why a submission was refused, when the person may send it again: the answers stay on the device. */
function refusalWords(error: unknown): string {
  if (error instanceof NetworkFailure) return tf('offline');
  if (!(error instanceof ApiFailure)) return wordsFor(error);
  if (error.is('FORM_PROCESSES_PER_HOUR_EXCEEDED', 'REFERENCE_LINK_HOURLY_CAP_EXCEEDED'))
    return tf('formBusy', { minutes: Math.ceil((error.retryAfterSeconds ?? 60) / 60) });
  return error.status === 400 ? error.message : wordsFor(error);
}

/** What the SDK's frame does once the process is made (src/people/web/embedded.ts); the pages of links have none. */
export interface FillFlowOptions {
  /** Under what the answers are kept on the device: the link's token, or what the SDK opened. */
  storageKey: string;
  /** Called once the process is made; with sign now, it takes the person on (the page does not leave). */
  onDone?: (done: FillSubmitted) => void;
}

function unavailableWords(error: unknown): FillWordKey | undefined {
  return error instanceof ApiFailure && Object.hasOwn(UNAVAILABLE, error.code) ? UNAVAILABLE[error.code] : undefined;
}

/**
 * The questionnaire of a reference link (/r/<token>): the questions in order, shown and hidden as
 * the answers change (the service's own rule, src/templates/question-applicability.ts), the Mask
 * HTML as a live preview, the answers kept on the device, checked by the service (its refusals
 * shown at their fields) and sent once.
 */
export class FillFlow {
  private form: FillForm | undefined;
  private previewSource: (FillPreview & { html: string }) | null = null;
  private fields: Field[] = [];
  private preview: MaskPreview | undefined;
  private saved: SavedFill;
  private readonly alert = alertLine();
  private signature: { question: string; input: SignatureInput } | undefined;
  private readonly token: string;
  /** A submission made and held until the person types the code sent to their own address. */
  private awaiting: { confirmation: FillConfirmation; key: string; image?: FormSignature } | undefined;

  constructor(
    private readonly root: HTMLElement,
    private readonly client: PeopleClient,
    private readonly options: FillFlowOptions,
  ) {
    this.token = options.storageKey;
    this.saved = loadFill(this.token);
    onLanguageChange(() => redraw(() => this.draw()));
  }

  async start(): Promise<void> {
    try {
      this.form = await this.client.fillForm();
    } catch (error) {
      return this.unavailable(error);
    }
    // Without its preview the form still works: the preview only shows what the answers make.
    const preview = this.form.preview ? await this.client.fillPreview().catch(() => null) : null;
    this.previewSource = preview && preview.html !== null ? { ...preview, html: preview.html } : null;
    this.draw();
  }

  private unavailable(error: unknown): void {
    const words = unavailableWords(error);
    if (words === undefined) {
      const retry = h('button', { type: 'button', class: 'primary' }, t('tryAgain'));
      retry.addEventListener('click', () => void this.start());
      show(this.root, h('h1', {}, t('title')), h('p', { class: 'error', role: 'alert' }, wordsFor(error)), retry);
      return;
    }
    show(this.root, h('h1', {}, tf('unavailableTitle')), h('p', {}, tf(words)));
  }

  /** Draws the form from the kept answers: on opening, and again in another language. */
  private draw(): void {
    const form = this.form;
    if (!form) return;
    if (this.awaiting) {
      this.drawCode(this.awaiting);
      return;
    }
    const signature = this.signatureOf(form);
    const events = {
      changed: () => this.changed(),
      prefill: (pairs: FillAnswer[]) => this.prefill(pairs),
      signNow: form.signNow,
      ...(signature ? { signature } : {}),
    };
    this.fields = form.questions.map((question) => fieldFor(question, events));
    const locked = new Map(form.prefilled.map((entry) => [entry.name, entry]));
    for (const field of this.fields) {
      const name = field.question.name;
      const fixed = locked.get(name);
      const start = fixed?.value ?? this.saved.answers[name] ?? field.question.value;
      if (start !== undefined) field.set(start);
      if (fixed?.locked) field.lock();
    }
    const submit = h('button', { type: 'submit', class: 'primary' }, form.signNow ? tf('submitSignNow') : tf('submit'));
    const formElement = h(
      'form',
      { novalidate: true, class: 'fill-form' },
      ...this.fields.map((field) => field.element),
      this.alert.element,
      h('div', { class: 'actions' }, submit),
    );
    formElement.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.send(submit);
    });
    const previewFrame = this.previewSource === null ? undefined : new MaskPreview(this.previewSource, tf('previewFrame', { name: form.template.name }));
    this.preview = previewFrame;
    show(
      this.root,
      h(
        'div',
        { class: 'fill-layout' },
        h(
          'section',
          { class: 'fill-questions', 'aria-labelledby': 'fill-title' },
          h('h1', { id: 'fill-title' }, form.template.name),
          form.organization === '' ? undefined : h('p', { class: 'sender' }, t('sentBy', { organization: form.organization })),
          form.template.description === undefined ? undefined : h('p', {}, form.template.description),
          h('p', { class: 'hint' }, tf('intro')),
          formElement,
        ),
        previewFrame &&
          h(
            'section',
            { class: 'fill-preview', 'aria-labelledby': 'preview-title' },
            h('h2', { id: 'preview-title' }, tf('previewTitle')),
            previewFrame.element,
          ),
      ),
    );
    this.changed();
  }

  /** The values the service reads the questions with: fixed values, the options chosen to begin with, then the answers. */
  private current(): Map<string, string> {
    const form = this.form;
    const current = new Map<string, string>();
    if (!form) return current;
    for (const entry of form.prefilled) current.set(entry.name, entry.value);
    for (const field of this.fields) {
      const value = field.value();
      if (value !== '') current.set(field.question.name, value);
      else if (OPTION_TYPES.has(field.question.type) && field.question.value !== undefined && !current.has(field.question.name)) {
        current.set(field.question.name, field.question.value);
      }
    }
    return current;
  }

  /** The questions asked now; the others are hidden, and their answers neither previewed nor sent. */
  private asked(): Field[] {
    const applies = applicability(
      this.fields.map((field) => field.question),
      this.current(),
    );
    return this.fields.filter((field) => applies(field.question));
  }

  private changed(): void {
    const asked = new Set(this.asked());
    const answers: Record<string, string> = {};
    for (const field of this.fields) {
      field.element.hidden = !asked.has(field);
      const value = field.value();
      if (value !== '') answers[field.question.name] = value;
    }
    this.saved = { ...this.saved, answers };
    saveFill(this.token, this.saved);
    this.updatePreview(asked);
  }

  private updatePreview(asked: ReadonlySet<Field>): void {
    const form = this.form;
    if (!form || !this.preview) return;
    const shown = new Map<string, string>();
    for (const entry of form.prefilled) shown.set(entry.name, entry.value);
    for (const field of asked) {
      const value = field.value() || field.question.value || '';
      if (value !== '') shown.set(field.question.name, value);
    }
    this.preview.update(
      shown,
      [...asked].map((field) => field.question),
    );
  }

  /** A `request` question's endpoint answered other questions' values. */
  private prefill(pairs: FillAnswer[]): void {
    for (const pair of pairs) this.fields.find((field) => field.question.name === pair.key)?.set(pair.value);
    this.changed();
  }

  /**
   * With sign now, the input the person signs with in the form, offering the kinds the question
   * allows; made again with the form (in another language), as the rest is.
   */
  private signatureOf(form: FillForm): { question: string; input: SignatureInput } | undefined {
    const question = form.questions.find((q) => q.name === form.signatureQuestion && q.type === 'signature');
    if (!question) return (this.signature = undefined);
    this.signature = { question: question.name, input: signatureInput('', question.allow ?? ['draw', 'font']) };
    return this.signature;
  }

  /** The signature made in the form, or the words that ask for it at its field. */
  private async signatureImage(): Promise<{ image?: FormSignature; missing?: Field }> {
    if (!this.signature) return {};
    const made = await this.signature.input.image();
    if (made) return { image: { png: await base64Of(made.png), kind: made.kind } };
    return { missing: this.fields.find((field) => field.question.name === this.signature?.question) };
  }

  /**
   * The answers as /document/save takes them: the questions asked, answered; a signature is never an
   * answer, and neither is a locked one (the service has it already, and refuses it changed).
   */
  private data(): FillAnswer[] {
    const locked = new Set(this.form?.prefilled.filter((entry) => entry.locked).map((entry) => entry.name));
    return this.asked()
      .filter((field) => field.question.type !== 'signature' && !locked.has(field.question.name))
      .map((field) => ({ key: field.question.name, value: field.value() }))
      .filter((answer) => answer.value !== '');
  }

  private showErrors(errors: FillError[]): void {
    const byName = new Map(errors.map((error) => [error.name, error]));
    let first: Field | undefined;
    for (const field of this.fields) {
      const error = byName.get(field.question.name);
      field.showError(error ? wordsOf(error) : undefined);
      if (error && !first) first = field;
    }
    const general = errors.filter((error) => !this.fields.some((field) => field.question.name === error.name));
    this.alert.say([tf('fixErrors'), ...general.map((error) => error.message)].join(' '));
    first?.focus();
  }

  private async send(button: HTMLButtonElement): Promise<void> {
    button.disabled = true;
    const label = button.textContent;
    button.textContent = tf('sending');
    this.alert.say('');
    try {
      const data = this.data();
      const checked = await this.client.checkFill({ data });
      if (checked.errors.length > 0) return this.showErrors(checked.errors);
      for (const field of this.fields) field.showError(undefined);
      const signature = await this.signatureImage();
      if (signature.missing) {
        signature.missing.showError(t('signatureRequired'));
        this.alert.say(tf('fixErrors'));
        signature.missing.focus();
        return;
      }
      // One key per submission, kept until the process is made: a retry after a lost answer makes no second one.
      const submissionKey = this.saved.submissionKey ?? newSubmissionKey();
      this.saved = { ...this.saved, submissionKey };
      saveFill(this.token, this.saved);
      const done = await this.client.submitFill({ data, idempotencyKey: submissionKey });
      if (done.confirmation) {
        this.awaiting = { confirmation: done.confirmation, key: submissionKey, ...(signature.image ? { image: signature.image } : {}) };
        this.drawCode(this.awaiting);
        return;
      }
      this.finish(done, signature.image);
    } catch (error) {
      const words = unavailableWords(error);
      if (words !== undefined) return this.unavailable(error);
      this.alert.say(refusalWords(error));
    } finally {
      button.disabled = false;
      button.textContent = label;
    }
  }

  /** The process is made and its people told: the answers leave the device, and the person goes on to sign or is told so. */
  private finish(done: FillSubmitted, image: FormSignature | undefined): void {
    const signingToken = done.signingUrl === undefined ? undefined : linkTokenOf(done.signingUrl);
    if (image && signingToken) keepFormSignature(signingToken, image);
    clearFill(this.token);
    this.saved = { answers: {} };
    this.awaiting = undefined;
    // The SDK's frame is told first; with sign now it goes on to the signing flow itself.
    this.options.onDone?.(done);
    if (this.options.onDone && done.signingUrl !== undefined) return;
    if (done.signingUrl !== undefined) {
      show(this.root, h('h1', {}, tf('doneTitle')), h('p', { role: 'status' }, tf('goingToSign')));
      window.location.assign(done.signingUrl);
      return;
    }
    show(this.root, h('h1', { tabindex: -1 }, tf('doneTitle')), h('p', {}, tf('doneInvited', { code: done.code })));
    this.root.querySelector('h1')?.focus();
  }

  /**
   * Asks for the code sent to the person's own address: until they type it, nobody else hears of
   * the process. The answers stay on the device, so a reload asks again (the same key answers where the code went).
   */
  private drawCode(awaiting: { confirmation: FillConfirmation; key: string; image?: FormSignature }): void {
    const { confirmation } = awaiting;
    const alert = alertLine();
    const input = h('input', {
      id: 'fill-code',
      name: 'code',
      type: 'text',
      inputmode: 'numeric',
      autocomplete: 'one-time-code',
      maxlength: 6,
      required: true,
      'aria-describedby': 'fill-code-sent',
    });
    const button = h('button', { type: 'submit', class: 'primary' }, tf('confirmSend'));
    const resend = h('button', { type: 'button', class: 'secondary' }, tf('confirmResend'));
    const status = h('p', { role: 'status', class: 'status' });
    const form = h(
      'form',
      { novalidate: true, class: 'fill-form' },
      h('label', { for: 'fill-code' }, tf('confirmCodeLabel')),
      input,
      alert.element,
      status,
      h('div', { class: 'actions' }, button, resend),
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.confirm(awaiting, { input, button, alert });
    });
    resend.addEventListener('click', () => void this.resend(awaiting, { input, button: resend, alert, status }));
    const sent = confirmation.medium === 'email' ? 'confirmSentEmail' : 'confirmSentPhone';
    show(this.root, h('h1', { tabindex: -1 }, tf('confirmTitle')), h('p', { id: 'fill-code-sent' }, tf(sent, { to: confirmation.to })), form);
    input.focus();
  }

  private async confirm(
    awaiting: { key: string; image?: FormSignature },
    view: { input: HTMLInputElement; button: HTMLButtonElement; alert: { say(text: string): void } },
  ): Promise<void> {
    const code = view.input.value.trim();
    if (!/^\d{6}$/.test(code)) {
      view.alert.say(tf('confirmDigits'));
      view.input.focus();
      return;
    }
    view.button.disabled = true;
    view.alert.say('');
    try {
      this.finish(await this.client.confirmFill({ idempotencyKey: awaiting.key, code }), awaiting.image);
    } catch (error) {
      if (error instanceof ApiFailure && error.is('FILL_CONFIRMATION_EXPIRED')) return this.confirmationEnded();
      const words = unavailableWords(error);
      if (words !== undefined) return this.unavailable(error);
      view.alert.say(error instanceof ApiFailure && error.is('OTP_CODE_INVALID') ? tf('confirmWrong') : refusalWords(error));
      view.input.select();
    } finally {
      view.button.disabled = false;
    }
  }

  /** A code that did not arrive: a new one to the same address, the last one the only one that works. */
  private async resend(
    awaiting: { key: string },
    view: { input: HTMLInputElement; button: HTMLButtonElement; alert: { say(text: string): void }; status: HTMLElement },
  ): Promise<void> {
    view.button.disabled = true;
    view.alert.say('');
    view.status.textContent = '';
    try {
      const done = await this.client.resendFillCode({ idempotencyKey: awaiting.key });
      view.status.textContent = done.confirmation ? tf('confirmResent', { to: done.confirmation.to }) : '';
      view.button.disabled = false;
      view.input.value = '';
      view.input.focus();
    } catch (error) {
      if (error instanceof ApiFailure && error.is('FILL_CONFIRMATION_EXPIRED')) return this.confirmationEnded();
      if (unavailableWords(error) !== undefined) return this.unavailable(error);
      const usedUp = error instanceof ApiFailure && error.is('FILL_CODE_RESENDS_USED_UP');
      view.button.disabled = usedUp;
      view.button.hidden = usedUp;
      view.alert.say(
        usedUp ? tf('confirmResendsUsedUp') : error instanceof ApiFailure && error.is('OTP_TOO_SOON') ? tf('confirmResendWait') : refusalWords(error),
      );
      view.input.focus();
    }
  }

  /** The code's time or tries ran out: nothing went to anyone; the answers are still here, to send again as a new submission. */
  private confirmationEnded(): void {
    this.awaiting = undefined;
    this.saved = { answers: this.saved.answers };
    saveFill(this.token, this.saved);
    const again = h('button', { type: 'button', class: 'primary' }, tf('confirmFillAgain'));
    again.addEventListener('click', () => this.draw());
    show(this.root, h('h1', { tabindex: -1 }, tf('confirmEndedTitle')), h('p', { role: 'alert' }, tf('confirmEnded')), again);
    this.root.querySelector('h1')?.focus();
  }
}
