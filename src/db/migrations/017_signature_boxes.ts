import type { Kysely, Migration } from 'kysely';

/**
 * Where a participant's signature (or approval stamp) goes on the pages of an uploaded PDF: one row
 * per box, in PDF points from the page's bottom-left corner, as found when the process was created
 * (coordinates, tags or a PDF template's stored positions). A process without rows keeps its
 * signatures on the certificate pages only.
 */
export const signatureBoxes: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('signature_boxes')
      .addColumn('process_id', 'varchar(24)', (c) => c.notNull().references('processes.id'))
      .addColumn('document_position', 'integer', (c) => c.notNull())
      .addColumn('participant_row_id', 'varchar(24)', (c) => c.notNull().references('participants.id'))
      .addColumn('box_index', 'integer', (c) => c.notNull())
      .addColumn('page', 'integer', (c) => c.notNull())
      .addColumn('left_pt', 'real', (c) => c.notNull())
      .addColumn('bottom_pt', 'real', (c) => c.notNull())
      .addColumn('width_pt', 'real', (c) => c.notNull())
      .addColumn('height_pt', 'real', (c) => c.notNull())
      .addPrimaryKeyConstraint('signature_boxes_pk', ['process_id', 'document_position', 'participant_row_id', 'box_index'])
      .execute();
  },
};
