import type { ConsoleWordKey } from '../../words-console.js';
import { alertLine, h, show, statusLine } from '../dom.js';
import { RefusedError } from './api.js';
import { decide, type ReviewDecision, type ReviewItem, reviewPhotoPath, reviewQueue } from './review-api.js';
import { say, when } from './words.js';

const REASONS: Readonly<Record<string, ConsoleWordKey>> = {
  FACE_MISMATCH: 'reasonFACE_MISMATCH',
  DOCUMENT_NUMBER_MISMATCH: 'reasonDOCUMENT_NUMBER_MISMATCH',
  LIVENESS_SUSPECT: 'reasonLIVENESS_SUSPECT',
  DOCUMENT_FAKE: 'reasonDOCUMENT_FAKE',
  MANUAL_REVIEW_REQUIRED: 'reasonMANUAL_REVIEW_REQUIRED',
  OTP_CODE_INVALID: 'reasonOTP_CODE_INVALID',
};

/** A reason in words, or its code when the page has none for it. */
function reasonWords(reason: string): string {
  const key = REASONS[reason];
  return key === undefined ? reason : say(key);
}

function numberWords(item: ReviewItem): string {
  if (item.numberRead === undefined) return say('numberUnread');
  return `${item.numberRead} (${say(item.numberCheck === 'MATCH' ? 'numberMATCH' : 'numberMISMATCH')})`;
}

function facts(item: ReviewItem): HTMLElement {
  const fact = (term: ConsoleWordKey, value: string) => [h('dt', {}, say(term)), h('dd', {}, value)];
  return h(
    'dl',
    { class: 'facts' },
    ...fact('reasonLabel', reasonWords(item.reason)),
    ...(item.similarity !== undefined && item.band !== undefined
      ? fact('similarityLabel', say('similarityValue', { band: say(`band${item.band}`), value: item.similarity }))
      : []),
    ...(item.numberDeclared === undefined ? [] : fact('numberDeclared', item.numberDeclared)),
    ...(item.numberCheck === undefined ? [] : fact('numberRead', numberWords(item))),
    ...fact('failures', String(item.failures)),
  );
}

/** The ID photos and the face side by side, as the session's own requests fetch them. */
function photos(item: ReviewItem): HTMLElement {
  if (item.photos.length === 0) return h('p', { class: 'hint' }, say('noPhotos'));
  return h(
    'div',
    { class: 'photos' },
    ...item.photos.map((photo) =>
      h(
        'figure',
        {},
        h('img', { src: reviewPhotoPath(item, photo), alt: `${say(`photo${photo}`)}: ${item.name}`, loading: 'lazy' }),
        h('figcaption', {}, say(`photo${photo}`)),
      ),
    ),
  );
}

function attempts(item: ReviewItem): HTMLElement | null {
  if (item.attempts.length === 0) return null;
  return h(
    'details',
    {},
    h('summary', {}, `${say('attempts')} (${item.attempts.length})`),
    h(
      'ol',
      { class: 'attempts' },
      ...item.attempts.map((attempt) =>
        h(
          'li',
          {},
          h('time', { datetime: attempt.date }, when(attempt.date)),
          ` · ${say(attempt.successful ? 'attemptAccepted' : 'attemptRefused')}`,
          attempt.similarity === undefined ? '' : ` · ${say('similarityLabel')} ${attempt.similarity}`,
          attempt.reasons.length === 0 ? '' : ` · ${attempt.reasons.join(', ')}`,
        ),
      ),
    ),
  );
}

/**
 * The review queue: each blocked signer or face validation with its photos side by side, what was
 * read and declared, why it waits; a reason, then one click to approve, reject or reset.
 */
export class ReviewView {
  private readonly status = statusLine();

  constructor(private readonly options: { refused(error: unknown): void }) {}

  async draw(container: HTMLElement, focus: boolean): Promise<void> {
    let items: ReviewItem[];
    try {
      items = await reviewQueue();
    } catch (error) {
      this.options.refused(error);
      return;
    }
    show(
      container,
      h('h1', { id: 'review-heading', tabindex: '-1' }, say('reviewHeading')),
      h('p', { class: 'hint' }, say('reviewIntro')),
      this.status.element,
      items.length === 0 ? h('p', {}, say('reviewEmpty')) : h('p', {}, say('reviewCount', { count: items.length })),
      h('ul', { class: 'review', 'aria-labelledby': 'review-heading' }, ...items.map((item, index) => this.card(container, item, index))),
    );
    if (focus) container.querySelector<HTMLElement>('#review-heading')?.focus();
  }

  private card(container: HTMLElement, item: ReviewItem, index: number): HTMLElement {
    const alert = alertLine();
    const reasonId = `reason-${index}`;
    const reason = h('textarea', { id: reasonId, name: 'reason', rows: 2, maxlength: 1000, required: true });
    const buttons = item.decisions.map((decision) =>
      h('button', { type: 'button', class: decision === 'approve' ? 'primary' : 'secondary', onclick: () => void decideOne(decision) }, say(decision)),
    );
    const decideOne = async (decision: ReviewDecision) => {
      if (reason.value.trim() === '') {
        alert.say(say('reasonRequired'));
        reason.focus();
        return;
      }
      for (const button of buttons) button.disabled = true;
      try {
        await decide(item, decision, reason.value.trim());
        this.status.say(say('decided', { name: item.name }));
        await this.draw(container, true);
      } catch (error) {
        for (const button of buttons) button.disabled = false;
        if (error instanceof RefusedError && error.refusal === 'changed') alert.say(say('changedMeanwhile'));
        else this.options.refused(error);
      }
    };
    const headingId = `review-${index}`;
    return h(
      'li',
      {},
      h(
        'article',
        { class: 'review-item', 'aria-labelledby': headingId },
        h('h2', { id: headingId }, item.name),
        h(
          'p',
          { class: 'hint' },
          item.process ? say('kindSigner', { process: item.process.name }) : say('kindValidation'),
          ' · ',
          say('blockedAt', { date: when(item.blockedAt) }),
        ),
        facts(item),
        photos(item),
        attempts(item),
        h('label', { for: reasonId }, say('decisionReason')),
        reason,
        alert.element,
        h('div', { class: 'actions' }, ...buttons),
      ),
    );
  }
}
