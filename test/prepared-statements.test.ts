import crypto from 'node:crypto';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { namingPool, StatementNames } from '../src/db/prepared-statements.js';
import { dropSchema } from './support/postgres.js';

const postgresUrl = process.env.TEST_DATABASE_URL;

describe('a statement is prepared once it has run often enough, and never more than the cap allows', () => {
  it('a text is named at its `after`th run, by the same name every time after', () => {
    const names = new StatementNames({ after: 3, max: 10, counted: 100 });
    expect(names.nameOf('select 1 where $1')).toBeUndefined();
    expect(names.nameOf('select 1 where $1')).toBeUndefined();
    const named = names.nameOf('select 1 where $1');
    expect(named).toMatch(/^s[0-9a-f]{40}$/);
    expect(names.nameOf('select 1 where $1')).toBe(named);
    expect(names.nameOf('select 2 where $1')).toBeUndefined();
  });

  it('no more than `max` texts are ever named, so no connection prepares more', () => {
    const names = new StatementNames({ after: 1, max: 2, counted: 100 });
    expect(names.nameOf('a')).toBeDefined();
    expect(names.nameOf('b')).toBeDefined();
    expect(names.nameOf('c')).toBeUndefined();
    expect(names.nameOf('c')).toBeUndefined();
  });

  it('the counts start again past `counted` texts (texts whose shape varies are many)', () => {
    const names = new StatementNames({ after: 2, max: 10, counted: 2 });
    names.nameOf('a');
    names.nameOf('b');
    names.nameOf('c');
    expect(names.nameOf('a')).toBeUndefined();
    expect(names.nameOf('c')).toBeDefined();
  });

  it('a text PostgreSQL refused to run again as prepared is never named again', () => {
    const names = new StatementNames({ after: 1, max: 10, counted: 100 });
    expect(names.nameOf('a')).toBeDefined();
    names.refuse('a');
    expect(names.nameOf('a')).toBeUndefined();
    expect(names.nameOf('a')).toBeUndefined();
  });
});

describe.skipIf(!postgresUrl)('on PostgreSQL, prepared statements answer what unnamed ones do, and survive a table changing shape', () => {
  const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
  let pool: pg.Pool;
  let db: Kysely<{ people: { id: string; organization: string; name: string; age?: number } }>;

  beforeAll(async () => {
    // One connection: what it prepared is what pg_prepared_statements shows it.
    pool = new pg.Pool({ connectionString: postgresUrl, max: 1, options: `-c search_path="${schema}"` });
    await pool.query(`CREATE SCHEMA "${schema}"`);
    await pool.query('CREATE TABLE people (id text PRIMARY KEY, organization text NOT NULL, name text NOT NULL)');
    db = new Kysely({ dialect: new PostgresDialect({ pool: namingPool(pool, new StatementNames({ after: 2, max: 100, counted: 1000 })) }) });
    await db
      .insertInto('people')
      .values([
        { id: 'a1', organization: 'A', name: 'Ana' },
        { id: 'b1', organization: 'B', name: 'Bruno' },
      ])
      .execute();
  });

  afterAll(async () => {
    await db?.destroy();
    if (postgresUrl) await dropSchema(postgresUrl, schema);
  });

  const ofOrganization = (organization: string) => db.selectFrom('people').selectAll().where('organization', '=', organization).execute();

  it("each run, prepared or not, answers its own parameters' rows: organization A never sees B's", async () => {
    for (let run = 0; run < 6; run++) {
      expect(await ofOrganization('A')).toEqual([{ id: 'a1', organization: 'A', name: 'Ana' }]);
      expect(await ofOrganization('B')).toEqual([{ id: 'b1', organization: 'B', name: 'Bruno' }]);
    }
    const prepared = await sql<{ statement: string }>`SELECT statement FROM pg_prepared_statements WHERE statement LIKE '%from "people"%'`.execute(db);
    expect(prepared.rows.map((row) => row.statement)).toEqual(['select * from "people" where "organization" = $1']);
  });

  it('writes report their affected rows when prepared (Kysely counts them from the command)', async () => {
    for (let run = 0; run < 4; run++) {
      const result = await db
        .updateTable('people')
        .set({ name: `Ana ${run}` })
        .where('organization', '=', 'A')
        .executeTakeFirst();
      expect(result.numUpdatedRows).toBe(1n);
    }
    expect((await ofOrganization('B'))[0]?.name).toBe('Bruno');
  });

  it("after another instance's migration adds a column, the connection's next run fails, and every later one answers the new shape", async () => {
    for (let run = 0; run < 4; run++) await ofOrganization('A');
    await pool.query('ALTER TABLE people ADD COLUMN age integer');
    const outcomes: string[] = [];
    for (let run = 0; run < 8; run++) {
      outcomes.push(
        await ofOrganization('A').then(
          (rows) => (rows[0] && 'age' in rows[0] ? 'new shape' : 'old shape'),
          (error: unknown) => `failed: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
    }
    const failed = outcomes.filter((outcome) => outcome.startsWith('failed'));
    expect(failed).toHaveLength(1);
    expect(outcomes[0]).toContain('cached plan must not change result type');
    expect(outcomes.slice(1)).toEqual(Array(7).fill('new shape'));
  });
});
