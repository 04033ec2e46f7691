import type { Db } from '../../db/database.js';
import type { FinalFileRow, ProcessRow } from '../../db/schema.js';

export async function listFinalFiles(db: Db, processId: string): Promise<FinalFileRow[]> {
  return db.selectFrom('final_files').selectAll().where('process_id', '=', processId).execute();
}

/** Where the final files of a sealed process are, as its seal recorded them: `documents[position]`. */
export interface FinalFileKeys {
  certificate: string;
  documents: string[];
}

/**
 * The keys a process's seal recorded, the only final files ever handed out or certified; undefined
 * while none are recorded (not sealed yet). Files of runs that did not record are never read.
 */
export async function finalFileKeys(db: Db, processId: string): Promise<FinalFileKeys | undefined> {
  const rows = await listFinalFiles(db, processId);
  const certificate = rows.find((row) => row.document_position === null)?.file_key;
  if (certificate === undefined) return undefined;
  const documents: string[] = [];
  for (const row of rows) if (row.document_position !== null) documents[row.document_position] = row.file_key;
  return { certificate, documents };
}

/** Records the final files of a seal, in the transaction that marks the process sealed. */
export async function recordFinalFiles(db: Db, rows: FinalFileRow[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('final_files').values(rows).execute();
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
