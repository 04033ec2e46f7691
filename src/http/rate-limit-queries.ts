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

/** Hits to add to a key, whose window (if it starts now) lasts `windowMs`. */
export interface KeyHits {
  key: string;
  hits: number;
  windowMs: number;
}

/**
 * Adds hits to keys in one statement (PostgreSQL): a key's first hits, or the first after its
 * window ended, start a window of `windowMs`; the others add to it. Answers each key's count with
 * these hits in. Concurrent statements on several instances serialize on each key's row, so no
 * hit is lost; callers give the keys sorted, so that two statements lock rows in the same order.
 */
export async function countHits(db: Db, keys: readonly KeyHits[]): Promise<Map<string, WindowCount>> {
  const values = keys.map(({ key, hits, windowMs }) => sql`(${key}, ${hits}::integer, ${nowMs} + ${windowMs}::bigint)`);
  const { rows } = await sql<CountRow & { key: string }>`
    INSERT INTO rate_limit_hits AS r (key, hits, resets_at) VALUES ${sql.join(values)}
    ON CONFLICT (key) DO UPDATE SET
      hits = CASE WHEN r.resets_at <= ${nowMs} THEN excluded.hits ELSE r.hits + excluded.hits END,
      resets_at = CASE WHEN r.resets_at <= ${nowMs} THEN excluded.resets_at ELSE r.resets_at END
    RETURNING key, hits, resets_at - ${nowMs} AS ttl_ms`.execute(db);
  return new Map(rows.map((row) => [row.key, toWindowCount(row)]));
}

/** The hits of a key's current window, without counting one (none once the window has ended). */
export async function readHits(db: Db, key: string): Promise<WindowCount> {
  const { rows } = await sql<CountRow>`
    SELECT hits, resets_at - ${nowMs} AS ttl_ms FROM rate_limit_hits WHERE key = ${key} AND resets_at > ${nowMs}`.execute(db);
  return toWindowCount(rows[0]);
}

/**
 * Forgets the windows that have ended (a recurring job); a hit on a forgotten key starts afresh, as
 * it would anyway. Rows a hit holds are left for the next run: the delete never waits for a lock,
 * so it cannot deadlock with a statement counting several keys.
 */
export async function deleteEndedWindows(db: Db): Promise<void> {
  await sql`DELETE FROM rate_limit_hits WHERE key IN (
    SELECT key FROM rate_limit_hits WHERE resets_at <= ${nowMs} FOR UPDATE SKIP LOCKED)`.execute(db);
}
