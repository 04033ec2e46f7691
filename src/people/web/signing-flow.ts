import { ApiFailure, base64Of, NetworkFailure, type PeopleApi } from './api.js';
import { capturePhoto, type PhotoKind } from './camera.js';
import { documentEntry, type ViewerDocument } from './document-viewer.js';
import { alertLine, focusFirstHeading, h, show, sleep, statusLine } from './dom.js';
import { type MessageKey, t } from './i18n.js';
import { phoneHandoff } from './phone-handoff.js';
import { signatureInput } from './signature.js';

type State = 'act' | 'waiting' | 'done' | 'blocked' | 'finished' | 'rejected' | 'expired' | 'cancelled';
type Role = 'SIGNER' | 'APPROVER';
type ParticipantStatus = 'PENDING' | 'NOTIFICATION' | 'FINISH' | 'REJECT' | 'BLOCK';

interface Requirements {
  otpCode: { required: boolean; medium?: 'email' | 'phone'; verified: boolean };
  camera: {
    required: boolean;
    mode?: 'photo' | 'identification';
    documentBack: boolean;
    captured: { face: boolean; documentFront: boolean; documentBack: boolean };
    verified: boolean;
    failures?: number;
    lastFailure?: string;
  };
}

export interface SigningPage {
  state: State;
  language: string;
  process: { code: string; name: string; message: string; organization: string };
  participant: { id: string; name: string; role: Role; status: ParticipantStatus };
  participants: { name: string; role: Role; status: ParticipantStatus; you: boolean }[];
  waitingFor: string[];
  documents: ViewerDocument[];
  phoneOnRecord: boolean;
  requirements?: Requirements;
  canSign?: boolean;
  sealing?: boolean;
  rejection?: 'yours' | 'identity';
}

export interface SigningHooks {
  /** The person finished what the page asked of them (signed, approved or rejected). */
  onDone?(page: SigningPage): void;
}

const STATUS_WORDS: Record<ParticipantStatus, MessageKey> = {
  PENDING: 'statusPending',
  NOTIFICATION: 'statusNotification',
  FINISH: 'statusFinish',
  REJECT: 'statusReject',
  BLOCK: 'statusBlock',
};

/** Once a process is closed unfinished, nobody "can sign now" or "waits for a turn" any more. */
const CLOSED: ReadonlySet<State> = new Set(['rejected', 'expired', 'cancelled']);

function statusWord(page: SigningPage, status: ParticipantStatus): MessageKey {
  return CLOSED.has(page.state) && (status === 'PENDING' || status === 'NOTIFICATION') ? 'statusNotSigned' : STATUS_WORDS[status];
}

/** What the person can do about a refusal, in their words. */
const REFUSALS: Record<string, MessageKey> = {
  OTP_CODE_INVALID: 'otpInvalid',
  OTP_CODE_EXPIRED: 'otpExpired',
  OTP_TOO_SOON: 'otpTooSoon',
  FACE_MISMATCH: 'faceMismatch',
  NO_FACE: 'noFace',
  MULTIPLE_FACES: 'multipleFaces',
  FACE_TOO_SMALL: 'faceTooSmall',
  FACE_BLURRY: 'faceBlurry',
  FACE_MATCHER_BUSY: 'busy',
  FACE_MATCHER_FAILED: 'busy',
  DOCUMENT_NO_FACE: 'documentNoFace',
  IMAGE_UNREADABLE: 'imageUnreadable',
  IMAGE_NOT_JPEG_OR_PNG: 'imageUnreadable',
  IMAGE_EMPTY: 'imageUnreadable',
  IMAGE_TOO_LARGE: 'imageTooLarge',
  SIGNATURE_IMAGE_EMPTY: 'signatureUnreadable',
  SIGNATURE_IMAGE_TOO_LARGE: 'signatureUnreadable',
  SIGNATURE_IMAGE_NOT_PNG: 'signatureUnreadable',
  SIGNATURE_IMAGE_UNREADABLE: 'signatureUnreadable',
  TOO_MANY_REQUESTS: 'tooMany',
};

export function wordsFor(error: unknown): string {
  if (error instanceof NetworkFailure) return t('networkError');
  if (error instanceof ApiFailure) {
    const key = REFUSALS[error.code];
    if (key) return t(key);
  }
  return t('genericError');
}

/** Refusals after which the page has nothing more to offer in this step: it reloads to show why. */
const ENDS_THE_STEP = new Set(['PARTICIPANT_BLOCKED', 'DOCUMENT_NOT_IN_SIGNATURE', 'DOCUMENT_EXPIRED', 'PARTICIPANT_ALREADY_DONE', 'NOT_YOUR_TURN']);

