import type { ServiceContext } from '../../context.js';
import { type Alongside, withTransaction } from '../../db/transaction.js';
import { fail } from '../../domain-error.js';
import { normalizeEmail } from '../../organizations/organizations.js';
import { findUserByEmail } from '../../organizations/queries.js';
import { notifyCancellation } from '../notify-participants.js';
import { cancelPendingPrebuilt, findProcessByCode, listParticipants } from '../queries.js';
import type { CancelInput } from '../schemas.js';
import { closeProcess } from './close-process.js';

export interface CancelResult {
  /** How many processes were cancelled. */
  success: number;
  /** The codes that could not be: unknown to the organization, or no longer in signature. */
  errors: { cant: number; documents?: string[] };
}

/**
 * Cancels each process in signature or in edit mode, in its own transaction: the state, the audit line and the
 * webhook (with the reason and who), and an e-mail to the participants who had been notified.
 * A prebuilt process still waiting for its form is cancelled too: its form stops taking answers.
 */
export async function cancelProcesses(
  ctx: ServiceContext,
  options: { organizationId: string; input: CancelInput; alongside?: Alongside },
): Promise<CancelResult> {
  const { organizationId, input } = options;
  const actor = normalizeEmail(input.email);
  if (!(await findUserByEmail(ctx.db, organizationId, actor))) throw fail('USER_NOTFOUND');
  const failed: string[] = [];
  let success = 0;
  for (const code of input.codes) {
    const process = await findProcessByCode(ctx.db, organizationId, code);
    const cancelled =
      process &&
      (await withTransaction(ctx, async (trx) => {
        // Edit mode is left by cancelling too (docs/real-service.md §3.10 offers no other way out).
        const from = process.status === 'EDITING' ? 'EDITING' : 'CREATED';
        const closed = await closeProcess(trx, ctx.clock, { process, to: 'CANCELLED', from, message: input.message, actor, platform: 'API' });
        if (!closed) return false;
        await notifyCancellation(trx, ctx, { process: closed, participants: await listParticipants(trx, closed.id), reason: input.message });
        await options.alongside?.(trx);
        return true;
      }));
    // A code no process has may be a prebuilt process's that still waits: nobody was invited, so nobody is told.
    if (cancelled || (!process && (await cancelPendingPrebuilt(ctx.db, { organizationId, code, now: ctx.clock.now().toISOString() })))) success++;
    else failed.push(code);
  }
  return { success, errors: { cant: failed.length, ...(failed.length > 0 ? { documents: failed } : {}) } };
}
