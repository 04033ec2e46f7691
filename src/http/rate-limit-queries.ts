import { type Db, sql } from '../db/database.js';

/** Hits counted in a key's current window, and the milliseconds until it ends. */
export interface WindowCount {
  hits: number;
  ttlMs: number;
}

/** The database's clock, in milliseconds: every instance counts windows on the same one. */
const nowMs = sql<string>`(extract(epoch from statement_timestamp()) * 1000)::bigint`;

interface CountRow {
  hits: number;
  ttl_ms: string | number;
}

const toWindowCount = (row: CountRow | undefined): WindowCount =>
  row === undefined ? { hits: 0, ttlMs: 0 } : { hits: Number(row.hits), ttlMs: Math.max(0, Number(row.ttl_ms)) };

/**
 * Counts one hit in one statement (PostgreSQL): the first hit of a key, or the first after its
 * window ended, starts a window of `windowMs`; the others add one to it. Concurrent hits on
 * several instances serialize on the key's row, so none is lost.
 */
export async function countHit(db: Db, key: string, windowMs: number): Promise<WindowCount> {
  const { rows } = await sql<CountRow>`
    INSERT INTO rate_limit_hits AS r (key, hits, resets_at) VALUES (${key}, 1, ${nowMs} + ${windowMs})
    ON CONFLICT (key) DO UPDATE SET
      hits = CASE WHEN r.resets_at <= ${nowMs} THEN 1 ELSE r.hits + 1 END,
      resets_at = CASE WHEN r.resets_at <= ${nowMs} THEN excluded.resets_at ELSE r.resets_at END
    RETURNING hits, resets_at - ${nowMs} AS ttl_ms`.execute(db);
  return toWindowCount(rows[0]);
}

/** The hits of a key's current window, without counting one (none once the window has ended). */
export async function readHits(db: Db, key: string): Promise<WindowCount> {
  const { rows } = await sql<CountRow>`
    SELECT hits, resets_at - ${nowMs} AS ttl_ms FROM rate_limit_hits WHERE key = ${key} AND resets_at > ${nowMs}`.execute(db);
  return toWindowCount(rows[0]);
}

/** Forgets the windows that have ended (a recurring job); a hit on a forgotten key starts afresh, as it would anyway. */
export async function deleteEndedWindows(db: Db): Promise<void> {
  await sql`DELETE FROM rate_limit_hits WHERE resets_at <= ${nowMs}`.execute(db);
}
