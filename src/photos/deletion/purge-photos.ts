import type { ServiceContext } from '../../context.js';
import { forgetEndedMatcherUses } from '../../veriface/face-share/queries.js';
import { forgetPhotoAttemptsBefore } from '../queries.js';
import { deleteProcessPhotos, deleteVerifacePhotos } from './delete-photos.js';
import { processesWithDuePhotos, retentionPeriods, verifacesWithDuePhotos } from './queries.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Processes handled per query; a run handles at most MAX_BATCHES of them per kind and period, the next run the rest. */
export const PURGE_BATCH = 50;
const MAX_BATCHES = 20;

/** Runs `each` on the rows `next` finds, batch after batch, until a batch is short or the run's bound is reached. */
async function inBatches<T>(next: () => Promise<T[]>, each: (row: T) => Promise<unknown>): Promise<number> {
  let done = 0;
  for (let round = 0; round < MAX_BATCHES; round++) {
    const rows = await next();
    for (const row of rows) {
      await each(row);
      done++;
    }
    if (rows.length < PURGE_BATCH) break;
  }
  return done;
}

/**
 * The recurring job `photo-retention`: deletes the photos of signing processes and face
 * validations that ended more than their organization's `photo_retention_days` ago. A process's
 * last change is when it ended, since an ended process changes no more. One query per retention
 * period in use, whatever the number of organizations. Counts of photo attempts of earlier days go
 * too, and the face comparisons counted for flows that have ended.
 */
export async function purgeDuePhotos(ctx: ServiceContext): Promise<{ processes: number; verifaces: number }> {
  const now = ctx.clock.now().getTime();
  let processes = 0;
  let verifaces = 0;
  for (const days of await retentionPeriods(ctx.db)) {
    const cutoff = new Date(now - days * DAY_MS).toISOString();
    processes += await inBatches(
      () => processesWithDuePhotos(ctx.db, { days, cutoff, limit: PURGE_BATCH }),
      (process) => deleteProcessPhotos(ctx, { process, reason: 'retention' }),
    );
    verifaces += await inBatches(
      () => verifacesWithDuePhotos(ctx.db, { days, cutoff, limit: PURGE_BATCH }),
      (process) => deleteVerifacePhotos(ctx, { process, reason: 'retention' }),
    );
  }
  // The day's bound on photo attempts needs only today's counts.
  await forgetPhotoAttemptsBefore(ctx.db, new Date(now).toISOString().slice(0, 10));
  await forgetEndedMatcherUses(ctx.db);
  return { processes, verifaces };
}
