import type { Db } from '../db/database.js';
import { reusableQuery } from '../db/reusable-query.js';
import type { VerifaceRow, VerifaceStageRow } from '../db/schema.js';

// Every face validation's creation inserts these: compiled once (src/db/reusable-query.ts).
const verifaceInsert = reusableQuery((db, row: VerifaceRow) => db.insertInto('veriface_processes').values(row));
const stageInsert = reusableQuery((db, row: VerifaceStageRow) => db.insertInto('veriface_stages').values(row));

export async function insertVeriface(db: Db, row: VerifaceRow): Promise<void> {
  await verifaceInsert(db, row);
}

export async function insertStage(db: Db, row: VerifaceStageRow): Promise<void> {
  await stageInsert(db, row);
}

export async function findVerifaceByCode(db: Db, organizationId: string, code: string): Promise<VerifaceRow | undefined> {
  return db.selectFrom('veriface_processes').selectAll().where('code', '=', code).where('organization_id', '=', organizationId).executeTakeFirst();
}

export async function listStages(db: Db, processId: string): Promise<VerifaceStageRow[]> {
  return db.selectFrom('veriface_stages').selectAll().where('process_id', '=', processId).orderBy('at').orderBy('id').execute();
}

export async function findVerifaceByToken(db: Db, token: string): Promise<VerifaceRow | undefined> {
  return db.selectFrom('veriface_processes').selectAll().where('link_token', '=', token).executeTakeFirst();
}

export type VerifacePatch = Partial<Pick<VerifaceRow, 'status' | 'document_front' | 'document_back' | 'face' | 'similarity' | 'result_reason'>>;

/** The photos a face validation names. */
export type VerifacePhotoKeys = Pick<VerifaceRow, 'document_front' | 'document_back' | 'face'>;

/**
 * Applies `patch` to a process still in progress; with `photos`, only while it still names those
 * photos (a decision on photos a retake replaced meanwhile is not taken).
 */
export async function updateInProgress(db: Db, id: string, patch: VerifacePatch & { updated_at: string }, photos?: VerifacePhotoKeys): Promise<boolean> {
  let update = db.updateTable('veriface_processes').set(patch).where('id', '=', id).where('status', '=', 'INPROGRESS');
  if (photos) {
    update = update
      .where('document_front', 'is not distinct from', photos.document_front)
      .where('document_back', 'is not distinct from', photos.document_back)
      .where('face', 'is not distinct from', photos.face);
  }
  const result = await update.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Records the decision on a BLOCKED process; answers false when it is no longer blocked (decided meanwhile). */
export async function decideBlocked(
  db: Db,
  id: string,
  decision: Pick<VerifaceRow, 'status' | 'email_validated' | 'review_reason' | 'updated_at'>,
): Promise<boolean> {
  const result = await db.updateTable('veriface_processes').set(decision).where('id', '=', id).where('status', '=', 'BLOCKED').executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function findExpired(db: Db, now: string, limit: number): Promise<VerifaceRow[]> {
  return db
    .selectFrom('veriface_processes')
    .selectAll()
    .where('status', '=', 'INPROGRESS')
    .where('expires_at', '<=', now)
    .orderBy('expires_at')
    .limit(limit)
    .execute();
}