export class SigningFlow {
  private page: SigningPage | undefined;
  /** The photo to take again after the service could not use one, and why. */
  private retake: { kind: PhotoKind; notice: string } | undefined;
  private polling = false;

  constructor(
    private readonly root: HTMLElement,
    private readonly api: PeopleApi,
    private readonly hooks: SigningHooks = {},
  ) {}

  async start(): Promise<void> {
    await this.reload();
  }

  private async reload(): Promise<void> {
    try {
      this.page = await this.api.call<SigningPage>('GET', '/signing');
    } catch (error) {
      if (error instanceof ApiFailure && (error.status === 404 || error.code === 'SIGNING_LINK_NOT_FOUND')) return this.unknownLink();
      return this.failure(error);
    }
    this.render(this.page);
  }

  /** Runs a step; refusals that end it reload the page, which then shows the new state. */
  private async step<T>(action: () => Promise<T>, alert: { say(text: string): void }): Promise<T | undefined> {
    try {
      return await action();
    } catch (error) {
      if (error instanceof ApiFailure && ENDS_THE_STEP.has(error.code)) {
        await this.reload();
        return undefined;
      }
      alert.say(wordsFor(error));
      return undefined;
    }
  }

  private unknownLink(): void {
    show(this.root, h('h1', {}, t('unknownTitle')), h('p', {}, t('unknownHelp')));
    focusFirstHeading(this.root);
  }

  private failure(error: unknown): void {
    const again = h('button', { type: 'button', class: 'primary' }, t('tryAgain'));
    again.addEventListener('click', () => void this.reload());
    show(this.root, h('h1', {}, t('title')), h('p', { role: 'alert', class: 'error' }, wordsFor(error)), again);
  }

  private render(page: SigningPage): void {
    const header = h(
      'header',
      {},
      page.process.organization ? h('p', { class: 'sender' }, t('sentBy', { organization: page.process.organization })) : '',
      h('h1', {}, page.process.name),
      page.process.message ? h('p', { class: 'message' }, page.process.message) : '',
    );
    const documents = h(
      'section',
      { 'aria-labelledby': 'documents-title' },
      h('h2', { id: 'documents-title' }, t('documents')),
      h('ul', { class: 'documents' }, ...page.documents.map(documentEntry)),
    );
    const people = h(
      'section',
      { 'aria-labelledby': 'people-title' },
      h('h2', { id: 'people-title' }, t('people')),
      h(
        'ol',
        { class: 'people' },
        ...page.participants.map((p) =>
          h(
            'li',
            { class: `person ${p.status.toLowerCase()}` },
            h('span', { class: 'name' }, p.name, p.you ? ` ${t('you')}` : ''),
            h('span', { class: 'role' }, t(p.role === 'SIGNER' ? 'roleSigner' : 'roleApprover')),
            h('span', { class: 'state' }, t(statusWord(page, p.status))),
          ),
        ),
      ),
    );
    const action = h('section', { class: 'step', 'aria-live': 'polite' });
    show(this.root, header, action, documents, people);
    this.renderAction(page, action);
  }

  private renderAction(page: SigningPage, action: HTMLElement): void {
    switch (page.state) {
      case 'act':
        this.renderStep(page, action);
        return;
      case 'waiting':
        show(action, h('h2', {}, t('waitingTurn')), page.waitingFor.length > 0 ? h('p', {}, t('waitingFor', { names: page.waitingFor.join(', ') })) : '');
        void this.poll((next) => next.state !== 'waiting');
        focusFirstHeading(action);
        return;
      case 'done':
        show(
          action,
          h('h2', {}, t(page.participant.role === 'SIGNER' ? 'doneSigned' : 'doneApproved')),
          page.waitingFor.length > 0 ? h('p', {}, t('waitingOthers', { names: page.waitingFor.join(', ') })) : '',
          this.copyButton(),
        );
        focusFirstHeading(action);
        return;
      case 'finished':
        show(action, h('h2', {}, t('finishedTitle')), h('p', {}, t(page.sealing ? 'sealingHelp' : 'finishedHelp')), this.copyButton());
        if (page.sealing) void this.poll((next) => !next.sealing);
        focusFirstHeading(action);
        return;
      default: {
        const words: Record<'rejected' | 'expired' | 'cancelled' | 'blocked', [MessageKey, MessageKey]> = {
          rejected: ['rejectedTitle', 'rejectedHelp'],
          expired: ['expiredTitle', 'expiredHelp'],
          cancelled: ['cancelledTitle', 'cancelledHelp'],
          blocked: ['blockedTitle', 'blockedHelp'],
        };
        const [title, help] = words[page.state];
        const ownRejection: Record<'yours' | 'identity', MessageKey> = { yours: 'rejectedByYouHelp', identity: 'rejectedIdentityHelp' };
        show(action, h('h2', {}, t(title)), h('p', {}, t(page.rejection ? ownRejection[page.rejection] : help)));
        focusFirstHeading(action);
        return;
      }
    }
  }

