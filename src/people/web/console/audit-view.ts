import type { AuditView as AuditEntry } from '../../../console/audit-contract.js';
import { hasAuditWords } from '../../words-console-audit.js';
import { alertLine, h, show } from '../dom.js';
import { auditLog } from './admin-api.js';
import { refusalTo, type ViewOptions } from './view-refusal.js';
import { say, when } from './words.js';

/** An entry's detail as one line: whose data a view was of and what, then the rest. */
function detailLine(detail: Record<string, unknown> | undefined): string {
  if (detail === undefined) return '';
  return Object.entries(detail)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' · ');
}

/** What was done, in words; an action the page has no words for yet (a newer service's) by its name. */
function actionWords(action: string): string {
  const key = `audit${action}`;
  return hasAuditWords(key) ? say(key) : action;
}

function entryItem(entry: AuditEntry): HTMLElement {
  return h(
    'li',
    {},
    h('time', { datetime: entry.at }, when(entry.at)),
    h('p', { class: 'event' }, actionWords(entry.action), ' · ', entry.email, entry.address ? ` · ${entry.address}` : ''),
    entry.detail ? h('p', { class: 'hint' }, detailLine(entry.detail)) : null,
  );
}

/**
 * The organization's console audit log, newest first, page by page, with its CSV download: an
 * admin's page, each action in words. Views of identity data (PHOTO_VIEWED, IDENTITY_VIEWED) show
 * whose and what.
 */
export class AuditView {
  private readonly alert = alertLine();

  constructor(private readonly options: ViewOptions) {}

  async draw(container: HTMLElement): Promise<void> {
    const list = h('ol', { class: 'timeline', 'aria-labelledby': 'audit-heading' });
    const more: HTMLButtonElement = h('button', { type: 'button', class: 'secondary', hidden: true }, say('auditMore'));
    let cursor: string | null = null;
    const load = async () => {
      try {
        const page = await auditLog(cursor);
        list.append(...page.data.map(entryItem));
        cursor = page.next;
        more.hidden = cursor === null;
      } catch (error) {
        refusalTo(this.alert, this.options, error);
      }
    };
    more.addEventListener('click', () => void load());
    show(
      container,
      h('h1', { id: 'audit-heading', tabindex: '-1' }, say('auditHeading')),
      h('p', {}, say('auditIntro')),
      h('p', {}, h('a', { href: '/console/api/audit/csv', download: '' }, say('auditDownload'))),
      this.alert.element,
      list,
      more,
    );
    await load();
  }
}
