import type { Kysely, Migration } from 'kysely';

/**
 * The operator console (src/console): each user's role, the e-mailed sign-ins, the sessions, and
 * the organization's audit log of the console. Users made before roles existed become admins: each
 * was made by the operator for the organization's own staff, and none loses what it could do; `admin
 * user add` makes members unless told otherwise. Only SHA-256 hashes of links, codes and session
 * tokens are kept: a copy of the database opens no console.
 */
export const consoleSignIn: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('users')
      .addColumn('role', 'varchar(8)', (c) => c.notNull().defaultTo('admin'))
      .execute();
    await db.schema
      .createTable('console_sign_ins')
      .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
      .addColumn('user_id', 'varchar(24)', (c) => c.notNull().references('users.id'))
      .addColumn('organization_id', 'varchar(24)', (c) => c.notNull().references('organizations.id'))
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('failures', 'integer', (c) => c.notNull())
      .addColumn('expires_at', 'varchar(24)', (c) => c.notNull())
      .addColumn('used_at', 'varchar(24)')
      .addColumn('created_at', 'varchar(24)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('console_sign_ins_email').on('console_sign_ins').columns(['email', 'created_at']).execute();
    await db.schema
      .createTable('console_sessions')
      .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
      .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('user_id', 'varchar(24)', (c) => c.notNull().references('users.id'))
      .addColumn('organization_id', 'varchar(24)', (c) => c.notNull().references('organizations.id'))
      .addColumn('last_seen_at', 'varchar(24)', (c) => c.notNull())
      .addColumn('expires_at', 'varchar(24)', (c) => c.notNull())
      .addColumn('ended_at', 'varchar(24)')
      .addColumn('created_at', 'varchar(24)', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('console_audit')
      .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
      .addColumn('organization_id', 'varchar(24)', (c) => c.notNull().references('organizations.id'))
      .addColumn('user_id', 'varchar(24)')
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('action', 'varchar(32)', (c) => c.notNull())
      .addColumn('detail', 'text')
      .addColumn('address', 'varchar(64)')
      .addColumn('created_at', 'varchar(24)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('console_audit_organization').on('console_audit').columns(['organization_id', 'created_at', 'id']).execute();
  },
};
