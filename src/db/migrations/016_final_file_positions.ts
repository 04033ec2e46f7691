import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Final files are written under keys of the run that made them, so readers take each process's
 * final files from the rows its seal recorded: each row says which document it is the final copy
 * of (null: the evidence certificate). Files recorded before were at
 * `processes/<id>/final/<position>.pdf` and `.../certificate.pdf`; their positions come from the key.
 */
export const finalFilePositions: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('final_files').addColumn('document_position', 'integer').execute();
    // `processes/<id>/final/<position>.pdf`: the position starts after the id and `/final/`.
    await sql`UPDATE final_files
      SET document_position = CAST(substr(file_key, 18 + length(process_id), length(file_key) - 21 - length(process_id)) AS integer)
      WHERE file_key NOT LIKE '%/certificate.pdf'`.execute(db);
  },
};
