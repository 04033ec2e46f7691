import type { Clock } from '../clock.js';
import type { Db } from '../db/database.js';
import { renewClaim } from './queries.js';

/**
 * A worker's hold on one claimed message. Its lease can run out while the work goes on (a paused
 * VM, a very slow call) and another worker then claims the message and does the same work: work
 * whose effects must happen once asks its claim before each of them.
 */
export interface Claim {
  /**
   * Extends the lease and answers true while this claim still holds the message; false once the
   * message was claimed again or finished. Given a transaction, the message's row stays locked
   * until it commits (on PostgreSQL), so no other worker claims it in between.
   */
  renew(db?: Db): Promise<boolean>;
  /** When the lease this claim holds runs out unless renewed (ms since the epoch, on the service's clock). */
  lapsesAt(): number;
}

/**
 * A claim is the worker's id together with the lease it got: the same worker claiming the message
 * again after its lease ran out gets another lease, so the earlier claim no longer holds.
 */
export class OutboxClaim implements Claim {
  private lockedUntil: string;
  /** Renewals run one after the other: each names the lease the one before it got. */
  private last: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: { db: Db; clock: Clock; id: string; workerId: string; lockedUntil: string; leaseMs: number }) {
    this.lockedUntil = options.lockedUntil;
  }

  lapsesAt(): number {
    return Date.parse(this.lockedUntil);
  }

  renew(db: Db = this.options.db): Promise<boolean> {
    const renewed = this.last.then(() => this.renewNow(db));
    this.last = renewed.catch(() => undefined);
    return renewed;
  }

  private async renewNow(db: Db): Promise<boolean> {
    const { clock, id, workerId, leaseMs } = this.options;
    const leaseUntil = new Date(clock.now().getTime() + leaseMs).toISOString();
    const held = await renewClaim(db, { id, workerId, lockedUntil: this.lockedUntil, leaseUntil });
    if (held) this.lockedUntil = leaseUntil;
    return held;
  }
}
