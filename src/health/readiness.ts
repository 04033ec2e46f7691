/** Where one piece of start-up work stands: running, done, or failed with its reason. */
export type CheckState = 'starting' | 'ok' | { failed: string };

export interface ReadinessReport {
  /** `ok` when ready, `failed` once a check failed, `starting` meanwhile. */
  status: 'ok' | 'starting' | 'failed';
  /** Every piece of start-up work this instance began has finished and none failed. */
  ready: boolean;
  checks: Record<string, CheckState>;
}

/**
 * What an instance has started and how far each piece got, for GET /health: a balancer sends it
 * requests, and a bench starts counting, only once it is ready. Only work the instance began is
 * listed (a test service that starts no background work is ready once its store is migrated), so
 * the work must be tracked before the service listens, or its first answers would say ready too early.
 */
export class Readiness {
  private readonly checks = new Map<string, CheckState>();

  /** Done at once: work that finished before it could be tracked (the migrations, run before the service is built). */
  passed(name: string): void {
    this.checks.set(name, 'ok');
  }

  /** `name` is starting until `work` settles, then ok or failed with its error; answers `work` itself. */
  track<T>(name: string, work: Promise<T>): Promise<T> {
    this.checks.set(name, 'starting');
    work.then(
      () => this.checks.set(name, 'ok'),
      (error: unknown) => this.checks.set(name, { failed: error instanceof Error ? error.message : String(error) }),
    );
    return work;
  }

  report(): ReadinessReport {
    const states = [...this.checks.values()];
    const ready = states.every((state) => state === 'ok');
    const status = ready ? 'ok' : states.some((state) => typeof state === 'object') ? 'failed' : 'starting';
    return { status, ready, checks: Object.fromEntries(this.checks) };
  }
}
