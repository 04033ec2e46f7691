import type { Db, SignatureBoxRow } from '../../db/schema.js';

/** Records a process's boxes, in the transaction that creates it. */
export async function recordSignatureBoxes(db: Db, rows: SignatureBoxRow[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('signature_boxes').values(rows).execute();
}

/** Every box of a process, by document, participant and box, in that order. */
export async function listSignatureBoxes(db: Db, processId: string): Promise<SignatureBoxRow[]> {
  return db
    .selectFrom('signature_boxes')
    .selectAll()
    .where('process_id', '=', processId)
    .orderBy('document_position')
    .orderBy('participant_row_id')
    .orderBy('box_index')
    .execute();
}
