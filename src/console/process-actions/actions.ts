import type { ServiceContext } from '../../context.js';
import type { Alongside } from '../../db/transaction.js';
import { cancelProcesses } from '../../documents/lifecycle/cancel-processes.js';
import { reactivateProcess } from '../../documents/lifecycle/reactivate-process.js';
import { remindParticipant } from '../../documents/lifecycle/remind-participant.js';
import { findProcessByCode } from '../../documents/queries.js';
import { fail } from '../../domain-error.js';
import { recordedAlongside } from '../audit.js';
import type { ConsoleAction } from '../audit-contract.js';
import type { ConsoleUser } from '../sessions.js';

/*
 * What the console's process page does to a process, each through the API's own operation (POST
 * /document/cancel, /document/reminder, PUT /document/reactivate) with the session's user as who
 * asked, so the process's audit trail, its webhooks and the messages people get are the API's;
 * the console's audit log records it in the same transaction. A blocked participant is unlocked from the review queue
 * (src/console/review), the same decision.
 */

interface Acting {
  user: ConsoleUser;
  address: string;
}

/** The console's audit row of the action, written in the action's own transaction. */
function audited(ctx: ServiceContext, acting: Acting, action: ConsoleAction, detail: Record<string, string>): Alongside {
  return recordedAlongside(ctx.clock, { user: acting.user, action, address: acting.address, detail });
}

export async function cancelFromConsole(ctx: ServiceContext, options: Acting & { code: string; reason: string }): Promise<{ cancelled: true }> {
  const { user, code, reason } = options;
  const process = await findProcessByCode(ctx.db, user.organizationId, code);
  if (!process) throw fail('DOCUMENT_NOT_FOUND', { when: 'elsewhere' });
  const result = await cancelProcesses(ctx, {
    organizationId: user.organizationId,
    input: { codes: [code], message: reason, email: user.email },
    alongside: audited(ctx, options, 'PROCESS_CANCELLED', { code, reason }),
  });
  if (result.success === 0) throw fail('DOCUMENT_NOT_IN_SIGNATURE');
  return { cancelled: true };
}

/** `code`: the process code followed by the participant's id, as the API names a participant. */
export async function remindFromConsole(ctx: ServiceContext, options: Acting & { code: string }): Promise<{ reminded: true }> {
  const { user, code } = options;
  await remindParticipant(ctx, { organizationId: user.organizationId, code, alongside: audited(ctx, options, 'PARTICIPANT_REMINDED', { code }) });
  return { reminded: true };
}

export async function reactivateFromConsole(ctx: ServiceContext, options: Acting & { code: string }): Promise<{ notifications: number; users: string[] }> {
  const { user, code } = options;
  return reactivateProcess(ctx, {
    organizationId: user.organizationId,
    input: { code, email: user.email },
    alongside: audited(ctx, options, 'PROCESS_REACTIVATED', { code }),
  });
}
