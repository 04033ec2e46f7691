import type { ServiceContext } from '../../context.js';
import { withTransaction } from '../../db/transaction.js';
import { fail } from '../../domain-error.js';
import { notifyParticipants } from '../notify-participants.js';
import { participantDone } from '../participant/signer-flow.js';
import { lockProcess } from '../participant/signer-queries.js';
import { recordProcessEvent } from '../process-events.js';
import { findProcessByCode, listDocuments, listParticipants, updateParticipant } from '../queries.js';
import { isGiven } from './attachments-asked.js';
import { listPlaceAttachments, recordReview } from './queries.js';

export interface ReviewInput {
  userId: string;
  approve: boolean;
  /** Why the files are rejected: the participant reads it when asked for them again. */
  reason?: string;
  /** The names of the files reviewed; all the participant gave when absent. */
  files?: string[];
}

/**
 * The creator's review of the files a participant gave (REFERENCE §5: "in the attachments flow the
 * only approver is the person who created the process"; the private key acts for them). Approved
 * files are final. Rejected ones are asked again: the participant's link works again for them,
 * and they are sent their invitation again with the reason as its message. A participant who
 * signed a document with their files cannot have them rejected: the signature covers them. In a
 * process without a document, approving the last file of the last participant done finishes it.
 * Under the process lock, one transaction with its audit line and webhook.
 */
export async function reviewAttachments(
  ctx: ServiceContext,
  options: { organizationId: string; code: string; input: ReviewInput },
): Promise<{ status: 'approved' | 'rejected'; attachments: string[]; finish: boolean }> {
  const { input } = options;
  const found = await findProcessByCode(ctx.db, options.organizationId, options.code);
  if (!found) throw fail('ATTACHMENT_NOT_FOUND');
  return withTransaction(ctx, async (trx) => {
    const process = await lockProcess(trx, ctx.dialect, found.id);
    if (!process) throw fail('ATTACHMENT_NOT_FOUND');
    const participant = (await listParticipants(trx, process.id)).find((p) => p.participant_id === input.userId);
    const rows = participant ? await listPlaceAttachments(trx, participant.id) : [];
    if (!participant || rows.length === 0) throw fail('ATTACHMENT_NOT_FOUND');
    if (process.status !== 'CREATED') throw fail('DOCUMENT_NOT_IN_SIGNATURE');
    const unknown = (input.files ?? []).find((name) => !rows.some((row) => row.name.toLowerCase() === name.toLowerCase()));
    if (unknown !== undefined) throw fail('ATTACHMENT_UNKNOWN', `${participant.participant_id} is asked no file named "${unknown}"`);
    const named = input.files === undefined ? rows : rows.filter((row) => input.files?.some((name) => name.toLowerCase() === row.name.toLowerCase()));
    const reviewed = named.filter(isGiven);
    if (reviewed.length === 0 || reviewed.length < (input.files?.length ?? 0)) throw fail('ATTACHMENT_NOT_GIVEN');
    const withDocument = (await listDocuments(trx, process.id)).length > 0;
    if (!input.approve && withDocument && participant.status === 'FINISH') throw fail('ATTACHMENTS_FINAL');

    const now = ctx.clock.now().toISOString();
    const names = reviewed.map((row) => row.name);
    const ids = reviewed.map((row) => row.id);
    const detail = { attachments: names, sha256: reviewed.map((row) => row.sha256) };
    if (input.approve) {
      await recordReview(trx, ids, { review: 'approved', review_reason: null, reviewed_at: now });
      await recordProcessEvent(trx, ctx.clock, {
        process,
        action: 'ATTACHMENTS_APPROVED',
        participant,
        actor: process.creator_email,
        platform: 'API',
        message: names.join(', '),
        detail,
      });
      const status = await participantDone(trx, ctx, process);
      return { status: 'approved' as const, attachments: names, finish: status !== 'CREATED' };
    }
    const reason = input.reason ?? '';
    await recordReview(trx, ids, { review: 'rejected', review_reason: reason, reviewed_at: now });
    await recordProcessEvent(trx, ctx.clock, {
      process,
      action: 'ATTACHMENTS_REJECTED',
      participant,
      actor: process.creator_email,
      platform: 'API',
      message: reason,
      detail,
    });
    let asked = participant;
    if (participant.status === 'FINISH') {
      // Done with their files (a process without a document): their turn opens again for the files asked anew.
      const reopened = { status: 'NOTIFICATION' as const, signed_at: null, updated_at: now };
      await updateParticipant(trx, participant.id, reopened, ['FINISH']);
      asked = { ...participant, ...reopened };
    }
    await notifyParticipants(trx, ctx, { process: { ...process, message: reason }, participants: [asked], occasion: 'invitation' });
    return { status: 'rejected' as const, attachments: names, finish: false };
  });
}
