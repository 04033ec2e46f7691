import type { Kysely, Migration } from 'kysely';

/**
 * The real service's edit mode, package document codes and folders (docs/real-service.md §3.10,
 * §4.1, §3): each document of a package answers a code of its own, unique like a process code
 * (null for the one document of a single process, whose code is the process's); a process may sit
 * in a folder of its creator, made the first time a creation names it.
 */
export const editMode: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('process_documents').addColumn('code', 'varchar(16)').execute();
    await db.schema.createIndex('process_documents_code').on('process_documents').column('code').unique().execute();
    await db.schema
      .createTable('folders')
      .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
      .addColumn('organization_id', 'varchar(24)', (c) => c.notNull().references('organizations.id'))
      .addColumn('owner_email', 'text', (c) => c.notNull())
      .addColumn('path', 'varchar(200)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(24)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('folders_owner_path').on('folders').columns(['organization_id', 'owner_email', 'path']).unique().execute();
    await db.schema
      .alterTable('processes')
      .addColumn('folder_id', 'varchar(24)', (c) => c.references('folders.id'))
      .execute();
    await db.schema.createIndex('processes_folder').on('processes').columns(['folder_id', 'created_at', 'id']).execute();
  },
};