  /** Reloads every few seconds until `changed` says the page moved on (someone else acted). */
  private async poll(changed: (page: SigningPage) => boolean): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    while (this.root.isConnected) {
      await sleep(5000);
      const next = await this.api.call<SigningPage>('GET', '/signing').catch(() => undefined);
      if (next && changed(next)) {
        this.polling = false;
        this.page = next;
        this.render(next);
        return;
      }
    }
    this.polling = false;
  }

  private copyButton(): HTMLElement {
    const status = statusLine();
    const button = h('button', { type: 'button', class: 'secondary' }, t('copyButton'));
    button.addEventListener('click', async () => {
      button.disabled = true;
      await this.api
        .call('POST', '/signing/copy')
        .then(() => status.say(t('copySent')))
        .catch((error: unknown) => status.say(wordsFor(error)));
      button.disabled = false;
    });
    return h('div', {}, button, status.element);
  }

  /** The steps the participant's validations ask for, in order: code, photos, then signing. */
  private stepsOf(requirements: Requirements): ('otp' | PhotoKind | 'finish')[] {
    const steps: ('otp' | PhotoKind | 'finish')[] = [];
    if (requirements.otpCode.required) steps.push('otp');
    if (requirements.camera.required) {
      if (requirements.camera.mode === 'identification') {
        steps.push('documentFront');
        if (requirements.camera.documentBack) steps.push('documentBack');
      }
      steps.push('face');
    }
    steps.push('finish');
    return steps;
  }

  private nextStep(requirements: Requirements): 'otp' | PhotoKind | 'finish' {
    if (requirements.otpCode.required && !requirements.otpCode.verified) return 'otp';
    const camera = requirements.camera;
    if (camera.required && !camera.verified) {
      if (this.retake) return this.retake.kind;
      if (camera.mode === 'identification' && !camera.captured.documentFront) return 'documentFront';
      if (camera.documentBack && !camera.captured.documentBack) return 'documentBack';
      return 'face';
    }
    return 'finish';
  }

  private renderStep(page: SigningPage, action: HTMLElement): void {
    const requirements = page.requirements;
    if (!requirements) return;
    const steps = this.stepsOf(requirements);
    const next = this.nextStep(requirements);
    const counter = h('p', { class: 'counter' }, t('stepOf', { step: steps.indexOf(next) + 1, steps: steps.length }));
    const body = h('div', {});
    show(action, counter, body, this.rejectControl());
    if (next === 'otp') this.otpStep(body, requirements);
    else if (next === 'finish') this.finishStep(body, page);
    else this.photoStep(body, page, next);
    focusFirstHeading(body);
  }

  private otpStep(container: HTMLElement, requirements: Requirements): void {
    const alert = alertLine();
    const status = statusLine();
    const send = h('button', { type: 'button', class: 'primary' }, t('otpSend'));
    const input = h('input', {
      id: 'otp',
      type: 'text',
      inputmode: 'numeric',
      autocomplete: 'one-time-code',
      pattern: '[0-9]{6}',
      maxlength: 6,
      'aria-describedby': 'otp-help',
    });
    const check = h('button', { type: 'submit', class: 'primary' }, t('otpCheck'));
    const form = h(
      'form',
      { class: 'otp', hidden: true, novalidate: true },
      h('label', { for: 'otp' }, t('otpLabel')),
      input,
      h('p', { id: 'otp-help', class: 'hint' }, t('otpFormat')),
      check,
    );
    const resend = h('button', { type: 'button', class: 'link', hidden: true }, t('otpResend'));
    let timer: number | undefined;
    const countdown = (seconds: number) => {
      resend.disabled = true;
      resend.hidden = false;
      let left = seconds;
      resend.textContent = t('otpResendIn', { seconds: left });
      window.clearInterval(timer);
      timer = window.setInterval(() => {
        left--;
        if (left > 0) {
          resend.textContent = t('otpResendIn', { seconds: left });
          return;
        }
        window.clearInterval(timer);
        resend.disabled = false;
        resend.textContent = t('otpResend');
      }, 1000);
    };
    const request = async () => {
      send.disabled = true;
      resend.disabled = true;
      alert.say('');
      const sent = await this.step(() => this.api.call('POST', '/signing/otp'), alert);
      send.disabled = false;
      if (sent === undefined) {
        resend.disabled = false;
        return;
      }
      send.hidden = true;
      form.hidden = false;
      status.say(t('otpSent'));
      countdown(30);
      input.focus();
    };
    send.addEventListener('click', request);
    resend.addEventListener('click', request);
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const code = input.value.trim();
      if (!/^\d{6}$/.test(code)) {
        alert.say(t('otpFormat'));
        input.focus();
        return;
      }
      check.disabled = true;
      const verified = await this.step(() => this.api.call('POST', '/signing/otp/check', { code }), alert);
      check.disabled = false;
      if (verified === undefined) {
        input.select();
        return;
      }
      window.clearInterval(timer);
      await this.reload();
    });
    show(
      container,
      h('h2', {}, t('otpTitle')),
      h('p', {}, t(requirements.otpCode.medium === 'email' ? 'otpIntroEmail' : 'otpIntroPhone')),
      alert.element,
      send,
      form,
      resend,
      status.element,
    );
  }

  private photoStep(container: HTMLElement, page: SigningPage, kind: PhotoKind): void {
    const camera = page.requirements?.camera;
    const notice = this.retake?.notice ?? (kind === 'face' && camera?.lastFailure ? wordsFor(new ApiFailure(400, camera.lastFailure, '')) : undefined);
    capturePhoto(container, {
      kind,
      ...(notice ? { notice } : {}),
      extra: phoneHandoff({
        api: this.api,
        flow: 'signing',
        canSend: page.phoneOnRecord,
        finished: async () => {
          const next = await this.api.call<SigningPage>('GET', '/signing');
          return next.state !== 'act' || next.requirements?.camera.verified === true;
        },
        onFinished: () => void this.reload(),
      }),
      send: async (photo) => {
        let answer: { requirements: Requirements } | undefined;
        try {
          answer = await this.api.call<{ requirements: Requirements }>('POST', '/signing/photo', { kind, image: await base64Of(photo) });
        } catch (error) {
          if (error instanceof ApiFailure && ENDS_THE_STEP.has(error.code)) {
            await this.reload();
            return;
          }
          // The document held no face: it is the document's photo that must be taken again.
          if (error instanceof ApiFailure && error.code === 'DOCUMENT_NO_FACE') {
            this.retake = { kind: 'documentFront', notice: wordsFor(error) };
            await this.reload();
            return;
          }
          throw new Error(wordsFor(error));
        }
        this.retake = undefined;
        const after = answer.requirements.camera;
        // Compared and not matching: the face is taken again, with the reason shown.
        if (kind === 'face' && !after.verified && after.captured.face && (after.failures ?? 0) > (camera?.failures ?? 0)) {
          this.retake = { kind: 'face', notice: t('faceMismatch') };
        }
        await this.reload();
      },
    });
  }

  private finishStep(container: HTMLElement, page: SigningPage): void {
    const signer = page.participant.role === 'SIGNER';
    const alert = alertLine();
    const consent = h('input', { type: 'checkbox', id: 'consent', required: true });
    const signature = signer ? signatureInput(page.participant.name) : undefined;
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
        alert.say(t('signatureRequired'));
        return;
      }
      submit.disabled = true;
      const body = { consent: true, ...(image ? { signature: await base64Of(image) } : {}) };
      const done = await this.step(() => this.api.call('POST', signer ? '/signing/sign' : '/signing/approve', body), alert);
      submit.disabled = false;
      if (done === undefined) return;
      await this.reload();
      if (this.page) this.hooks.onDone?.(this.page);
    });
    show(container, h('h2', {}, t(signer ? 'signTitle' : 'approveTitle')), form);
  }

  private rejectControl(): HTMLElement {
    const open = h('button', { type: 'button', class: 'link danger', 'aria-expanded': 'false' }, t('rejectButton'));
    const alert = alertLine();
    const reason = h('textarea', { id: 'reject-reason', rows: 3, maxlength: 1000 });
    const confirm = h('button', { type: 'submit', class: 'danger' }, t('rejectConfirm'));
    const cancel = h('button', { type: 'button', class: 'secondary' }, t('rejectCancel'));
    const form = h(
      'form',
      { class: 'reject', hidden: true, novalidate: true },
      h('h2', {}, t('rejectTitle')),
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
      const done = await this.step(() => this.api.call('POST', '/signing/reject', { reason: text }), alert);
      confirm.disabled = false;
      if (done === undefined) return;
      await this.reload();
      if (this.page) this.hooks.onDone?.(this.page);
    });
    return h('div', { class: 'reject-area' }, open, form);
  }
}
