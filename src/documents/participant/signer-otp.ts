import crypto from 'node:crypto';
import type { ServiceContext } from '../../context.js';
import type { Db } from '../../db/database.js';
import type { ParticipantRow } from '../../db/schema.js';
import { type DomainError, fail } from '../../domain-error.js';
import { MAX_FAILURES } from '../../identity-attempts/max-failures.js';
import { renderMessage, templatedEmail } from '../../messages/message-templates.js';
import { languageOfPerson } from '../../organizations/settings.js';
import { enqueue, type NewMessage } from '../../outbox/enqueue.js';
import { codeContent } from '../../whatsapp/conversation/invitations.js';
import type { OutgoingChatContent } from '../../whatsapp/message/chat-message.js';
import { queueChatMessage } from '../../whatsapp/queue-chat.js';
import type { EffectiveValidations, OtpMedium } from '../identity-validations.js';
import { validationsOf } from '../notify-participants.js';
import { addressDetail, type FromAddress, recordProcessEvent } from '../process-events.js';
import { changeSigning, loadSigning, type Signing, type SigningView, signingView } from './signer-access.js';
import { consumeOtp, countFailure, storeOtp } from './signer-queries.js';

export const OTP_LIFETIME_MINUTES = 10;
/** A new code at most this often, so the link cannot be used to flood someone's phone or inbox. */
export const OTP_RESEND_SECONDS = 30;

/**
 * Salted with the participant's row id so that one hash says nothing about another participant's
 * code; the code itself exists only in the message that carries it.
 */
export function hashCode(participant: Pick<ParticipantRow, 'id'>, code: string): string {
  return crypto.createHash('sha256').update(`${participant.id}:${code}`).digest('hex');
}

