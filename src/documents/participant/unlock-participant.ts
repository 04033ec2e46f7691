import type { ServiceContext } from '../../context.js';
import type { ParticipantRow } from '../../db/schema.js';
import { type Alongside, withTransaction } from '../../db/transaction.js';
import { fail } from '../../domain-error.js';
import { normalizeEmail } from '../../organizations/organizations.js';
import { findUserByEmail } from '../../organizations/queries.js';
import { closeProcess } from '../lifecycle/close-process.js';
import { notifyCancellation } from '../notify-participants.js';
import { recordProcessEvent } from '../process-events.js';
import { findProcessByCode, listParticipants, type ParticipantPatch, updateParticipant } from '../queries.js';
import { PROCESS_CODE_LENGTH, type UnlockInput } from '../schemas.js';
import { lockProcess } from './signer-queries.js';

/** The reason recorded when the organization rejects a blocked participant's identity. */
export const IDENTITY_REJECTED = 'IDENTITY_REJECTED';

/** The reason a block was made for, and what approving it by hand verifies. */
function approvedIdentity(participant: ParticipantRow, now: string): ParticipantPatch {
  if (participant.block_reason === 'OTP_CODE_INVALID') return { otp_verified_at: now, otp_hash: null, otp_expires_at: null };
  return { camera_verified_at: now };
}

/** Everything the identity steps collected, so that they start again from nothing. */
const RESET: ParticipantPatch = {
  otp_hash: null,
  otp_expires_at: null,
  otp_failures: 0,
  otp_sent_at: null,
  face_key: null,
  document_front_key: null,
  document_back_key: null,
  similarity: null,
  camera_failures: 0,
  camera_last_failure: null,
};

/**
 * A registered user of the organization decides a participant blocked during identity validation
 * (docs/real-service.md §3.9): `approve` accepts the identity the block was about and lets them sign,
 * `reset` clears their attempts so the steps start again, `reject` rejects them (and so the
 * process), `cancel` cancels the process. Each is one transaction with its audit line and webhook.
 */
export async function unlockParticipant(
  ctx: ServiceContext,
  options: { organizationId: string; input: UnlockInput; alongside?: Alongside },
): Promise<{ message: 'OK' }> {
  const { organizationId, input } = options;
  const reviewer = normalizeEmail(input.email);
  if (input.code.length === PROCESS_CODE_LENGTH) throw fail('MISSING_SIGNER_ID');
  if (!(await findUserByEmail(ctx.db, organizationId, reviewer))) throw fail('USER_NOTFOUND');
  const found = await findProcessByCode(ctx.db, organizationId, input.code.slice(0, PROCESS_CODE_LENGTH));
  if (!found) throw fail('DOCUMENT_NOT_FOUND', { when: 'elsewhere' });
  const participantId = input.code.slice(PROCESS_CODE_LENGTH);
  await withTransaction(ctx, async (trx) => {
    const process = await lockProcess(trx, ctx.dialect, found.id);
    const participant = (await listParticipants(trx, found.id)).find((p) => p.participant_id === participantId);
    if (!process || !participant) throw fail('SIGNER_NOT_FOUND');
    if (process.status !== 'CREATED') throw fail('DOCUMENT_NOT_IN_SIGNATURE');
    if (participant.status !== 'BLOCK') throw fail('NOT_BLOCKED_PROCESS');
    const now = ctx.clock.now().toISOString();
    const change = async (patch: ParticipantPatch): Promise<ParticipantRow> => {
      if (!(await updateParticipant(trx, participant.id, { ...patch, updated_at: now }, ['BLOCK']))) throw fail('NOT_BLOCKED_PROCESS');
      return { ...participant, ...patch, updated_at: now };
    };
    if (input.status === 'cancel') {
      // As POST /document/cancel does: the participants who had been notified are told why.
      const closed = await closeProcess(trx, ctx.clock, { process, to: 'CANCELLED', message: input.message, actor: reviewer, platform: 'API' });
      if (closed) await notifyCancellation(trx, ctx, { process: closed, participants: await listParticipants(trx, closed.id), reason: input.message ?? '' });
      await options.alongside?.(trx);
      return;
    }
    if (input.status === 'reject') {
      const rejected = await change({ status: 'REJECT', rejected_at: now, reject_reason: IDENTITY_REJECTED });
      await closeProcess(trx, ctx.clock, { process, to: 'REJECTED', participant: rejected, message: IDENTITY_REJECTED, actor: reviewer });
      await options.alongside?.(trx);
      return;
    }
    const patch = input.status === 'approve' ? approvedIdentity(participant, now) : RESET;
    const unlocked = await change({ ...patch, status: 'NOTIFICATION', block_reason: null });
    await recordProcessEvent(trx, ctx.clock, {
      process,
      action: 'PARTICIPANT_UNLOCK',
      participant: unlocked,
      actor: reviewer,
      ...(input.message === undefined ? {} : { message: input.message }),
      detail: { decision: input.status, block: participant.block_reason },
    });
    await options.alongside?.(trx);
  });
  return { message: 'OK' };
}
