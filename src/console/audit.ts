import type { Clock } from '../clock.js';
import { parseJson } from '../db/json-column.js';
import type { Db } from '../db/schema.js';
import { decodeCursor, page } from '../http/cursor.js';
import { newObjectId } from '../ids.js';
import * as q from './queries.js';

/**
 * What the console's audit log records: each sign-in asked for, made or refused, each sign-out, and
 * each refusal of an admin's route to a member. The decisions the console will take (reviews,
 * resends, keys) record themselves here too, with who took them.
 */
export type ConsoleAction = 'SIGN_IN_REQUESTED' | 'SIGN_IN' | 'SIGN_IN_REFUSED' | 'SIGN_OUT' | 'ADMIN_REQUIRED';

export interface AuditEntry {
  organizationId: string;
  userId: string | null;
  email: string;
  action: ConsoleAction;
  detail?: Record<string, string | number>;
  /** The client's address, as the service sees it (TRUST_PROXY says whose X-Forwarded-For counts). */
  address: string;
}

export async function recordAudit(db: Db, clock: Clock, entry: AuditEntry): Promise<void> {
  const now = clock.now();
  await q.insertAudit(db, {
    id: newObjectId(now),
    organization_id: entry.organizationId,
    user_id: entry.userId,
    email: entry.email,
    action: entry.action,
    detail: entry.detail === undefined ? null : JSON.stringify(entry.detail),
    address: entry.address.slice(0, 64),
    created_at: now.toISOString(),
  });
}

export interface AuditView {
  id: string;
  at: string;
  action: string;
  email: string;
  address?: string;
  detail?: Record<string, unknown>;
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
