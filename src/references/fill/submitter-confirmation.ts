import type { ServiceContext } from '../../context.js';
import type { Db } from '../../db/database.js';
import type { FormConfirmationRow, ParticipantRow, ProcessRow } from '../../db/schema.js';
import { withTransaction } from '../../db/transaction.js';
import { validationsOf } from '../../documents/notify-participants.js';
import { hashCode, newOtpCode, OTP_RESEND_SECONDS, otpMessage, queueOtp, sameHash } from '../../documents/participant/signer-otp.js';
import { startNextTurn } from '../../documents/participant/turns.js';
import { addressDetail, type FromAddress, recordProcessEvent } from '../../documents/process-events.js';
import { findProcessById, listParticipants } from '../../documents/queries.js';
import { inviteReaders } from '../../documents/readers/notify-readers.js';
import { listReaders } from '../../documents/readers/queries.js';
import { fail } from '../../domain-error.js';
import { MAX_FAILURES } from '../../identity-attempts/max-failures.js';
import type { FillConfirmation } from '../../people/contract.js';
import {
  clearHoldExpiry,
  countFormConfirmationFailure,
  findFormConfirmation,
  insertFormConfirmation,
  markFormConfirmed,
  replaceFormCode,
} from './confirmation-queries.js';

/** How long the person who filled a form has to type the code; after it the process expires, having sent nothing to anyone else. */
export const CONFIRMATION_MINUTES = 60;

/** New codes a submitter may ask for after the first: a mailbox slow to deliver, not a way to message an address at will. */
export const MAX_CONFIRMATION_RESENDS = 3;

/** The instant until which a form's process made now waits for its submitter's code. */
export function confirmationDeadline(now: Date): Date {
  return new Date(now.getTime() + CONFIRMATION_MINUTES * 60_000);
}

/** The submitter's own address: their phone when their code is asked by phone or they are reached by WhatsApp only, else their e-mail. */
function mediumOf(filler: ParticipantRow): 'email' | 'phone' {
  const validations = validationsOf(filler);
  if (validations.otpCode && validations.options.otpCode === 'phone') return 'phone';
  return validations.channels.includes('email') || filler.phone === null ? 'email' : 'phone';
}

function presented(row: Pick<FormConfirmationRow, 'medium' | 'sent_to' | 'expires_at'>): FillConfirmation {
  return { medium: row.medium, to: row.sent_to, expiresAt: row.expires_at };
}

/**
 * In the transaction that makes a form's process (held: nobody invited), sends the person who
 * filled it a code at their own address, the only message that leaves before they type it back.
 * The code is kept as the signers' codes are.
 */
export async function holdForConfirmation(trx: Db, ctx: ServiceContext, options: { process: ProcessRow; filler: ParticipantRow }): Promise<FillConfirmation> {
  const { process, filler } = options;
  const medium = mediumOf(filler);
  const code = newOtpCode();
  // The language is read in this transaction: a second connection could wait on the locks it holds.
  const outgoing = await otpMessage(
    { ...ctx, db: trx },
    { process, participant: filler },
    { medium, validations: validationsOf(filler), code, minutes: CONFIRMATION_MINUTES },
  );
  await queueOtp(trx, ctx, { process, participant: filler, outgoing });
  const row = {
    process_id: process.id,
    organization_id: process.organization_id,
    participant_id: filler.id,
    medium,
    sent_to: medium === 'phone' ? (filler.phone ?? filler.email) : filler.email,
    code_hash: hashCode(filler, code),
    sent_at: ctx.clock.now().toISOString(),
    expires_at: process.expires_at ?? confirmationDeadline(ctx.clock.now()).toISOString(),
    confirmed_at: null,
    created_at: process.created_at,
  };
  await insertFormConfirmation(trx, row);
  await recordProcessEvent(trx, ctx.clock, {
    process,
    action: 'OTP_SENT',
    participant: filler,
    platform: outgoing.platform,
    detail: { medium, confirms: 'form' },
  });
  return presented(row);
}

/**
 * The submission's confirmation while its code can still be typed, with the person who filled the
 * form; undefined once confirmed (both calls then answer as confirmed and do nothing).
 */
async function awaitedConfirmation(
  ctx: ServiceContext,
  process: Pick<ProcessRow, 'id' | 'organization_id'>,
): Promise<{ row: FormConfirmationRow; filler: ParticipantRow } | undefined> {
  const row = await findFormConfirmation(ctx.db, process.organization_id, process.id);
  if (!row) throw fail('FILL_SUBMISSION_NOT_FOUND');
  if (row.confirmed_at !== null) return undefined;
  if (row.expires_at <= ctx.clock.now().toISOString() || row.failures >= MAX_FAILURES) throw fail('FILL_CONFIRMATION_EXPIRED');
  const filler = (await listParticipants(ctx.db, process.id)).find((participant) => participant.id === row.participant_id);
  if (!filler) throw new Error('a form confirmation without its participant');
  return { row, filler };
}

