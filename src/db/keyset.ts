import { type Expression, type SqlBool, sql } from 'kysely';
import type { CursorPosition } from './cursor.js';

/**
 * The rows after `after` in a newest-first list ordered by (created_at, id): the keyset condition
 * every paged list uses, so a deep page costs what the first one does. It names the columns of the
 * query's own table; every paged table has both.
 */
export function olderThan(after: CursorPosition): Expression<SqlBool> {
  return sql<SqlBool>`(created_at < ${after.created_at} or (created_at = ${after.created_at} and id < ${after.id}))`;
}
