import type { Db } from '../../db/database.js';
import type { AttachmentRow } from '../../db/schema.js';

export async function insertAttachments(db: Db, rows: AttachmentRow[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('participant_attachments').values(rows).execute();
}

/** Every file a process asks, by participant then in the order asked. */
export async function listProcessAttachments(db: Db, processId: string): Promise<AttachmentRow[]> {
  return db.selectFrom('participant_attachments').selectAll().where('process_id', '=', processId).orderBy('participant_row_id').orderBy('position').execute();
}

/** The files asked of one participant (their place), in the order asked. */
export async function listPlaceAttachments(db: Db, participantRowId: string): Promise<AttachmentRow[]> {
  return db.selectFrom('participant_attachments').selectAll().where('participant_row_id', '=', participantRowId).orderBy('position').execute();
}

export type GivenFile = Pick<AttachmentRow, 'file_key' | 'sha256' | 'content_type' | 'size' | 'uploaded_at'>;

/** Keeps the file given for one asked file, in place of any given before. */
export async function recordGivenFile(db: Db, id: string, file: GivenFile): Promise<void> {
  await db
    .updateTable('participant_attachments')
    .set({ ...file, review: null, review_reason: null, reviewed_at: null })
    .where('id', '=', id)
    .execute();
}

export type AttachmentReview = Pick<AttachmentRow, 'review' | 'review_reason' | 'reviewed_at'>;

/** Keeps the creator's review of given files. */
export async function recordReview(db: Db, ids: string[], review: AttachmentReview): Promise<void> {
  if (ids.length > 0) await db.updateTable('participant_attachments').set(review).where('id', 'in', ids).execute();
}

/**
 * A process without a document only collects files: it ends when its creator has approved every
 * file given. True while it has no document and some given file is not approved.
 */
export async function awaitingApproval(db: Db, processId: string): Promise<boolean> {
  const document = await db.selectFrom('process_documents').select('id').where('process_id', '=', processId).limit(1).executeTakeFirst();
  if (document) return false;
  const unapproved = await db
    .selectFrom('participant_attachments')
    .select('id')
    .where('process_id', '=', processId)
    .where('file_key', 'is not', null)
    .where((eb) => eb.or([eb('review', 'is', null), eb('review', '!=', 'approved')]))
    .limit(1)
    .executeTakeFirst();
  return unapproved !== undefined;
}
