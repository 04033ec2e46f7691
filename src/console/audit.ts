import type { Clock } from '../clock.js';
import { decodeCursor, page } from '../db/cursor.js';
import { parseJson } from '../db/json-column.js';
import type { Db } from '../db/schema.js';
import type { Alongside } from '../db/transaction.js';
import { newObjectId } from '../ids.js';
import type { AuditView, ConsoleAction } from './audit-contract.js';
import * as q from './queries.js';
import type { ConsoleUser } from './sessions.js';

export interface AuditEntry {
  organizationId: string;
  userId: string | null;
  email: string;
  action: ConsoleAction;
  detail?: Record<string, string | number>;
  /** The client's address, as the service sees it (TRUST_PROXY says whose X-Forwarded-For counts). */
  address: string;
}

function auditRow(now: Date, entry: AuditEntry): q.ConsoleAuditRow {
  return {
    id: newObjectId(now),
    organization_id: entry.organizationId,
    user_id: entry.userId,
    email: entry.email,
    action: entry.action,
    detail: entry.detail === undefined ? null : JSON.stringify(entry.detail),
    address: entry.address.slice(0, 64),
    created_at: now.toISOString(),
  };
}

export async function recordAudit(db: Db, clock: Clock, entry: AuditEntry): Promise<void> {
  await q.insertAudit(db, auditRow(clock.now(), entry));
}

/** Several entries at one instant, in one statement: a page that shows many people's data records each. */
export async function recordAudits(db: Db, clock: Clock, entries: readonly AuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const now = clock.now();
  await q.insertAudit(
    db,
    entries.map((entry) => auditRow(now, entry)),
  );
}

/** What a signed-in user did, recorded with who they are. */
export async function recordUserAction(
  db: Db,
  clock: Clock,
  options: { user: ConsoleUser; action: ConsoleAction; address: string; detail?: Record<string, string | number> },
): Promise<void> {
  const { user } = options;
  await recordAudit(db, clock, {
    organizationId: user.organizationId,
    userId: user.userId,
    email: user.email,
    action: options.action,
    address: options.address,
    ...(options.detail === undefined ? {} : { detail: options.detail }),
  });
}

/** What a signed-in user did, recorded in the transaction of the API operation that does it (its Alongside). */
export function recordedAlongside(
  clock: Clock,
  options: { user: ConsoleUser; action: ConsoleAction; address: string; detail: Record<string, string | number> },
): Alongside {
  return (trx) => recordUserAction(trx, clock, options);
}

/** The organization's audit log, newest first (`{data, next}`). */
export async function readAudit(
  db: Db,
  options: { organizationId: string; limit: number; cursor?: string },
): Promise<{ data: AuditView[]; next: string | null }> {
  const after = options.cursor === undefined ? undefined : decodeCursor(options.cursor);
  const rows = await q.listAudit(db, options.organizationId, { limit: options.limit + 1, ...(after ? { after } : {}) });
  const { rows: kept, next } = page(rows, options.limit);
  return {
    data: kept.map((row) => {
      const detail = parseJson<Record<string, unknown>>(row.detail);
      return {
        id: row.id,
        at: row.created_at,
        action: row.action,
        email: row.email,
        ...(row.address === null ? {} : { address: row.address }),
        ...(detail === undefined ? {} : { detail }),
      };
    }),
    next,
  };
}
