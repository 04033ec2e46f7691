/**
 * At most `perOrigin` deliveries in flight to one origin, the size of the connection pool's share
 * for it: a delivery waits here, unclocked, for a free connection, so its timeout starts when it is
 * sent and measures the receiver alone, never our own queue.
 */
export class OriginSlots {
  private readonly inFlight = new Map<string, number>();
  private readonly waiting = new Map<string, (() => void)[]>();

  constructor(private readonly perOrigin: number) {}

  /** Resolves with the function that frees the slot once one is free for `origin`. */
  async acquire(origin: string): Promise<() => void> {
    const count = this.inFlight.get(origin) ?? 0;
    if (count < this.perOrigin) {
      this.inFlight.set(origin, count + 1);
    } else {
      // The slot is handed over directly by the one that frees it: the count stays as it is.
      await new Promise<void>((resolve) => this.waiting.set(origin, [...(this.waiting.get(origin) ?? []), resolve]));
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.release(origin);
    };
  }

  private release(origin: string): void {
    const queue = this.waiting.get(origin);
    const next = queue?.shift();
    if (queue?.length === 0) this.waiting.delete(origin);
    if (next) {
      next();
      return;
    }
    const count = (this.inFlight.get(origin) ?? 1) - 1;
    if (count === 0) this.inFlight.delete(origin);
    else this.inFlight.set(origin, count);
  }
}
