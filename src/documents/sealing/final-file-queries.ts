import type { Db } from '../../db/database.js';
import type { FinalFileRow, ProcessRow } from '../../db/schema.js';

export async function listFinalFiles(db: Db, processId: string): Promise<FinalFileRow[]> {
  return db.selectFrom('final_files').selectAll().where('process_id', '=', processId).execute();
}

/** Records the hash of a final file as stored; a record that already says so is kept as it is. */
export async function recordFinalFile(db: Db, row: FinalFileRow): Promise<void> {
  await db
    .insertInto('final_files')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['process_id', 'file_key']).doUpdateSet({ sha256: row.sha256, created_at: row.created_at }).where('final_files.sha256', '!=', row.sha256),
    )
    .execute();
}

/**
 * The sealed process a final file with this hash belongs to; codes and hashes are global, as
 * /verify is. None when the hash is also a document's as uploaded, or names final files of two
 * processes: earlier versions kept a PDF they could not open as its own "final" file, unsigned, so
 * such a hash is only a blank form anyone may hold, never proof of a seal. A signed file is one
 * process's alone (its signature names the process and the time).
 */
export async function findSealedByFileHash(db: Db, sha256: string): Promise<{ process: ProcessRow; fileKey: string } | undefined> {
  const upload = await db.selectFrom('process_documents').select('id').where('sha256', '=', sha256).executeTakeFirst();
  if (upload) return undefined;
  const files = await db.selectFrom('final_files').select(['process_id', 'file_key']).where('sha256', '=', sha256).limit(2).execute();
  const [file] = files;
  if (!file || files.length > 1) return undefined;
  const process = await db.selectFrom('processes').selectAll().where('id', '=', file.process_id).where('sealed_at', 'is not', null).executeTakeFirst();
  return process ? { process, fileKey: file.file_key } : undefined;
}

export async function findSealedByCode(db: Db, code: string): Promise<ProcessRow | undefined> {
  return db.selectFrom('processes').selectAll().where('code', '=', code).where('sealed_at', 'is not', null).executeTakeFirst();
}
