import { ApiFailure, base64Of, type PeopleApi } from './api.js';
import { capturePhoto, type PhotoKind } from './camera.js';
import { focusFirstHeading, h, show } from './dom.js';
import { type MessageKey, t } from './i18n.js';
import { phoneHandoff } from './phone-handoff.js';
import { wordsFor } from './signing-flow.js';

type State = 'capture' | 'approved' | 'not-approved' | 'review' | 'expired';

interface ValidationPage {
  state: State;
  language: string;
  code: string;
  name: string;
  organization: string;
  captured: { documentFront: boolean; documentBack: boolean; face: boolean };
}

export interface ValidationOutcome {
  status: string;
  similarity?: number;
}

export interface ValidationHooks {
  onDone?(outcome: ValidationOutcome): void;
}

const OUTCOMES: Record<Exclude<State, 'capture'>, [MessageKey, MessageKey]> = {
  approved: ['approvedTitle', 'approvedHelp'],
  'not-approved': ['notApprovedTitle', 'notApprovedHelp'],
  review: ['reviewStateTitle', 'reviewStateHelp'],
  expired: ['expiredTitle', 'expiredHelp'],
};

/** A face validation: the document's front, then the face, then the outcome in words. */
export class ValidationFlow {
  /** A photo the service could not use, to take again, and why. */
  private retake: { kind: PhotoKind; notice: string } | undefined;

  constructor(
    private readonly root: HTMLElement,
    private readonly api: PeopleApi,
    private readonly hooks: ValidationHooks = {},
  ) {}

  async start(): Promise<void> {
    await this.reload();
  }

  private async reload(): Promise<void> {
    let page: ValidationPage;
    try {
      page = await this.api.call<ValidationPage>('GET', '/validation');
    } catch (error) {
      if (error instanceof ApiFailure && error.status === 404) {
        show(this.root, h('h1', {}, t('unknownTitle')), h('p', {}, t('unknownHelp')));
        focusFirstHeading(this.root);
        return;
      }
      const again = h('button', { type: 'button', class: 'primary' }, t('tryAgain'));
      again.addEventListener('click', () => void this.reload());
      show(this.root, h('h1', {}, t('validationTitle')), h('p', { role: 'alert', class: 'error' }, wordsFor(error)), again);
      return;
    }
    this.render(page);
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
        api: this.api,
        flow: 'validation',
        canSend: true,
        finished: async () => (await this.api.call<ValidationPage>('GET', '/validation')).state !== 'capture',
        onFinished: () => void this.reload(),
      }),
      send: async (photo) => {
        try {
          await this.api.call('POST', '/validation/photo', { kind, image: await base64Of(photo) });
          if (kind === 'face') {
            const outcome = await this.api.call<ValidationOutcome>('POST', '/validation/finish');
            this.retake = undefined;
            await this.reload();
            this.hooks.onDone?.(outcome);
            return;
          }
        } catch (error) {
          if (error instanceof ApiFailure && error.code === 'DOCUMENT_NO_FACE') this.retake = { kind: 'documentFront', notice: wordsFor(error) };
          else if (error instanceof ApiFailure && ['VERIFACE_CLOSED', 'VERIFACE_EXPIRED'].includes(error.code)) this.retake = undefined;
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
