import type { Kysely, Migration } from 'kysely';

export const foundation: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('organizations')
      .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('sdk_integration', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'varchar(24)', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('users')
      .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
      .addColumn('organization_id', 'varchar(24)', (c) => c.notNull().references('organizations.id'))
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('created_at', 'varchar(24)', (c) => c.notNull())
      .addUniqueConstraint('users_organization_email', ['organization_id', 'email'])
      .execute();

    await db.schema
      .createTable('api_keys')
      .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
      .addColumn('organization_id', 'varchar(24)', (c) => c.notNull().references('organizations.id'))
      .addColumn('kind', 'varchar(16)', (c) => c.notNull())
      .addColumn('key_hash', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('hint', 'varchar(16)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(24)', (c) => c.notNull())
      .addColumn('revoked_at', 'varchar(24)')
      .execute();

    await db.schema
      .createTable('templates')
      .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
      .addColumn('organization_id', 'varchar(24)', (c) => c.notNull().references('organizations.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('description', 'text')
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('build', 'integer', (c) => c.notNull())
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(24)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(24)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('templates_organization_created').on('templates').columns(['organization_id', 'created_at', 'id']).execute();

    await db.schema
      .createTable('reference_links')
      .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
      .addColumn('organization_id', 'varchar(24)', (c) => c.notNull().references('organizations.id'))
      .addColumn('template_id', 'varchar(24)', (c) => c.notNull().references('templates.id'))
      .addColumn('token', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('name', 'text')
      .addColumn('created_at', 'varchar(24)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('reference_links_template').on('reference_links').columns(['template_id', 'created_at']).execute();

    await db.schema
      .createTable('processes')
      .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
      .addColumn('code', 'varchar(16)', (c) => c.notNull().unique())
      .addColumn('organization_id', 'varchar(24)', (c) => c.notNull().references('organizations.id'))
      .addColumn('template_id', 'varchar(24)')
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(24)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(24)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('processes_template_status').on('processes').columns(['template_id', 'status']).execute();
    await db.schema.createIndex('processes_organization_created').on('processes').columns(['organization_id', 'created_at', 'id']).execute();

    await db.schema
      .createTable('settings')
      .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .execute();
  },
};
