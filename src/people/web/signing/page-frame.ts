import type { ReadingPage, SigningPage } from '../../contract.js';
import { documentEntry } from '../document-viewer.js';
import { h } from '../dom.js';
import { type MessageKey, t } from '../i18n.js';

type ParticipantStatus = SigningPage['participant']['status'];

const STATUS_WORDS: Record<ParticipantStatus, MessageKey> = {
  PENDING: 'statusPending',
  NOTIFICATION: 'statusNotification',
  FINISH: 'statusFinish',
  REJECT: 'statusReject',
  BLOCK: 'statusBlock',
};

/** Once a process is closed unfinished, nobody "can sign now" or "waits for a turn" any more. */
const CLOSED: ReadonlySet<SigningPage['state'] | ReadingPage['state']> = new Set(['rejected', 'expired', 'cancelled', 'editing']);

/** What the signer's page and the reader's page both show. */
type Page = SigningPage | ReadingPage;

/** A process that only collects files (POST /package/upload without a document): nobody signs anything. */
export function collectsFilesOnly(page: Page): boolean {
  return page.documents.length === 0;
}

function statusWord(page: Page, status: ParticipantStatus): MessageKey {
  if (CLOSED.has(page.state) && (status === 'PENDING' || status === 'NOTIFICATION')) return 'statusNotSigned';
  return status === 'NOTIFICATION' && collectsFilesOnly(page) ? 'statusNotificationFiles' : STATUS_WORDS[status];
}

function roleWord(page: Page, role: Page['participants'][number]['role']): MessageKey {
  if (role !== 'SIGNER') return 'roleApprover';
  return collectsFilesOnly(page) ? 'roleGivesFiles' : 'roleSigner';
}

/** Who sent the process, its name and message. */
export function pageHeader(page: Page): HTMLElement {
  return h(
    'header',
    {},
    page.process.organization ? h('p', { class: 'sender' }, t('sentBy', { organization: page.process.organization })) : '',
    h('h1', {}, page.process.name),
    page.process.message ? h('p', { class: 'message' }, page.process.message) : '',
  );
}

/**
 * The documents to read (once sealed, the signed files and the certificate). While it is the
 * person's turn (`reading`) each is shown at once with their boxes, and its first showing is reported.
 * None until then in a process that only collects files (POST /package/upload): no section at all.
 */
export function documentsSection(page: Page, reading?: { onOpened(position: number): void }): HTMLElement | '' {
  if (page.documents.length === 0) return '';
  const entry = (document: Page['documents'][number]) => {
    const { position } = document;
    if (!reading || position === undefined) return documentEntry(document);
    const boxes = 'boxes' in page ? (page.boxes ?? []) : [];
    return documentEntry(document, {
      open: true,
      boxes: boxes.filter((box) => box.document === position),
      onOpened: () => reading.onOpened(position),
    });
  };
  return h(
    'section',
    { 'aria-labelledby': 'documents-title', class: reading ? 'reading' : undefined },
    h('h2', { id: 'documents-title' }, t('documents')),
    h('ul', { class: 'documents' }, ...page.documents.map(entry)),
  );
}

/** Everyone taking part, in order, with their role and where they are. */
export function peopleSection(page: Page): HTMLElement {
  return h(
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
          h('span', { class: 'role' }, t(roleWord(page, p.role))),
          h('span', { class: 'state' }, t(statusWord(page, p.status))),
        ),
      ),
    ),
  );
}
