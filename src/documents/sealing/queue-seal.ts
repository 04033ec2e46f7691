import type { Clock } from '../../clock.js';
import type { Db } from '../../db/database.js';
import { fail } from '../../domain-error.js';
import { enqueue } from '../../outbox/enqueue.js';
import { findProcessByCode } from '../queries.js';
import { SEAL_PROCESS_JOB } from './seal-job-name.js';

/**
 * Queues the seal job of a finished process again (the admin command `process reseal`), for when
 * its retries ran out before its file was put right. A process not finished, or sealed already,
 * is left alone: answers whether a job was queued.
 */
export async function queueSeal(db: Db, clock: Clock, options: { organizationId: string; code: string }): Promise<{ code: string; queued: boolean }> {
  const process = await findProcessByCode(db, options.organizationId, options.code);
  if (!process) throw fail('DOCUMENT_NOT_FOUND', { when: 'sealing' });
  const queued = process.status === 'FINISH' && process.sealed_at === null;
  if (queued) {
    await enqueue(db, clock, [{ kind: 'job', organizationId: process.organization_id, payload: { name: SEAL_PROCESS_JOB, data: { processId: process.id } } }]);
  }
  return { code: process.code, queued };
}
