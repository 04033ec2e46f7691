import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Signing processes grow into real ones: their documents (one, or several for a package), their
 * participants with effective validations and progress, and an audit trail. A process's templates
 * move to its documents, since a package may use a different template per document.
 */
export const signing: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('process_documents')
      .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
      .addColumn('process_id', 'varchar(24)', (c) => c.notNull().references('processes.id'))
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('source', 'varchar(16)', (c) => c.notNull())
      .addColumn('template_id', 'varchar(24)')
      .addColumn('template_build', 'integer')
      .addColumn('answers', 'text')
      .addColumn('file_key', 'text')
      .addColumn('file_ready', 'integer', (c) => c.notNull())
      .addColumn('sha256', 'varchar(64)')
      .addColumn('created_at', 'varchar(24)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('process_documents_process').on('process_documents').columns(['process_id', 'position']).execute();
    await db.schema.createIndex('process_documents_template').on('process_documents').columns(['template_id']).execute();
    await sql`INSERT INTO process_documents (id, process_id, position, name, source, template_id, file_ready, created_at)
      SELECT id, id, 0, name, 'template', template_id, 0, created_at FROM processes WHERE template_id IS NOT NULL`.execute(db);
    await db.schema.dropIndex('processes_template_status').execute();
    await db.schema.alterTable('processes').dropColumn('template_id').execute();

    const columns: [string, 'text' | 'integer' | 'varchar(24)', string | undefined][] = [
      ['kind', 'varchar(24)', 'document'],
      ['creator_email', 'text', ''],
      ['subject', 'text', ''],
      ['message', 'text', ''],
      ['expires_at', 'varchar(24)', undefined],
      ['remind_every_hours', 'integer', undefined],
      ['next_reminder_at', 'varchar(24)', undefined],
      ['custom', 'text', undefined],
      ['target_webhooks', 'text', undefined],
      ['tags', 'text', undefined],
      ['end_reason', 'text', undefined],
      ['ended_by', 'text', undefined],
      ['sealed_at', 'varchar(24)', undefined],
    ];
    for (const [name, type, fallback] of columns) {
      await db.schema
        .alterTable('processes')
        .addColumn(name, type, (c) => (fallback === undefined ? c : c.notNull().defaultTo(fallback)))
        .execute();
    }
    await db.schema.createIndex('processes_status_expiry').on('processes').columns(['status', 'expires_at']).execute();
    await db.schema.createIndex('processes_status_reminder').on('processes').columns(['status', 'next_reminder_at']).execute();
    await db.schema.createIndex('processes_organization_status_created').on('processes').columns(['organization_id', 'status', 'created_at', 'id']).execute();

    await db.schema
      .createTable('participants')
      .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
      .addColumn('process_id', 'varchar(24)', (c) => c.notNull().references('processes.id'))
      .addColumn('participant_id', 'varchar(2)', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('role', 'varchar(16)', (c) => c.notNull())
      .addColumn('sign_order', 'integer', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('phone', 'varchar(20)')
      .addColumn('identification', 'varchar(50)')
      .addColumn('identification_type', 'varchar(16)')
      .addColumn('country', 'varchar(3)')
      .addColumn('signer_type', 'varchar(100)')
      .addColumn('notification', 'integer', (c) => c.notNull())
      .addColumn('validations', 'text', (c) => c.notNull())
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('link_token', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('opened_at', 'varchar(24)')
      .addColumn('otp_hash', 'varchar(64)')
      .addColumn('otp_expires_at', 'varchar(24)')
      .addColumn('otp_failures', 'integer', (c) => c.notNull())
      .addColumn('otp_sent_at', 'varchar(24)')
      .addColumn('otp_verified_at', 'varchar(24)')
      .addColumn('face_key', 'text')
      .addColumn('document_front_key', 'text')
      .addColumn('document_back_key', 'text')
      .addColumn('similarity', 'real')
      .addColumn('camera_failures', 'integer', (c) => c.notNull())
      .addColumn('camera_verified_at', 'varchar(24)')
      .addColumn('signed_at', 'varchar(24)')
      .addColumn('rejected_at', 'varchar(24)')
      .addColumn('reject_reason', 'text')
      .addColumn('block_reason', 'text')
      .addColumn('created_at', 'varchar(24)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(24)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('participants_process').on('participants').columns(['process_id', 'position']).unique().execute();

    await db.schema
      .createTable('process_events')
      .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
      .addColumn('process_id', 'varchar(24)', (c) => c.notNull().references('processes.id'))
      .addColumn('participant_id', 'varchar(2)')
      .addColumn('action', 'varchar(40)', (c) => c.notNull())
      .addColumn('platform', 'varchar(16)')
      .addColumn('actor', 'text')
      .addColumn('message', 'text')
      .addColumn('detail', 'text')
      .addColumn('at', 'varchar(24)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('process_events_process').on('process_events').columns(['process_id', 'at']).execute();
  },
};
