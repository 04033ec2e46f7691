import type { Db } from '../../db/database.js';
import type { ProcessRow } from '../../db/schema.js';
import { newObjectId } from '../../ids.js';

/**
 * Removes what an overwrite replaces (docs/real-service.md §3.10): documents, participants, their
 * signature boxes, files asked and WhatsApp conversations, awaited placements and readers. The process row,
 * its audit trail and its webhooks stay. Answers the keys of the documents' files, which go once
 * the overwrite has committed. Only for a process nobody has signed or given photos for (edit
 * mode's rule), so no signature, photo or identity attempt is left without its participant.
 */
export async function clearProcessContent(db: Db, processId: string): Promise<string[]> {
  const documents = await db.selectFrom('process_documents').select('file_key').where('process_id', '=', processId).execute();
  const participants = db.selectFrom('participants').select('id').where('process_id', '=', processId);
  await db.deleteFrom('signature_boxes').where('process_id', '=', processId).execute();
  await db.deleteFrom('chat_flows').where('participant_row_id', 'in', participants).execute();
  await db.deleteFrom('awaited_placements').where('process_id', '=', processId).execute();
  await db.deleteFrom('process_readers').where('process_id', '=', processId).execute();
  // Files asked, none given: a process a participant attached a file to is not editable.
  await db.deleteFrom('participant_attachments').where('process_id', '=', processId).execute();
  await db.deleteFrom('participants').where('process_id', '=', processId).execute();
  await db.deleteFrom('process_documents').where('process_id', '=', processId).execute();
  return documents.flatMap((d) => (d.file_key === null ? [] : [d.file_key]));
}

/** Writes the overwritten process's fields; its id, code, organization and creation date stay. */
export async function replaceProcessFields(db: Db, row: ProcessRow): Promise<void> {
  const { id, code, organization_id, created_at, ...fields } = row;
  await db.updateTable('processes').set(fields).where('id', '=', id).execute();
}

/** The creator's folder of this path, made the first time it is named (a concurrent creation may make it first). */
export async function ensureFolder(db: Db, options: { organizationId: string; owner: string; path: string; now: string }): Promise<string> {
  const { organizationId, owner, path, now } = options;
  await db
    .insertInto('folders')
    .values({ id: newObjectId(new Date(now)), organization_id: organizationId, owner_email: owner, path, created_at: now })
    .onConflict((oc) => oc.columns(['organization_id', 'owner_email', 'path']).doNothing())
    .execute();
  const folder = await db
    .selectFrom('folders')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('owner_email', '=', owner)
    .where('path', '=', path)
    .executeTakeFirstOrThrow();
  return folder.id;
}

export async function findFolderPath(db: Db, id: string): Promise<string | undefined> {
  return (await db.selectFrom('folders').select('path').where('id', '=', id).executeTakeFirst())?.path;
}
