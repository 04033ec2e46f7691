import { hasProcessWords } from '../../words-console-process.js';
import { h, show } from '../dom.js';
import type { Participant, ProcessDetail, TimelineEvent } from './api.js';
import { say, when } from './words.js';

export function statusWords(status: ProcessDetail['process']['status']): string {
  return say(`status${status}`);
}

function participantLine(participant: Participant): HTMLElement {
  const ended = participant.signedAt ?? participant.rejectedAt;
  const reason = participant.rejectReason ?? participant.blockReason;
  return h(
    'li',
    { class: 'participant' },
    h('p', { class: 'name' }, participant.name, ' ', h('span', { class: 'hint' }, `(${say(participant.role === 'APPROVER' ? 'roleApprover' : 'roleSigner')})`)),
    h('p', { class: 'hint' }, participant.email, participant.phone ? ` · ${participant.phone}` : ''),
    h('p', {}, h('span', { class: `badge ${participant.status.toLowerCase()}` }, say(`participant${participant.status}`)), ended ? ` · ${when(ended)}` : ''),
    reason ? h('p', { class: 'hint' }, reason) : null,
  );
}

/** What happened, in words; an action the page has no words for yet (a newer service's) by its name. */
function eventWords(action: string): string {
  const key = `event${action}`;
  return hasProcessWords(key) ? say(key) : action;
}

/** The console's download of one of the process's files (src/console/process-actions/routes.ts): by the session, never a signed URL. */
function fileLink(code: string, file: 'document' | 'signed' | 'certificate', label: string, index = 0): HTMLElement {
  const query = new URLSearchParams({ code, file, document: String(index) });
  return h('li', {}, h('a', { href: `/console/api/process/file?${query.toString()}`, download: '' }, label));
}

/** The documents, each to download as it is signed and, once finished, signed; and the evidence certificate. */
function documentLinks(process: ProcessDetail['process']): HTMLElement {
  return h(
    'ul',
    { class: 'documents' },
    ...process.documents.flatMap((d, index) => [
      d.ready ? fileLink(process.code, 'document', say('downloadDocument', { name: d.name }), index) : h('li', {}, d.name),
      d.signedUrl === undefined ? null : fileLink(process.code, 'signed', say('downloadSigned', { name: d.name }), index),
    ]),
    process.certificateUrl === undefined ? null : fileLink(process.code, 'certificate', say('downloadCertificate')),
  );
}

/** The roadmap as a timeline, oldest first: when, what, whose, by which platform. */
function timeline(detail: ProcessDetail): HTMLElement {
  const names = new Map(detail.roadmap.participants.map((p) => [p.id, p.name]));
  const events = detail.roadmap.activityLog;
  if (events.length === 0) return h('p', { class: 'hint' }, say('noEvents'));
  const item = (event: TimelineEvent) =>
    h(
      'li',
      {},
      h('time', { datetime: event.timestamp }, when(event.timestamp)),
      h('p', { class: 'event' }, eventWords(event.action)),
      h(
        'p',
        { class: 'hint' },
        [names.get(event.participant) ?? say('bySystem'), event.platform, event.by].filter((part) => part !== undefined && part !== '').join(' · '),
      ),
      event.message ? h('p', { class: 'message' }, event.message) : null,
    );
  return h('ol', { class: 'timeline', 'aria-labelledby': 'timeline-heading' }, ...events.map(item));
}

/** One process: its state, participants, what may be done to it (`actions`), documents and timeline. */
export function drawProcess(container: HTMLElement, detail: ProcessDetail, back: () => void, actions: HTMLElement | null = null): void {
  const { process } = detail;
  show(
    container,
    h('button', { type: 'button', class: 'link', onclick: back }, say('back')),
    h('h1', { id: 'process-heading', tabindex: '-1' }, process.name),
    h(
      'dl',
      { class: 'facts' },
      h('dt', {}, say('processCode')),
      h('dd', {}, h('code', {}, process.code)),
      h('dt', {}, say('status')),
      h('dd', {}, statusWords(process.status)),
      h('dt', {}, say('createdLabel')),
      h('dd', {}, when(process.createdAt)),
      process.expiredDate ? h('dt', {}, say('expires')) : null,
      process.expiredDate ? h('dd', {}, when(process.expiredDate)) : null,
    ),
    h('h2', {}, say('participants')),
    h('ul', { class: 'people' }, ...process.signProfile.map(participantLine)),
    actions,
    h('h2', {}, say('documents')),
    documentLinks(process),
    h('h2', { id: 'timeline-heading' }, say('timeline')),
    timeline(detail),
  );
  container.querySelector<HTMLElement>('#process-heading')?.focus();
}
