import type { Db } from '../../db/database.js';
import type { ReaderKind, ReaderRow } from '../../db/schema.js';

export async function insertReaders(db: Db, rows: ReaderRow[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('process_readers').values(rows).execute();
}

/** The process's readers and CC addresses (or those of one kind), in the order they were given. */
export async function listReaders(db: Db, processId: string, kind?: ReaderKind): Promise<ReaderRow[]> {
  let query = db.selectFrom('process_readers').selectAll().where('process_id', '=', processId);
  if (kind) query = query.where('kind', '=', kind);
  return query.orderBy('position').execute();
}

export async function hasReaders(db: Db, processId: string): Promise<boolean> {
  const row = await db.selectFrom('process_readers').select('id').where('process_id', '=', processId).where('kind', '=', 'READER').limit(1).executeTakeFirst();
  return row !== undefined;
}

export async function findReaderByToken(db: Db, token: string): Promise<ReaderRow | undefined> {
  return db.selectFrom('process_readers').selectAll().where('link_token', '=', token).executeTakeFirst();
}
