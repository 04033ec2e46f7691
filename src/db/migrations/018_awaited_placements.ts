import type { Kysely, Migration } from 'kysely';

/**
 * Where the participants sign a PDF that arrives through its upload URL after the process is
 * created: kept as the request said it (coordinates, tags) until the PDF is there to check it
 * against, then turned into `signature_boxes` and removed.
 */
export const awaitedPlacements: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('awaited_placements')
      .addColumn('process_id', 'varchar(24)', (c) => c.notNull().references('processes.id'))
      .addColumn('document_position', 'integer', (c) => c.notNull())
      .addColumn('placements', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('awaited_placements_pk', ['process_id', 'document_position'])
      .execute();
  },
};
