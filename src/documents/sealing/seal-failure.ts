import { withTransaction } from '../../db/transaction.js';
import type { Claim } from '../../outbox/claim.js';
import type { WorkerLogger } from '../../outbox/worker.js';
import { LevelUnreachable } from '../../pdf-signing/level-unreachable.js';
import { UnusableDocumentFile } from '../document-files.js';
import { recordProcessEvent } from '../process-events.js';
import { findProcessById, markSealFailed } from '../queries.js';
import { type SealContext, sealProcess } from './seal-process.js';

/**
 * The seal job: seals the process, and when a document cannot be sealed as it is, or the
 * signature cannot reach the organization's PAdES level (no timestamp authority or revocation
 * responder answered), marks the process (once: `seal_failed_at`, `seal_failure`), writes SEAL_FAILED in its audit trail with the
 * `document.seal_failed` webhook, logs it, and fails the job, so the outbox tries again on its
 * retry schedule: a run after the file is put right, or the authority answers again, seals it. Any other failure (the renderer, the
 * store) only fails the job: it is likely to pass on the next attempt.
 */
export async function runSealJob(ctx: SealContext, options: { processId: string; claim?: Claim; logger: WorkerLogger }): Promise<boolean> {
  try {
    return await sealProcess(ctx, { processId: options.processId, ...(options.claim ? { claim: options.claim } : {}) });
  } catch (error) {
    if (!(error instanceof UnusableDocumentFile || error instanceof LevelUnreachable)) throw error;
    const marked = await withTransaction(ctx, async (trx) => {
      const process = await findProcessById(trx, options.processId);
      if (!process || !(await markSealFailed(trx, process.id, { at: ctx.clock.now().toISOString(), reason: error.message }))) return undefined;
      await recordProcessEvent(trx, ctx.clock, { process, action: 'SEAL_FAILED', message: error.message });
      return process;
    });
    options.logger.error({ err: error, processId: options.processId, code: marked?.code }, 'a process cannot be sealed');
    throw error;
  }
}
