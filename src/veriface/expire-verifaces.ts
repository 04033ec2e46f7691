import type { Clock } from '../clock.js';
import type { Db } from '../db/database.js';
import { findExpired, updateInProgress } from './queries.js';
import { recordStage } from './stages.js';

const BATCH = 100;

/**
 * The expiry sweep: every process still in progress whose expiry date has passed becomes EXPIRED,
 * with its stage and webhook, each in its own transaction. A process that finished meanwhile is
 * left as it is. Answers how many expired.
 */
export async function expireDueVerifaces(db: Db, clock: Clock): Promise<number> {
  let expired = 0;
  for (;;) {
    const now = clock.now().toISOString();
    const due = await findExpired(db, now, BATCH);
    for (const process of due) {
      const moved = await db.transaction().execute(async (trx) => {
        if (!(await updateInProgress(trx, process.id, { status: 'EXPIRED', updated_at: now }))) return false;
        await recordStage(trx, clock, { process: { ...process, status: 'EXPIRED', updated_at: now }, stage: 'expired' });
        return true;
      });
      if (moved) expired++;
    }
    if (due.length < BATCH) return expired;
  }
}
