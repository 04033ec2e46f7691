import type { ValidationFinished, ValidationPage } from '../contract.js';
import { capturePhoto, type PhotoKind } from './camera.js';
import { ApiFailure, base64Of, type PeopleClient } from './client.js';
import { focusFirstHeading, h, show } from './dom.js';
import { type MessageKey, t } from './i18n.js';
import { showFailure, showUnknownLink } from './notices.js';
import { applyOrganizationColours } from './organization-colours.js';
import { phoneHandoff } from './phone-handoff.js';
import { wordsFor } from './refusals.js';
import { Shown } from './shown.js';

export interface ValidationHooks {
  /** Once, when a validation this page saw in progress is over (here, or on the phone it was handed to). */
  onDone?(outcome: NonNullable<ValidationPage['outcome']>): void;
}

const OUTCOMES: Record<Exclude<ValidationPage['state'], 'capture'>, [MessageKey, MessageKey]> = {
  approved: ['approvedTitle', 'approvedHelp'],
  'not-approved': ['notApprovedTitle', 'notApprovedHelp'],
  review: ['reviewStateTitle', 'reviewStateHelp'],
  expired: ['expiredTitle', 'expiredHelp'],
};

function mismatchNotice(outcome: ValidationFinished): string {
  const left = outcome.attemptsLeft;
  if (left === undefined) return t('faceMismatch');
  return `${t('faceMismatch')} ${left === 1 ? t('lastTry') : t('triesLeft', { left })}`;
}

/** A face validation: the document's front, then the face, then the outcome in words. */
export class ValidationFlow {
  /** A photo the service could not use, to take again, and why. */
  private retake: { kind: PhotoKind; notice: string } | undefined;
  private readonly shown = new Shown();
  private sawCapture = false;
  private notified = false;

  constructor(
    private readonly root: HTMLElement,
    private readonly client: PeopleClient,
    private readonly hooks: ValidationHooks = {},
  ) {}

  async start(): Promise<void> {
    await this.reload();
  }

  private async reload(): Promise<void> {
    let page: ValidationPage;
    try {
      page = await this.client.validationPage();
    } catch (error) {
      if (error instanceof ApiFailure && error.status === 404) return this.shown.show(() => showUnknownLink(this.root));
      return this.shown.show(() => showFailure(this.root, 'validationTitle', error, () => void this.reload()));
    }
    applyOrganizationColours(page.colours);
    this.shown.show(() => this.render(page));
    if (page.state === 'capture') this.sawCapture = true;
    else if (page.outcome && this.sawCapture && !this.notified) {
      this.notified = true;
      this.hooks.onDone?.(page.outcome);
    }
  }

  private render(page: ValidationPage): void {
    const header = h('header', {}, h('h1', {}, t('validationTitle')), h('p', {}, t('validationIntro', { name: page.name, organization: page.organization })));
    const action = h('section', { class: 'step' });
    show(this.root, header, action);
    if (page.state !== 'capture') {
      const [title, help] = OUTCOMES[page.state];
      show(action, h('h2', {}, t(title)), h('p', {}, t(help)));
      focusFirstHeading(action);
      return;
    }
    const kind: PhotoKind = this.retake?.kind ?? (page.captured.documentFront ? 'face' : 'documentFront');
    const steps = 2;
    const body = h('div', {});
    show(action, h('p', { class: 'counter' }, t('stepOf', { step: kind === 'face' ? 2 : 1, steps })), body);
    capturePhoto(body, {
      kind,
      ...(this.retake ? { notice: this.retake.notice } : {}),
      extra: phoneHandoff({
        qr: this.client.validationQr,
        sendLink: (channel) => this.client.sendValidationLink({ channel }),
        canSend: true,
        finished: async () => (await this.client.validationPage()).state !== 'capture',
        onFinished: () => void this.reload(),
      }),
      send: async (photo) => {
        try {
          await this.client.validationPhoto({ kind, image: await base64Of(photo) });
          // The face is taken (a retake of the document): the check is made again at once.
          if (kind === 'face' || page.captured.face) {
            const outcome = await this.client.finishValidation();
            // A face that did not match, with tries left: said in words and asked again; the flow is not over.
            this.retake = outcome.status === 'INPROGRESS' ? { kind: 'face', notice: mismatchNotice(outcome) } : undefined;
            await this.reload();
            return;
          }
        } catch (error) {
          if (error instanceof ApiFailure && error.is('DOCUMENT_NO_FACE', 'DOCUMENT_NUMBER_MISMATCH'))
            this.retake = { kind: 'documentFront', notice: wordsFor(error) };
          else if (error instanceof ApiFailure && error.is('VERIFACE_CLOSED', 'VERIFACE_EXPIRED')) this.retake = undefined;
          else throw new Error(wordsFor(error));
          await this.reload();
          return;
        }
        this.retake = undefined;
        await this.reload();
      },
    });
    focusFirstHeading(body);
  }
}
