import type { ServiceContext } from '../context.js';
import type { VerifaceRow } from '../db/schema.js';
import { type Alongside, withTransaction } from '../db/transaction.js';
import { fail } from '../domain-error.js';
import { normalizeEmail } from '../organizations/organizations.js';
import { findUserByEmail } from '../organizations/queries.js';
import { decideBlocked, findVerifaceByCode } from './queries.js';
import type { ReviewVerifaceInput } from './schemas.js';
import { recordStage } from './stages.js';

/**
 * A registered user of the organization decides a BLOCKED face validation by hand: approve makes it
 * VALIDATED, reject INVALIDATED. The decision, who made it and why are kept, shown by GET /veriface
 * (emailValidated) and sent as the `veriface.validated` or `veriface.invalidated` webhook.
 */
export async function reviewVeriface(
  ctx: ServiceContext,
  options: { organizationId: string; input: ReviewVerifaceInput; alongside?: Alongside },
): Promise<{ code: string; status: VerifaceRow['status']; emailValidated: string }> {
  const { organizationId, input } = options;
  const reviewer = normalizeEmail(input.email);
  if (!(await findUserByEmail(ctx.db, organizationId, reviewer))) throw fail('USER_NOTFOUND');
  const process = await findVerifaceByCode(ctx.db, organizationId, input.code);
  if (!process) throw fail('VERIFACE_NOT_FOUND', { when: 'elsewhere' });
  const approved = input.decision === 'approve';
  const decided: VerifaceRow = {
    ...process,
    status: approved ? 'VALIDATED' : 'INVALIDATED',
    email_validated: reviewer,
    review_reason: input.reason ?? null,
    updated_at: ctx.clock.now().toISOString(),
  };
  await withTransaction(ctx, async (trx) => {
    // Checked in the update itself: of two reviews at once, the second finds it decided.
    if (!(await decideBlocked(trx, process.id, decided))) throw fail('VERIFACE_NOT_BLOCKED');
    await recordStage(trx, ctx.clock, {
      process: decided,
      stage: approved ? 'validated' : 'invalidated',
      detail: { emailValidated: reviewer, ...(input.reason === undefined ? {} : { reason: input.reason }) },
    });
    await options.alongside?.(trx);
  });
  return { code: process.code, status: decided.status, emailValidated: reviewer };
}
