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
      h('p', { class: 'event' }, h('code', {}, event.action)),
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
    h('ul', { class: 'documents' }, ...process.documents.map((d) => h('li', {}, d.name))),
    h('h2', { id: 'timeline-heading' }, say('timeline')),
    timeline(detail),
  );
  container.querySelector<HTMLElement>('#process-heading')?.focus();
}
