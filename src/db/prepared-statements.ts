import crypto from 'node:crypto';
import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';

export interface StatementNamingOptions {
  /** Runs of one SQL text before it is named: a statement run once or twice is not worth a plan kept. */
  after: number;
  /** Names given at most, so that each connection keeps at most this many prepared statements in PostgreSQL. */
  max: number;
  /** SQL texts counted at most before the counts start again (texts whose shape varies, like long IN lists, are many). */
  counted: number;
}

export const STATEMENT_NAMING: StatementNamingOptions = { after: 2, max: 1_000, counted: 10_000 };

/** PostgreSQL's answer to a prepared statement whose table changed shape since it was planned. */
const CHANGED_RESULT_TYPE = '0A000';

/**
 * Which statements run as named (prepared) statements: each SQL text with parameters, once it has
 * run `after` times, gets a name made from its text, so PostgreSQL parses and plans it once per
 * connection instead of at every run (measured: 40 % less of the database's CPU a statement, and
 * less of the service's; ARCHITECTURE.md, "Frequent statements prepared once per connection").
 *
 * Invariants: a name always stands for the same text (it is the text's hash); at most `max` names
 * are ever given, so no connection holds more prepared statements than that; a text PostgreSQL
 * refused to run again as prepared (its table changed shape under a running instance, as another
 * instance's migration can do) is never named again, so it fails once per connection at most.
 */
export class StatementNames {
  private readonly runs = new Map<string, number>();
  private readonly names = new Map<string, string>();
  private readonly refused = new Set<string>();

  constructor(private readonly options: StatementNamingOptions = STATEMENT_NAMING) {}

  /** The name to run this text by, or undefined to run it unnamed. */
  nameOf(sql: string): string | undefined {
    const name = this.names.get(sql);
    if (name !== undefined || this.names.size >= this.options.max || this.refused.has(sql)) return name;
    const runs = (this.runs.get(sql) ?? 0) + 1;
    if (runs < this.options.after) {
      if (this.runs.size >= this.options.counted) this.runs.clear();
      this.runs.set(sql, runs);
      return undefined;
    }
    this.runs.delete(sql);
    const named = `s${crypto.createHash('sha256').update(sql).digest('hex').slice(0, 40)}`;
    this.names.set(sql, named);
    return named;
  }

  /** PostgreSQL would not run the prepared text again: from now on it runs unnamed. */
  refuse(sql: string): void {
    this.names.delete(sql);
    this.refused.add(sql);
  }
}

function isChangedResultType(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === CHANGED_RESULT_TYPE;
}

const COMMANDS = ['UPDATE', 'DELETE', 'INSERT', 'SELECT', 'MERGE'] as const;

/** node-postgres's answer as Kysely reads it: the commands it counts affected rows of, any other as a read. */
function kyselyResult<R>(result: pg.QueryResult): PostgresQueryResult<R> {
  return { command: COMMANDS.find((command) => command === result.command) ?? 'SELECT', rowCount: result.rowCount ?? 0, rows: result.rows };
}

/** A connection of the pool that runs frequent statements by name (see StatementNames). */
class NamingClient implements PostgresPoolClient {
  constructor(
    private readonly client: pg.PoolClient,
    private readonly names: StatementNames,
  ) {}

  query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  query<R>(sql: string | PostgresCursor<R>, parameters: ReadonlyArray<unknown> = []): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    // Kysely streams through a cursor only when its dialect is given one, and this service gives none.
    if (typeof sql !== 'string') throw new Error('streaming queries are not configured');
    return this.run(sql, parameters);
  }

  private async run<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> {
    const name = parameters.length === 0 ? undefined : this.names.nameOf(sql);
    if (name === undefined) return kyselyResult(await this.client.query(sql, [...parameters]));
    try {
      return kyselyResult(await this.client.query({ name, text: sql, values: [...parameters] }));
    } catch (error) {
      if (isChangedResultType(error)) this.names.refuse(sql);
      throw error;
    }
  }

  release(): void {
    this.client.release();
  }
}

/** The pool as Kysely takes it, its connections running frequent statements by name. */
export function namingPool(pool: pg.Pool, names: StatementNames = new StatementNames()): PostgresPool {
  return {
    connect: async () => new NamingClient(await pool.connect(), names),
    end: () => pool.end(),
  };
}
