import type { Kysely, Migration } from 'kysely';

/**
 * A process whose final files cannot be made (its document is missing, changed, or a PDF the seal
 * cannot open) is marked, once, with the reason; and uploads are found by their hash, so /verify
 * can tell an original upload from a final file.
 */
export const sealFailure: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('processes').addColumn('seal_failed_at', 'text').execute();
    await db.schema.alterTable('processes').addColumn('seal_failure', 'text').execute();
    await db.schema.createIndex('process_documents_sha256').on('process_documents').column('sha256').execute();
  },
};
