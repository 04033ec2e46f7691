import type BetterSqlite3 from 'better-sqlite3';

/**
 * What the writing connection to the SQLite file runs with. `synchronous = NORMAL` in WAL mode
 * writes the log at every COMMIT without waiting for the disk, and syncs it before a checkpoint
 * copies it into the database and when it starts over, so the file is never corrupted. What NORMAL
 * alone would lose in an OS crash or a power loss (the last commits) is not lost here: the group
 * commit (src/db/sqlite-group-commit.ts) flushes the log itself after each COMMIT, off the event
 * loop, and nobody hears of a write or reads it before that flush has ended. That is FULL's
 * guarantee, without stopping every request for as long as the disk takes in each COMMIT.
 * `temp_store = MEMORY` (2) keeps SQLite's temporary files in memory: a group commit's savepoint
 * journal spills past 64 KiB to one otherwise, doubling a commit's write calls. Nothing durable
 * lives there (it only undoes a failed member's work), so durability is unchanged.
 */
export const SQLITE_PRAGMAS = { journal_mode: 'wal', synchronous: 1, busy_timeout: 5000, foreign_keys: 1, temp_store: 2 } as const;

/** Sets the pragmas and reads each back: a connection that did not take one is refused, not used. */
export function applySqlitePragmas(file: BetterSqlite3.Database): void {
  for (const [name, value] of Object.entries(SQLITE_PRAGMAS)) {
    file.pragma(`${name} = ${value}`);
    const actual: unknown = file.pragma(name, { simple: true });
    if (actual !== value) throw new Error(`SQLite pragma ${name} is ${String(actual)}, not ${value}`);
  }
}

/** What the read-only connection runs with (src/db/sqlite-group-commit.ts): it writes nothing, so only what a read uses. */
export const SQLITE_READER_PRAGMAS = { journal_mode: 'wal', busy_timeout: 5000, temp_store: 2 } as const;

/** Sets the reader's pragmas and reads each back, as applySqlitePragmas does; journal_mode is only read (it is the file's). */
export function applySqliteReaderPragmas(file: BetterSqlite3.Database): void {
  for (const [name, value] of Object.entries(SQLITE_READER_PRAGMAS)) {
    if (name !== 'journal_mode') file.pragma(`${name} = ${value}`);
    const actual: unknown = file.pragma(name, { simple: true });
    if (actual !== value) throw new Error(`SQLite pragma ${name} of the read-only connection is ${String(actual)}, not ${value}`);
  }
}
