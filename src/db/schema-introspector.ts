import {
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type Kysely,
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

/** PostgreSQL, with the introspection the migrator uses kept to one schema. */
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
}
