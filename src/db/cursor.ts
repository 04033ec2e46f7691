import { invalid } from '../domain-error.js';

/** A position in a newest-first list: the last row of the previous page. */
export interface CursorPosition {
  created_at: string;
  id: string;
}

export function encodeCursor(row: CursorPosition): string {
  return Buffer.from(`${row.created_at}|${row.id}`).toString('base64url');
}

/** The shape of every stored date (`toISOString()` of a year 0000 to 9999), so that it compares with them as text. */
function isStoredInstant(text: string): boolean {
  const time = Date.parse(text);
  return text.length === 24 && !Number.isNaN(time) && new Date(time).toISOString() === text;
}

export function decodeCursor(cursor: string): CursorPosition {
  const [createdAt, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (!createdAt || !id || !/^[0-9a-f]{24}$/.test(id) || !isStoredInstant(createdAt)) {
    throw invalid('"cursor" is invalid');
  }
  return { created_at: createdAt, id };
}

/** Queries fetch one row more than the page; its presence says another page follows. */
export function page<R extends CursorPosition>(rows: R[], limit: number): { rows: R[]; next: string | null } {
  const kept = rows.slice(0, limit);
  const last = kept.at(-1);
  return { rows: kept, next: rows.length > limit && last ? encodeCursor(last) : null };
}
