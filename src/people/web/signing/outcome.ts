import type { SigningPage } from '../../contract.js';
import type { PeopleClient } from '../client.js';
import { type Child, h, statusLine } from '../dom.js';
import { type MessageKey, t } from '../i18n.js';
import { wordsFor } from '../refusals.js';

type Closed = Extract<SigningPage['state'], 'rejected' | 'expired' | 'cancelled' | 'editing' | 'blocked' | 'review'>;

const CLOSED_WORDS: Record<Closed, [MessageKey, MessageKey]> = {
  rejected: ['rejectedTitle', 'rejectedHelp'],
  expired: ['expiredTitle', 'expiredHelp'],
  cancelled: ['cancelledTitle', 'cancelledHelp'],
  editing: ['editingTitle', 'editingHelp'],
  blocked: ['blockedTitle', 'blockedHelp'],
  review: ['reviewStateTitle', 'reviewStateHelp'],
};

/** A rejection this participant's own step made: their own, or their identity's. */
const OWN_REJECTION: Record<NonNullable<SigningPage['rejection']>, MessageKey> = { yours: 'rejectedByYouHelp', identity: 'rejectedIdentityHelp' };

/** Offers to e-mail the person a link to their page, where the document can be read at any time. */
function copyButton(client: PeopleClient): HTMLElement {
  const status = statusLine();
  const button = h('button', { type: 'button', class: 'secondary' }, t('copyButton'));
  button.addEventListener('click', async () => {
    button.disabled = true;
    await client
      .emailCopy()
      .then(() => status.say(t('copySent')))
      .catch((error: unknown) => status.say(wordsFor(error)));
    button.disabled = false;
  });
  return h('div', {}, button, status.element);
}

/** Not their turn yet: whom they wait for. */
export function waitingView(page: SigningPage): Child[] {
  return [h('h2', {}, t('waitingTurn')), page.waitingFor.length > 0 ? h('p', {}, t('waitingFor', { names: page.waitingFor.join(', ') })) : ''];
}

/** They finished; others may not have. */
export function doneView(page: SigningPage, client: PeopleClient): Child[] {
  return [
    // A process that only collects files has no document until its certificate: they handed in their files.
    h('h2', {}, t(page.documents.length === 0 ? 'doneFiles' : page.participant.role === 'SIGNER' ? 'doneSigned' : 'doneApproved')),
    page.waitingFor.length > 0 ? h('p', {}, t('waitingOthers', { names: page.waitingFor.join(', ') })) : '',
    copyButton(client),
  ];
}

/** Everyone signed: the signed files come once sealed. */
export function finishedView(page: SigningPage, client: PeopleClient): Child[] {
  return [h('h2', {}, t('finishedTitle')), h('p', {}, t(page.sealing ? 'sealingHelp' : 'finishedHelp')), copyButton(client)];
}

/** This link's holder handed their place to another person: the link shows only that. */
export function delegatedView(page: SigningPage): Child[] {
  return [h('h2', {}, t('delegatedTitle')), h('p', {}, t('delegatedHelp', { name: page.delegatedTo ?? '' }))];
}

/** Closed without their signature: rejected, expired, cancelled, blocked after failed checks, or waiting for a person's review. */
export function closedView(page: SigningPage, state: Closed): Child[] {
  const [title, help] = CLOSED_WORDS[state];
  return [h('h2', {}, t(title)), h('p', {}, t(page.rejection ? OWN_REJECTION[page.rejection] : help))];
}
