import type { Db } from '../db/schema.js';
import { readAudit } from './audit.js';
import type { AuditView } from './audit-contract.js';

/** Rows read from the database at a time while the export is written. */
const EXPORT_PAGE = 500;

const COLUMNS = ['at', 'action', 'email', 'address', 'process', 'participant', 'name', 'photo', 'field', 'detail'] as const;

/** The detail's keys that have a column of their own; the rest stay in `detail`, as JSON. */
const OWN_COLUMNS: ReadonlySet<string> = new Set(['process', 'participant', 'name', 'photo', 'field']);

/**
 * One CSV cell, quoted with its quotes doubled (RFC 4180). A spreadsheet runs a cell that starts
 * with = + - @, a tab or a carriage return as a formula, and the log holds what people typed (a
 * participant's name, a reason, an e-mail): such a cell is prefixed with an apostrophe, which shows
 * the text as text (OWASP's advice for CSV injection).
 */
export function csvCell(value: string): string {
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${text.replaceAll('"', '""')}"`;
}

function detailText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function csvLine(entry: AuditView): string {
  const detail = entry.detail ?? {};
  const rest = Object.fromEntries(Object.entries(detail).filter(([key]) => !OWN_COLUMNS.has(key)));
  const own = (key: string) => (detail[key] === undefined ? '' : detailText(detail[key]));
  const cells: Record<(typeof COLUMNS)[number], string> = {
    at: entry.at,
    action: entry.action,
    email: entry.email,
    address: entry.address ?? '',
    process: own('process'),
    participant: own('participant'),
    name: own('name'),
    photo: own('photo'),
    field: own('field'),
    detail: Object.keys(rest).length === 0 ? '' : JSON.stringify(rest),
  };
  return `${COLUMNS.map((column) => csvCell(cells[column])).join(',')}\r\n`;
}

/**
 * The organization's whole console audit log as CSV, newest first, a header line then one line
 * per entry, read page by page so that a long log is never held in memory at once.
 */
export async function* auditCsv(db: Db, organizationId: string): AsyncGenerator<string> {
  yield `${COLUMNS.join(',')}\r\n`;
  let cursor: string | null = null;
  do {
    const page: { data: AuditView[]; next: string | null } = await readAudit(db, {
      organizationId,
      limit: EXPORT_PAGE,
      ...(cursor === null ? {} : { cursor }),
    });
    for (const entry of page.data) yield csvLine(entry);
    cursor = page.next;
  } while (cursor !== null);
}
