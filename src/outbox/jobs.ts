import type { Clock } from '../clock.js';
import type { Db } from '../db/database.js';
import type { Claim } from './claim.js';
import { enqueue } from './enqueue.js';
import type { DeliveryOutcome, JobPayload, OutboxHandler } from './types.js';

/**
 * Runs a job; one-off jobs receive the data they were queued with, and the worker's claim on the
 * job, which a job whose effects must happen once asks before each of them.
 */
export type JobRunner = (data: Record<string, unknown> | undefined, claim: Claim | undefined) => Promise<unknown>;

export interface RecurringJob {
  name: string;
  everyMs: number;
}

/** Runs scheduled work by name; a recurring job is due again `everyMs` after each run. */
export function jobHandler(jobs: Record<string, JobRunner>, clock: Clock): OutboxHandler<JobPayload> {
  return {
    async deliver(message): Promise<DeliveryOutcome> {
      const run = jobs[message.payload.name];
      if (!run) return { ok: false, retryable: false, durationMs: 0, error: `Unknown job ${message.payload.name}` };
      const started = performance.now();
      await run(message.payload.data, message.claim);
      const every = message.payload.everyMs;
      return { ok: true, durationMs: performance.now() - started, ...(every ? { repeatAt: new Date(clock.now().getTime() + every) } : {}) };
    },
  };
}

/** Makes sure each recurring job has its one pending row; safe to call from every instance at start. */
export async function scheduleRecurringJobs(db: Db, clock: Clock, jobs: RecurringJob[]): Promise<void> {
  await enqueue(
    db,
    clock,
    jobs.map((job) => ({
      kind: 'job' as const,
      organizationId: null,
      payload: { name: job.name, everyMs: job.everyMs },
      dedupeKey: `recurring:${job.name}`,
    })),
  );
}
