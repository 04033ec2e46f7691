import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Final files are written under keys of the run that made them, so readers take each process's
 * final files from the rows its seal recorded: each row says which document it is the final copy
 * of (null: the evidence certificate).
 */
export const finalFilePositions: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('final_files').addColumn('document_position', 'integer').execute();
    await fillFinalFilePositions(db);
  },
};

/**
 * Files recorded before were at `processes/<id>/final/<position>.pdf` and `.../certificate.pdf`:
 * a document's position is the name of its file, after the id and `/final/`.
 */
export async function fillFinalFilePositions<T>(db: Kysely<T>): Promise<void> {
  await sql`UPDATE final_files
    SET document_position = CAST(substr(file_key, 18 + length(process_id), length(file_key) - 21 - length(process_id)) AS integer)
    WHERE document_position IS NULL AND file_key NOT LIKE '%/certificate.pdf'`.execute(db);
}
