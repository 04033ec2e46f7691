import { alertLine, h, statusLine } from '../dom.js';
import { type ProcessDetail, RefusedError } from './api.js';
import { cancelProcess, reactivate, remind } from './review-api.js';
import { say } from './words.js';

/** What the process page may do now: remind whose turn it is, cancel with a reason, reactivate, review a block. */
export function processActions(
  detail: ProcessDetail,
  options: { notice?: string; reload(notice: string): void; review?: () => void; refused(error: unknown): void },
): HTMLElement | null {
  const { process } = detail;
  const status = statusLine();
  // What the last action did, said on the process as it is now.
  if (options.notice) status.say(options.notice);
  const alert = alertLine();
  const act = async (button: HTMLButtonElement, action: () => Promise<string>) => {
    button.disabled = true;
    try {
      options.reload(await action());
    } catch (error) {
      button.disabled = false;
      if (error instanceof RefusedError && error.refusal === 'too-soon') alert.say(say('remindTooSoon'));
      else if (error instanceof RefusedError && error.refusal === 'changed') alert.say(say('changedMeanwhile'));
      else options.refused(error);
    }
  };
  const parts: HTMLElement[] = [];
  if (process.status === 'CREATED') {
    for (const participant of process.signProfile) {
      if (participant.status === 'NOTIFICATION') {
        const button: HTMLButtonElement = h('button', { type: 'button', class: 'secondary' }, say('remind', { name: participant.name }));
        button.addEventListener('click', () =>
          act(button, async () => {
            await remind(`${process.code}${participant.id}`);
            return say('reminded', { name: participant.name });
          }),
        );
        parts.push(button);
      }
      // Only to whom the review queue opens (reviewers and admins): anyone else's would be refused.
      const { review } = options;
      if (participant.status === 'BLOCK' && review) parts.push(h('button', { type: 'button', class: 'secondary', onclick: review }, say('reviewBlocked')));
    }
    const reason = h('textarea', { id: 'cancel-reason', name: 'reason', rows: 2, maxlength: 1000, required: true });
    const cancel: HTMLButtonElement = h('button', { type: 'button', class: 'danger' }, say('cancelProcess'));
    cancel.addEventListener('click', () => {
      if (reason.value.trim() === '') {
        alert.say(say('reasonRequired'));
        reason.focus();
        return;
      }
      void act(cancel, async () => {
        await cancelProcess(process.code, reason.value.trim());
        return say('cancelled');
      });
    });
    parts.push(h('div', { class: 'cancel' }, h('label', { for: 'cancel-reason' }, say('cancelReason')), reason, cancel));
  }
  if (process.status === 'REJECTED' || process.status === 'EXPIRED') {
    const button: HTMLButtonElement = h('button', { type: 'button', class: 'secondary' }, say('reactivate'));
    button.addEventListener('click', () => act(button, async () => say('reactivated', { count: (await reactivate(process.code)).notifications })));
    parts.push(button);
  }
  if (parts.length === 0 && !options.notice) return null;
  return h(
    'section',
    { class: 'process-actions', 'aria-labelledby': 'actions-heading' },
    h('h2', { id: 'actions-heading' }, say('actions')),
    status.element,
    alert.element,
    ...parts,
  );
}
