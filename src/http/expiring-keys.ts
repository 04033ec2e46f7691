/** Below this many keys, the ones that have ended are not looked for. */
const SWEEP_FROM = 1024;

/**
 * Keys kept until a time of their own (ms since the epoch, `Date.now()`, as @fastify/rate-limit
 * counts), looked up without waiting on anything. Ended keys go when the set has doubled since the
 * last sweep, so it never holds many more than the keys still running.
 */
export class ExpiringKeys {
  private readonly until = new Map<string, number>();
  private sweepAt = SWEEP_FROM;

  get size(): number {
    return this.until.size;
  }

  /** Milliseconds the key is still kept, 0 when it is not (or no longer). */
  left(key: string): number {
    const until = this.until.get(key);
    if (until === undefined) return 0;
    const left = until - Date.now();
    if (left > 0) return left;
    this.until.delete(key);
    return 0;
  }

  keep(key: string, ms: number): void {
    const now = Date.now();
    if (this.until.size >= this.sweepAt) {
      for (const [kept, until] of this.until) if (until <= now) this.until.delete(kept);
      this.sweepAt = Math.max(SWEEP_FROM, this.until.size * 2);
    }
    this.until.set(key, now + ms);
  }
}