export function sameHash(stored: string, given: string): boolean {
  const a = Buffer.from(stored, 'hex');
  const b = Buffer.from(given, 'hex');
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

/** Six digits, as every code the service sends people. */
export function newOtpCode(): string {
  return crypto.randomInt(0, 1_000_000).toString().padStart(6, '0');
}

export type OtpOutgoing =
  | { platform: 'EMAIL' | 'SMS'; message: NewMessage }
  /** In the participant's WhatsApp conversation, where their flow runs and the code is typed back. */
  | { platform: 'WHATSAPP'; chat: { to: string; content: OutgoingChatContent } };

/** The code by e-mail, or to the phone: in the WhatsApp conversation for participants who use it, by SMS otherwise. */
export async function otpMessage(
  ctx: ServiceContext,
  signing: Signing,
  options: { medium: OtpMedium; validations: EffectiveValidations; code: string; minutes: number },
): Promise<OtpOutgoing> {
  const { process, participant } = signing;
  const organizationId = process.organization_id;
  const variables = { code: options.code, minutes: options.minutes };
  const language = await languageOfPerson(ctx.db, organizationId, participant.language);
  if (options.medium === 'email') {
    return {
      platform: 'EMAIL',
      message: { kind: 'email', organizationId, payload: templatedEmail(participant.email, 'otp-code', variables, language) },
    };
  }
  // Creation refuses a phone code without a phone (identity-validations.ts), so this is a broken row.
  if (participant.phone === null) throw new Error('participant asked for a phone code has no phone');
  if (options.validations.options.whatsapp) {
    return { platform: 'WHATSAPP', chat: { to: participant.phone, content: codeContent(ctx, { language, ...variables }) } };
  }
  const text = renderMessage('otp-code', variables, language).text;
  return { platform: 'SMS', message: { kind: 'sms', organizationId, payload: { to: participant.phone, text } } };
}

/** Queues the code's message in the caller's transaction. */
export async function queueOtp(db: Db, ctx: Pick<ServiceContext, 'clock'>, options: Signing & { outgoing: OtpOutgoing }): Promise<void> {
  const { process, participant, outgoing } = options;
  if ('chat' in outgoing) {
    await queueChatMessage(db, ctx.clock, {
      organizationId: process.organization_id,
      purpose: 'code',
      processId: process.id,
      participantId: participant.id,
      ...outgoing.chat,
    });
  } else {
    await enqueue(db, ctx.clock, [outgoing.message]);
  }
}

/**
 * Sends a new one-time code by the participant's medium. Only its SHA-256 is kept, for ten
 * minutes; a new code replaces the previous one. Failures are not reset by a new code, so asking
 * for codes does not buy more guesses.
 */
export async function requestOtp(ctx: ServiceContext, options: { token: string } & FromAddress): Promise<{ medium: OtpMedium; expiresAt: string }> {
  const signing = await loadSigning(ctx, options.token);
  const validations = validationsOf(signing.participant);
  const medium = validations.otpCode ? validations.options.otpCode : undefined;
  if (medium === undefined) throw fail('OTP_NOT_REQUIRED');
  if (signing.participant.otp_verified_at !== null) throw fail('OTP_ALREADY_VERIFIED');
  const code = newOtpCode();
  const outgoing = await otpMessage(ctx, signing, { medium, validations, code, minutes: OTP_LIFETIME_MINUTES });
  return changeSigning(ctx, signing, async ({ trx, fresh, now }) => {
    const participant = fresh.participant;
    if (participant.otp_verified_at !== null) throw fail('OTP_ALREADY_VERIFIED');
    const at = new Date(now).getTime();
    const expiresAt = new Date(at + OTP_LIFETIME_MINUTES * 60_000).toISOString();
    const sentBefore = new Date(at - OTP_RESEND_SECONDS * 1000).toISOString();
    if (!(await storeOtp(trx, participant.id, { hash: hashCode(participant, code), expiresAt, sentAt: now, sentBefore }))) {
      throw fail('OTP_TOO_SOON');
    }
    await queueOtp(trx, ctx, { process: fresh.process, participant, outgoing });
    await recordProcessEvent(trx, ctx.clock, {
      process: fresh.process,
      action: 'OTP_SENT',
      participant,
      platform: outgoing.platform,
      detail: { medium, expiresAt, ...addressDetail(options) },
    });
    return { medium, expiresAt };
  });
}

type VerifyOutcome = { verified: Signing } | { refused: DomainError };

/**
 * Checks the code: right once (it is then forgotten); each wrong one is counted and recorded, and
 * the third blocks the participant. The failures are committed before the call is refused.
 */
export async function verifyOtp(ctx: ServiceContext, options: { token: string; code: string } & FromAddress): Promise<SigningView> {
  const signing = await loadSigning(ctx, options.token);
  if (!validationsOf(signing.participant).otpCode) throw fail('OTP_NOT_REQUIRED');
  const outcome = await changeSigning(ctx, signing, async ({ trx, fresh, now, update }): Promise<VerifyOutcome> => {
    const { process, participant } = fresh;
    if (participant.otp_verified_at !== null) throw fail('OTP_ALREADY_VERIFIED');
    const stored = participant.otp_hash;
    if (stored === null || participant.otp_expires_at === null || participant.otp_expires_at <= now) throw fail('OTP_CODE_EXPIRED');
    if (sameHash(stored, hashCode(participant, options.code.trim()))) {
      if (!(await consumeOtp(trx, participant.id, stored, now))) throw fail('OTP_CODE_EXPIRED');
      const verified: ParticipantRow = { ...participant, otp_hash: null, otp_expires_at: null, otp_verified_at: now, updated_at: now };
      const from = addressDetail(options);
      await recordProcessEvent(trx, ctx.clock, { process, action: 'OTP_VERIFIED', participant: verified, ...(from.ip ? { detail: from } : {}) });
      return { verified: { process, participant: verified } };
    }
    const failures = await countFailure(trx, participant.id, 'otp_failures', now);
    if (failures === undefined) throw fail('SIGNING_CONFLICT', 'the participant changed meanwhile, try again');
    await recordProcessEvent(trx, ctx.clock, { process, action: 'OTP_FAILED', participant, detail: { failures, ...addressDetail(options) } });
    if (failures < MAX_FAILURES) return { refused: fail('OTP_CODE_INVALID') };
    const blocked = await update({ status: 'BLOCK', block_reason: 'OTP_CODE_INVALID', otp_hash: null, otp_expires_at: null, otp_failures: failures });
    await recordProcessEvent(trx, ctx.clock, { process, action: 'PARTICIPANT_BLOCK', participant: blocked, message: 'OTP_CODE_INVALID' });
    return { refused: fail('PARTICIPANT_BLOCKED') };
  });
  if ('refused' in outcome) throw outcome.refused;
  return signingView(ctx, outcome.verified);
}
