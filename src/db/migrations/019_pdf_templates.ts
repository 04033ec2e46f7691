import type { Kysely, Migration } from 'kysely';

/** An organization's PDF kept with the places its signer types sign (`positions`, JSON by type). */
export const pdfTemplates: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('pdf_templates')
      .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
      .addColumn('organization_id', 'varchar(24)', (c) => c.notNull().references('organizations.id'))
      .addColumn('name', 'varchar(200)', (c) => c.notNull())
      .addColumn('file_key', 'varchar(200)', (c) => c.notNull())
      .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
      .addColumn('positions', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('pdf_templates_organization').on('pdf_templates').columns(['organization_id', 'created_at']).execute();
  },
};
