import type { Db } from '../db/database.js';
import type { DeliveryAttemptRow } from '../db/schema.js';
import { recordAttempts } from './queries.js';

/**
 * Writes delivery attempts as they end. Attempts ending in the same turn of the event loop share
 * one INSERT (a round's fast deliveries tend to end together), so a record is at most one turn
 * late and a worker killed mid-round leaves the record of every delivery it finished.
 */
export class AttemptRecorder {
  private batch: { attempt: DeliveryAttemptRow; settle: (error?: unknown) => void }[] = [];

  constructor(private readonly db: Db) {}

  /** Resolves once the attempt is stored. */
  record(attempt: DeliveryAttemptRow): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.batch.length === 0) setImmediate(() => this.flush());
      this.batch.push({ attempt, settle: (error) => (error === undefined ? resolve() : reject(error)) });
    });
  }

  private flush(): void {
    const batch = this.batch;
    this.batch = [];
    recordAttempts(
      this.db,
      batch.map((entry) => entry.attempt),
    ).then(
      () => {
        for (const entry of batch) entry.settle();
      },
      (error: unknown) => {
        for (const entry of batch) entry.settle(error ?? new Error('recording attempts failed'));
      },
    );
  }
}