/**
 * Sends the person who filled the form a new code at the same address, the one before it no longer
 * valid: at most MAX_CONFIRMATION_RESENDS times, OTP_RESEND_SECONDS apart, while the submission is
 * still awaited (the hour it has does not grow). A confirmed submission sends nothing.
 */
export async function resendConfirmationCode(ctx: ServiceContext, options: { process: Pick<ProcessRow, 'id' | 'organization_id'> }): Promise<void> {
  const awaited = await awaitedConfirmation(ctx, options.process);
  if (!awaited) return;
  const { row, filler } = awaited;
  if (row.resends >= MAX_CONFIRMATION_RESENDS) throw fail('FILL_CODE_RESENDS_USED_UP');
  const held = await findProcessById(ctx.db, row.process_id);
  if (!held) throw new Error('a form confirmation without its process');
  const at = ctx.clock.now();
  const now = at.toISOString();
  const code = newOtpCode();
  const outgoing = await otpMessage(
    ctx,
    { process: held, participant: filler },
    { medium: row.medium, validations: validationsOf(filler), code, minutes: CONFIRMATION_MINUTES },
  );
  await withTransaction(ctx, async (trx) => {
    const sentBefore = new Date(at.getTime() - OTP_RESEND_SECONDS * 1000).toISOString();
    const replaced = await replaceFormCode(trx, {
      processId: row.process_id,
      codeHash: hashCode(filler, code),
      now,
      sentBefore,
      maxFailures: MAX_FAILURES,
      maxResends: MAX_CONFIRMATION_RESENDS,
    });
    if (!replaced) throw fail('OTP_TOO_SOON');
    await queueOtp(trx, ctx, { process: held, participant: filler, outgoing });
    await recordProcessEvent(trx, ctx.clock, {
      process: held,
      action: 'OTP_SENT',
      participant: filler,
      platform: outgoing.platform,
      detail: { medium: row.medium, confirms: 'form', resent: 1 },
    });
  });
}

/** What a form's submission answers while its code is awaited: the code's medium and address instead of any link. */
export async function pendingConfirmation(ctx: ServiceContext, process: Pick<ProcessRow, 'id' | 'organization_id'>): Promise<FillConfirmation | undefined> {
  const row = await findFormConfirmation(ctx.db, process.organization_id, process.id);
  return row && row.confirmed_at === null ? presented(row) : undefined;
}

/** Starts the process the submitter confirmed, as an awaited PDF's arrival does: the first turn and the readers are invited. */
async function release(trx: Db, ctx: ServiceContext, options: { row: FormConfirmationRow; filler: ParticipantRow; from: FromAddress }): Promise<void> {
  const { row, filler } = options;
  const process = await findProcessById(trx, row.process_id);
  if (process?.status !== 'CREATED') throw fail('FILL_CONFIRMATION_EXPIRED');
  await clearHoldExpiry(trx, process.id);
  const started = { ...process, expires_at: null };
  const from = addressDetail(options.from);
  await recordProcessEvent(trx, ctx.clock, { process: started, action: 'OTP_VERIFIED', participant: filler, detail: { confirms: 'form', ...from } });
  await startNextTurn(trx, ctx, started);
  await inviteReaders(trx, ctx, { process: started, readers: await listReaders(trx, process.id, 'READER') });
}

/**
 * Checks the code the person who filled the form typed: right, and the process starts (its others
 * invited); wrong, and it is counted, the third ending the submission for good (it then expires,
 * having sent nothing to anyone else). A confirmed submission answers again as confirmed.
 */
export async function confirmHeldProcess(
  ctx: ServiceContext,
  options: { process: Pick<ProcessRow, 'id' | 'organization_id'>; code: string } & FromAddress,
): Promise<void> {
  const { process } = options;
  const awaited = await awaitedConfirmation(ctx, process);
  if (!awaited) return;
  const { row, filler } = awaited;
  const now = ctx.clock.now().toISOString();
  const given = hashCode(filler, options.code);
  if (sameHash(row.code_hash, given)) {
    await withTransaction(ctx, async (trx) => {
      if (await markFormConfirmed(trx, { processId: row.process_id, codeHash: given, maxFailures: MAX_FAILURES, now })) {
        await release(trx, ctx, { row, filler, from: options });
        return;
      }
      const fresh = await findFormConfirmation(trx, process.organization_id, process.id);
      if (fresh?.confirmed_at === null) throw fail('FILL_CONFIRMATION_EXPIRED');
    });
    return;
  }
  const failures = await withTransaction(ctx, async (trx) => {
    const counted = await countFormConfirmationFailure(trx, { processId: row.process_id, maxFailures: MAX_FAILURES });
    const held = await findProcessById(trx, row.process_id);
    if (counted !== undefined && held) {
      await recordProcessEvent(trx, ctx.clock, {
        process: held,
        action: 'OTP_FAILED',
        participant: filler,
        detail: { confirms: 'form', failures: counted, ...addressDetail(options) },
      });
    }
    return counted;
  });
  if (failures === undefined || failures >= MAX_FAILURES) throw fail('FILL_CONFIRMATION_EXPIRED');
  throw fail('OTP_CODE_INVALID', `${MAX_FAILURES - failures} attempts left`);
}
