import type { SigningPage } from '../../contract.js';
import { ApiFailure, type PeopleClient } from '../client.js';
import { focusFirstHeading, h, show, sleep } from '../dom.js';
import { t } from '../i18n.js';
import { showFailure, showUnknownLink } from '../notices.js';
import { applyOrganizationColours } from '../organization-colours.js';
import { wordsFor } from '../refusals.js';
import { Shown } from '../shown.js';
import { actionBar } from './action-bar.js';
import { attachmentsStep, changeAttachments } from './attachments-step.js';
import { delegateControl } from './delegate-control.js';
import { ENDS_THE_STEP } from './ends-the-step.js';
import { finishStep } from './finish-step.js';
import { otpStep } from './otp-step.js';
import { closedView, delegatedView, doneView, finishedView, waitingView } from './outcome.js';
import { collectsFilesOnly, documentsSection, pageHeader, peopleSection } from './page-frame.js';
import { photoStep } from './photo-step.js';
import { rejectControl } from './reject-control.js';
import type { Retake, Say, StepContext } from './step-context.js';
import { nextStep, stepsOf } from './step-order.js';

export interface SigningHooks {
  /** The person finished what the page asked of them (signed, approved or rejected). */
  onDone?(page: SigningPage): void;
}

/**
 * The participant's page: reads it from the service and shows the state it is in; while it is their
 * turn, the next step their validations ask for (each step is a module of its own), with rejecting
 * offered under it. After each step it reads the page again, so the service decides what comes next.
 */
export class SigningFlow {
  private page: SigningPage | undefined;
  private readonly retake: { next: Retake | undefined } = { next: undefined };
  private readonly attachments = { reviewed: false };
  private polling = false;
  private readonly shown = new Shown();
  /** While it is the person's turn: what was drawn, so the next step can keep the documents. */
  private frame: { page: SigningPage; action: HTMLElement; people: HTMLElement } | undefined;

  constructor(
    private readonly root: HTMLElement,
    private readonly client: PeopleClient,
    private readonly hooks: SigningHooks = {},
  ) {}

  async start(): Promise<void> {
    await this.reload();
  }

  private async reload(): Promise<void> {
    try {
      this.page = await this.client.signingPage();
    } catch (error) {
      if (error instanceof ApiFailure && (error.status === 404 || error.is('SIGNING_LINK_NOT_FOUND'))) return this.shown.show(() => showUnknownLink(this.root));
      return this.shown.show(() => showFailure(this.root, 'title', error, () => void this.reload()));
    }
    const page = this.page;
    applyOrganizationColours(page.colours);
    const frame = this.frame;
    if (frame && page.state === 'act' && sameDocuments(frame.page, page)) {
      // The next step of the same turn: the documents stay as they are, drawn and where the person
      // left them, instead of loading again and moving the step away while their pages grow.
      this.shown.remember(() => this.render(page));
      const people = peopleSection(page);
      frame.people.replaceWith(people);
      this.frame = { page, action: frame.action, people };
      this.renderAction(page, frame.action);
      return;
    }
    this.shown.show(() => this.render(page));
  }

  /** Runs a request of a step; refusals that end it reload the page, which then shows the new state. */
  private async attempt<T>(request: () => Promise<T>, alert: Say): Promise<T | undefined> {
    try {
      return await request();
    } catch (error) {
      if (error instanceof ApiFailure && error.is(...ENDS_THE_STEP)) {
        await this.reload();
        return undefined;
      }
      alert.say(wordsFor(error));
      return undefined;
    }
  }

  /**
   * While it is the person's turn the documents come first, shown at once, with the step after
   * them and a bar in reach to go to it; in every other state the state comes first.
   */
  private render(page: SigningPage): void {
    const action = h('section', { class: 'step', id: 'step', 'aria-live': 'polite' });
    if (page.state === 'act') {
      const reading = { onOpened: (position: number) => void this.client.documentOpened({ document: position }).catch(() => undefined) };
      const stepLabel = t(page.participant.role === 'SIGNER' ? 'toStep' : 'approveTitle');
      const bar = actionBar(this.root, action, { places: page.boxes?.length ?? 0, stepLabel });
      const people = peopleSection(page);
      show(this.root, pageHeader(page), documentsSection(page, reading), action, people, bar);
      this.frame = { page, action, people };
    } else {
      show(this.root, pageHeader(page), action, documentsSection(page), peopleSection(page));
      this.frame = undefined;
    }
    this.renderAction(page, action);
  }

  private renderAction(page: SigningPage, action: HTMLElement): void {
    switch (page.state) {
      case 'act':
        this.renderStep(page, action);
        return;
      case 'waiting':
        show(action, ...waitingView(page));
        void this.poll((next) => next.state !== 'waiting');
        break;
      case 'done':
        show(action, ...doneView(page, this.client));
        break;
      case 'finished':
        show(action, ...finishedView(page, this.client));
        if (page.sealing) void this.poll((next) => !next.sealing);
        break;
      case 'delegated':
        show(action, ...delegatedView(page));
        break;
      default:
        show(action, ...closedView(page, page.state));
    }
    focusFirstHeading(action);
  }

  /** Reloads every few seconds until `changed` says the page moved on (someone else acted). */
  private async poll(changed: (page: SigningPage) => boolean): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    while (this.root.isConnected) {
      await sleep(5000);
      const next = await this.client.signingPage().catch(() => undefined);
      if (next && changed(next)) {
        this.polling = false;
        this.page = next;
        this.shown.show(() => this.render(next));
        return;
      }
    }
    this.polling = false;
  }

  private renderStep(page: SigningPage, action: HTMLElement): void {
    const requirements = page.requirements;
    if (!requirements) return;
    const attachments = { asked: page.attachments ?? [], reviewed: this.attachments.reviewed };
    const steps = stepsOf(requirements, attachments, !collectsFilesOnly(page));
    const next = nextStep(requirements, this.retake.next, attachments);
    const context: StepContext = {
      client: this.client,
      page,
      attempt: (request, alert) => this.attempt(request, alert),
      reload: () => this.reload(),
      finished: async () => {
        await this.reload();
        if (this.page) this.hooks.onDone?.(this.page);
      },
      retake: this.retake,
      attachments: this.attachments,
    };
    const counter = steps.length > 1 ? h('p', { class: 'counter' }, t('stepOf', { step: steps.indexOf(next) + 1, steps: steps.length })) : '';
    const body = h('div', {});
    show(action, counter, body, page.delegation ? delegateControl(context, page.delegation) : '', rejectControl(context));
    if (next === 'otp') otpStep(body, context);
    else if (next === 'attachments') attachmentsStep(body, context);
    else if (next === 'finish') {
      finishStep(body, context);
      if (attachments.asked.length > 0) body.append(changeAttachments(context));
    } else photoStep(body, context, next);
    focusFirstHeading(body);
  }
}

/** The same documents with the same places to sign: what the person reads has not changed. */
function sameDocuments(before: SigningPage, after: SigningPage): boolean {
  const documents = (page: SigningPage) => page.documents.map((document) => [document.kind, document.position, document.name]);
  return JSON.stringify([documents(before), before.boxes]) === JSON.stringify([documents(after), after.boxes]);
}
