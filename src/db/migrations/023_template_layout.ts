import type { Kysely, Migration } from 'kysely';

/**
 * What a process keeps of its templates when it is created, so a template edited later never
 * changes a running process: each template document's page layout (the template's `custom`, JSON),
 * and each participant's allowed signature kinds (JSON array, src/templates/signature-kinds.ts;
 * null when any kind goes).
 */
export const templateLayout: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('process_documents').addColumn('layout', 'text').execute();
    await db.schema.alterTable('participants').addColumn('signature_kinds', 'text').execute();
  },
};
