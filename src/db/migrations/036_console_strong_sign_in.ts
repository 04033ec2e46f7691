import type { Kysely, Migration } from 'kysely';

/**
 * The console's stronger sign-in (src/console/passkeys, totp, oidc): users' passkeys, the
 * one-time challenges of passkeys and OpenID Connect kept server-side, the optional TOTP second
 * factor (its secret encrypted with the service's data key), a session's pending second factor,
 * and an organization's OpenID Connect provider.
 */
export const consoleStrongSignIn: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('console_passkeys')
      .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
      .addColumn('credential_id', 'varchar(512)', (c) => c.notNull().unique())
      .addColumn('user_id', 'varchar(24)', (c) => c.notNull().references('users.id'))
      .addColumn('organization_id', 'varchar(24)', (c) => c.notNull().references('organizations.id'))
      .addColumn('public_key', 'text', (c) => c.notNull())
      .addColumn('counter', 'bigint', (c) => c.notNull())
      .addColumn('transports', 'text', (c) => c.notNull())
      .addColumn('last_used_at', 'varchar(24)')
      .addColumn('created_at', 'varchar(24)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('console_passkeys_user').on('console_passkeys').columns(['user_id']).execute();
    await db.schema
      .createTable('console_challenges')
      .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
      .addColumn('purpose', 'varchar(16)', (c) => c.notNull())
      .addColumn('challenge_hash', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('user_id', 'varchar(24)')
      .addColumn('organization_id', 'varchar(24)')
      .addColumn('data', 'text')
      .addColumn('expires_at', 'varchar(24)', (c) => c.notNull())
      .addColumn('used_at', 'varchar(24)')
      .addColumn('created_at', 'varchar(24)', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('console_totp')
      .addColumn('user_id', 'varchar(24)', (c) => c.primaryKey().references('users.id'))
      .addColumn('organization_id', 'varchar(24)', (c) => c.notNull().references('organizations.id'))
      .addColumn('secret', 'text', (c) => c.notNull())
      .addColumn('confirmed_at', 'varchar(24)')
      .addColumn('last_step', 'bigint')
      .addColumn('failures', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'varchar(24)', (c) => c.notNull())
      .execute();
    await db.schema.alterTable('console_sessions').addColumn('pending_factor', 'varchar(8)').execute();
    await db.schema
      .alterTable('console_sessions')
      .addColumn('factor_failures', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('organizations').addColumn('oidc_issuer', 'text').execute();
    await db.schema.alterTable('organizations').addColumn('oidc_client_id', 'text').execute();
    await db.schema.alterTable('organizations').addColumn('oidc_client_secret', 'text').execute();
  },
};
