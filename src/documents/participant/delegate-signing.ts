import type { ServiceContext } from '../../context.js';
import type { ParticipantRow } from '../../db/schema.js';
import { fail } from '../../domain-error.js';
import { newCode, newObjectId, newToken } from '../../ids.js';
import { readSettings } from '../../organizations/settings.js';
import type { Delegated, DelegateInput } from '../../people/contract.js';
import { endParticipantChat } from '../../whatsapp/conversation/chat-queries.js';
import { listPlaceAttachments } from '../attachments/queries.js';
import type { EffectiveValidations } from '../identity-validations.js';
import { notifyParticipants, validationsOf } from '../notify-participants.js';
import { addressDetail, type FromAddress, recordProcessEvent } from '../process-events.js';
import { listParticipants } from '../queries.js';
import { PARTICIPANT_ID_LENGTH } from '../schemas.js';
import { handOverPlace, insertDelegation } from './delegation-queries.js';
import { changeSigning, loadSigning } from './signer-access.js';

/** What the delegate must be given beside a name and an e-mail, from the place's validations. */
export function delegateNeeds(validations: EffectiveValidations): { phone: boolean; identification: boolean } {
  return {
    phone: validations.channels.includes('whatsapp') || (validations.otpCode && validations.options.otpCode === 'phone'),
    identification: validations.camera && validations.options.camera === 'identification',
  };
}

/** Whether the organization of the process lets its signers hand their place on. */
export async function delegationAllowed(ctx: Pick<ServiceContext, 'db'>, organizationId: string): Promise<boolean> {
  return (await readSettings(ctx.db, organizationId))?.signerDelegation === true;
}

/** Once a code was checked or a photo taken, the evidence is the holder's own: it is not handed on with the place. */
export function identityStepsBegun(participant: ParticipantRow): boolean {
  return (
    participant.otp_verified_at !== null ||
    participant.otp_failures > 0 ||
    participant.camera_failures > 0 ||
    participant.face_key !== null ||
    participant.document_front_key !== null ||
    participant.document_back_key !== null
  );
}

const sameText = (a: string | null, b: string | null | undefined) => a !== null && b !== undefined && b !== null && a.toLowerCase() === b.toLowerCase();

/**
 * A signer hands their place to another person (docs/real-service.md §3.5 UPDATE_SIGNER), when
 * their organization allows it, while it is their turn and before their identity steps began. The
 * place keeps its role, order, boxes and validations; the new person gets a new participant id and
 * link, and is invited through the place's channels; the former link opens nothing from then on
 * (the page says the place was handed over). Under the process lock, one transaction: the place,
 * the record of who held it, the UPDATE_SIGNER line with its webhook and readers' update, and the
 * invitation.
 */
export async function delegateSigning(ctx: ServiceContext, options: { token: string; input: DelegateInput } & FromAddress): Promise<Delegated> {
  const { input } = options;
  const signing = await loadSigning(ctx, options.token);
  if (signing.participant.role !== 'SIGNER' || !(await delegationAllowed(ctx, signing.process.organization_id))) throw fail('DELEGATION_NOT_ALLOWED');
  const needs = delegateNeeds(validationsOf(signing.participant));
  if (needs.phone && input.phone === undefined) throw fail('DELEGATE_PHONE_REQUIRED');
  if (needs.identification && (input.identification === undefined || input.identificationType === undefined || input.country === undefined)) {
    throw fail('DELEGATE_IDENTIFICATION_REQUIRED');
  }
  return changeSigning(ctx, signing, async ({ trx, fresh, now }) => {
    const former = fresh.participant;
    // A file the holder attached is theirs too, like their photos: the place goes on without it, or not at all.
    if (identityStepsBegun(former) || (await listPlaceAttachments(trx, former.id)).some((file) => file.file_key !== null)) throw fail('DELEGATION_TOO_LATE');
    const everyone = await listParticipants(trx, fresh.process.id);
    if (everyone.some((p) => sameText(p.email, input.email) || sameText(p.phone, input.phone))) throw fail('DELEGATE_ALREADY_TAKES_PART');
    const taken = new Set(everyone.map((p) => p.participant_id));
    let participantId = newCode(PARTICIPANT_ID_LENGTH);
    while (taken.has(participantId)) participantId = newCode(PARTICIPANT_ID_LENGTH);
    const holder = {
      participant_id: participantId,
      link_token: newToken(),
      name: input.name,
      email: input.email,
      phone: input.phone ?? null,
      identification: input.identification ?? null,
      identification_type: input.identificationType ?? null,
      country: input.country ?? null,
    };
    // The process lock makes a lost race unreachable here; the condition still guarantees it.
    if (!(await handOverPlace(trx, { id: former.id, formerToken: former.link_token, holder, at: now }))) {
      throw fail('SIGNING_CONFLICT', 'the participant changed meanwhile, try again');
    }
    await insertDelegation(trx, {
      id: newObjectId(new Date(now)),
      process_id: fresh.process.id,
      participant_row_id: former.id,
      former_participant_id: former.participant_id,
      former_name: former.name,
      former_email: former.email,
      former_phone: former.phone,
      former_link_token: former.link_token,
      reason: input.reason,
      created_at: now,
    });
    await endParticipantChat(trx, former.id, now);
    const delegate: ParticipantRow = {
      ...former,
      ...holder,
      notification: 1,
      opened_at: null,
      otp_hash: null,
      otp_expires_at: null,
      otp_sent_at: null,
      signature_key: null,
      updated_at: now,
    };
    await recordProcessEvent(trx, ctx.clock, {
      process: fresh.process,
      action: 'UPDATE_SIGNER',
      participant: former,
      delegate,
      actor: former.email,
      message: input.reason,
      detail: { formerHolder: former.name, newHolder: delegate.name, ...addressDetail(options) },
    });
    await notifyParticipants(trx, ctx, { process: fresh.process, participants: [delegate], occasion: 'invitation' });
    return { delegated: true, to: delegate.name };
  });
}
