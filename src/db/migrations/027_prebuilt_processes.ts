import type { Kysely, Migration } from 'kysely';

/**
 * Processes prepared by the integrator and completed by someone else (POST /document/prebuild):
 * the prefilled answers and the creation fields wait here, under the code the process will have,
 * until the form of their link (/f/<token>) or the SDK completes them. And the forms the SDK's
 * `fill` flow opens: one session per opening (kept by the SHA-256 of its token), which makes at
 * most one process.
 */
export const prebuiltProcesses: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('prebuilt_processes')
      .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
      .addColumn('organization_id', 'varchar(24)', (c) => c.notNull().references('organizations.id'))
      // No foreign key: deleting the template leaves a prebuilt that can no longer be completed.
      .addColumn('template_id', 'varchar(24)', (c) => c.notNull())
      .addColumn('code', 'varchar(10)', (c) => c.notNull().unique())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('creator_email', 'text', (c) => c.notNull())
      .addColumn('email_to', 'text', (c) => c.notNull())
      .addColumn('link_token', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('answers', 'text', (c) => c.notNull())
      .addColumn('fields', 'text', (c) => c.notNull())
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('expires_at', 'varchar(24)')
      .addColumn('completion_key', 'varchar(64)')
      .addColumn('completed_at', 'varchar(24)')
      .addColumn('created_at', 'varchar(24)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(24)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('prebuilt_processes_organization_code').on('prebuilt_processes').columns(['organization_id', 'code']).execute();
    await db.schema
      .createTable('fill_sessions')
      .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('organization_id', 'varchar(24)', (c) => c.notNull().references('organizations.id'))
      .addColumn('template_id', 'varchar(24)', (c) => c.notNull())
      .addColumn('reference_link_id', 'varchar(24)')
      .addColumn('prebuilt_id', 'varchar(24)')
      .addColumn('origin', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'varchar(24)', (c) => c.notNull())
      .addColumn('idempotency_key', 'varchar(64)')
      .addColumn('process_code', 'varchar(10)')
      .addColumn('created_at', 'varchar(24)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('fill_sessions_organization_expiry').on('fill_sessions').columns(['organization_id', 'expires_at']).execute();
  },
};
