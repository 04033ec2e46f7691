import type { Clock } from '../../clock.js';
import type { Db } from '../../db/database.js';
import type { ParticipantRow, ProcessRow, ProcessStatus } from '../../db/schema.js';
import { type ProcessAction, recordProcessEvent } from '../process-events.js';
import { IN_SIGNATURE, transitionProcess } from '../queries.js';

const ACTION_OF: Record<Exclude<ProcessStatus, 'CREATED' | 'EDITING'>, ProcessAction> = {
  FINISH: 'FINISH',
  REJECTED: 'PARTICIPANT_REJECT',
  EXPIRED: 'EXPIRED',
  CANCELLED: 'CANCEL_SIGN',
};

/**
 * Moves a process out of signature, in the caller's transaction, with its audit line and webhook.
 * Only from in signature: answers the closed process, or undefined when it had already left that
 * state (terminal states stay terminal, and a concurrent change wins).
 */
export async function closeProcess(
  db: Db,
  clock: Clock,
  options: {
    process: ProcessRow;
    to: Exclude<ProcessStatus, 'CREATED' | 'EDITING'>;
    /** A process in edit mode may only be cancelled; every other close is from in signature. */
    from?: 'CREATED' | 'EDITING';
    participant?: ParticipantRow;
    message?: string;
    actor?: string;
    platform?: string;
    detail?: Record<string, unknown>;
  },
): Promise<ProcessRow | undefined> {
  const at = clock.now().toISOString();
  const moved = await transitionProcess(db, options.process.id, {
    from: options.from ?? IN_SIGNATURE,
    to: options.to,
    at,
    ...(options.message === undefined ? {} : { endReason: options.message }),
    ...(options.actor === undefined ? {} : { endedBy: options.actor }),
  });
  if (!moved) return undefined;
  const closed: ProcessRow = {
    ...options.process,
    status: options.to,
    updated_at: at,
    end_reason: options.message ?? options.process.end_reason,
    ended_by: options.actor ?? options.process.ended_by,
  };
  await recordProcessEvent(db, clock, {
    process: closed,
    action: ACTION_OF[options.to],
    ...(options.participant ? { participant: options.participant } : {}),
    ...(options.message === undefined ? {} : { message: options.message }),
    ...(options.actor === undefined ? {} : { actor: options.actor }),
    ...(options.platform === undefined ? {} : { platform: options.platform }),
    ...(options.detail === undefined ? {} : { detail: options.detail }),
  });
  return closed;
}
