import type { Transaction } from 'kysely';
import type { Database, Db } from './schema.js';

/** What learns that a transaction committed: the outbox worker, to deliver what it queued (OutboxSignal). */
interface CommitSignal {
  wake(): void;
}

/**
 * Runs `work` in one transaction and, once it has committed, wakes the outbox worker, so the
 * messages it queued (webhooks, e-mails, jobs) go out at once instead of at the worker's next poll.
 * Woken only after the commit: a worker woken before would find nothing. A transaction that
 * throws is rolled back and wakes nothing, as it queued nothing. Every transaction that may queue
 * a message runs here, so none of them is left to the poll.
 */
/**
 * Work another part of the service adds to a change's own transaction, so that both are committed or
 * neither is: the console's audit row of a decision taken through the API's own operation.
 */
export type Alongside = (trx: Transaction<Database>) => Promise<void>;

export async function withTransaction<T>(store: { db: Db; outbox: CommitSignal }, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  const result = await store.db.transaction().execute(work);
  store.outbox.wake();
  return result;
}
