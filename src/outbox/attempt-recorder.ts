import type { Db } from '../db/database.js';
import type { DeliveryAttemptRow } from '../db/schema.js';
import { recordAttempts } from './queries.js';

/** 10 columns a row: far below SQLite's (32,766) and PostgreSQL's (65,535) bound parameters. */
const ROWS_PER_INSERT = 500;

interface Entry {
  attempt: DeliveryAttemptRow;
  settle: (error?: unknown) => void;
}

/**
 * Writes delivery attempts as they end, one INSERT in flight at a time: attempts ending while one
 * is being stored (and flushed to disk) wait and share the next. So a record is late by at most the
 * insert under way, a worker killed mid-round leaves the record of every delivery whose insert had
 * committed, and a round of 200 fast deliveries costs a handful of inserts, not one per turn of the
 * event loop in which one ended (each of those a statement compiled, committed and flushed).
 */
export class AttemptRecorder {
  private batch: Entry[] = [];
  private writing = false;

  constructor(private readonly db: Db) {}

  /** Resolves once the attempt is stored. */
  record(attempt: DeliveryAttemptRow): Promise<void> {
    return new Promise((resolve, reject) => {
      this.batch.push({ attempt, settle: (error) => (error === undefined ? resolve() : reject(error)) });
      // Within a turn, attempts ending together still join the first insert.
      if (this.batch.length === 1 && !this.writing) setImmediate(() => this.write());
    });
  }

  private write(): void {
    if (this.batch.length === 0 || this.writing) return;
    const batch = this.batch.splice(0, ROWS_PER_INSERT);
    this.writing = true;
    recordAttempts(
      this.db,
      batch.map((entry) => entry.attempt),
    )
      .then(
        () => {
          for (const entry of batch) entry.settle();
        },
        (error: unknown) => {
          for (const entry of batch) entry.settle(error ?? new Error('recording attempts failed'));
        },
      )
      .finally(() => {
        this.writing = false;
        this.write();
      });
  }
}
