import {
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type DialectAdapter,
  type Kysely,
  PostgresAdapter,
  PostgresDialect,
  type PostgresDialectConfig,
  type SchemaMetadata,
  sql,
  type TableMetadata,
} from 'kysely';

/**
 * What Kysely's migrator asks the database (does the schema exist, do its tables), answered from
 * this service's schema only. Kysely's own PostgreSQL introspector reads every schema of the
 * database, calling functions on each table that fail with "schema does not exist" when another
 * schema is dropped at that moment: an instance would then fail to start because of a neighbour.
 */
class SchemaIntrospector implements DatabaseIntrospector {
  constructor(
    private readonly db: Kysely<unknown>,
    private readonly schema: string,
  ) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const rows = await sql<{ nspname: string }>`SELECT nspname FROM pg_catalog.pg_namespace WHERE nspname = ${this.schema}`.execute(this.db);
    return rows.rows.map((row) => ({ name: row.nspname }));
  }

  async getTables(): Promise<TableMetadata[]> {
    const rows = await sql<{ tablename: string }>`SELECT tablename FROM pg_catalog.pg_tables WHERE schemaname = ${this.schema}`.execute(this.db);
    return rows.rows.map((row) => ({ name: row.tablename, schema: this.schema, isView: false, columns: [] }));
  }

  async getMetadata(): Promise<DatabaseMetadata> {
    return { tables: await this.getTables() };
  }
}

/**
 * Kysely's migrator locks one advisory key for the whole database, so every schema's migrations
 * waited on every other's: with many schemas starting at once (tenants, or the test suite on a
 * busy machine) an instance waited its turn behind all of them. The key here is the schema's.
 */
class SchemaAdapter extends PostgresAdapter {
  constructor(private readonly schema: string) {
    super();
  }

  override async acquireMigrationLock(db: Kysely<unknown>): Promise<void> {
    await sql`SELECT pg_advisory_lock(hashtext(${this.lockName()}))`.execute(db);
  }

  override async releaseMigrationLock(db: Kysely<unknown>): Promise<void> {
    await sql`SELECT pg_advisory_unlock(hashtext(${this.lockName()}))`.execute(db);
  }

  private lockName(): string {
    return `kysely migrations of ${this.schema}`;
  }
}

/** PostgreSQL, with what the migrator asks and locks kept to one schema. */
export class SchemaScopedPostgresDialect extends PostgresDialect {
  constructor(
    config: PostgresDialectConfig,
    private readonly schema: string,
  ) {
    super(config);
  }

  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SchemaIntrospector(db, this.schema);
  }

  override createAdapter(): DialectAdapter {
    return new SchemaAdapter(this.schema);
  }
}
