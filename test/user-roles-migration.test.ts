import BetterSqlite3 from 'better-sqlite3';
import { type Dialect, Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { userRoles } from '../src/db/migrations/047_user_roles.js';
import { dialects } from './support/service.js';

/** A store of its own holding only the users' table as migration 033 made it: one connection, so PostgreSQL's temporary table is seen. */
function storeOf(dialect: (typeof dialects)[number]): Kysely<unknown> {
  const driver: Dialect =
    dialect === 'sqlite'
      ? new SqliteDialect({ database: new BetterSqlite3(':memory:') })
      : new PostgresDialect({ pool: new pg.Pool({ connectionString: process.env.TEST_DATABASE_URL, max: 1 }) });
  return new Kysely<unknown>({ dialect: driver });
}

describe.each(dialects)('migration 047: every member becomes a sender, keeping their rights, and no other role changes (%s)', (dialect) => {
  let db: Kysely<unknown> | undefined;
  afterEach(async () => db?.destroy());

  it('members are senders after it; admins and reviewers are what they were, in each organization', async () => {
    db = storeOf(dialect);
    await sql`CREATE TEMPORARY TABLE users (id varchar(24) PRIMARY KEY, organization_id varchar(24) NOT NULL, role varchar(8) NOT NULL DEFAULT 'admin')`.execute(
      db,
    );
    await sql`INSERT INTO users (id, organization_id, role) VALUES ('a1', 'A', 'admin'), ('a2', 'A', 'member'), ('a3', 'A', 'reviewer'), ('b1', 'B', 'member'), ('b2', 'B', 'admin')`.execute(
      db,
    );
    await userRoles.up(db);
    const { rows } = await sql<{ id: string; role: string }>`SELECT id, role FROM users ORDER BY id`.execute(db);
    expect(rows.map((row) => [row.id, row.role])).toEqual([
      ['a1', 'admin'],
      ['a2', 'sender'],
      ['a3', 'reviewer'],
      ['b1', 'sender'],
      ['b2', 'admin'],
    ]);
  });
});
