import type { ServiceContext } from '../context.js';
import { withTransaction } from '../db/transaction.js';
import { participantLink } from '../documents/notify-participants.js';
import { findSigning } from '../documents/participant/signer-access.js';
import { fail } from '../domain-error.js';
import { renderMessage, templatedEmail } from '../messages/message-templates.js';
import { whatsAppMessage } from '../messages/whatsapp-message.js';
import { type Language, languageOfPerson } from '../organizations/settings.js';
import { enqueue, type NewMessage } from '../outbox/enqueue.js';
import type { WhatsAppAbout } from '../outbox/types.js';
import { verifaceLink } from '../veriface/create-veriface.js';
import { findVerifaceByToken } from '../veriface/queries.js';
import type { LinkSent, PhoneChannel } from './contract.js';

/**
 * The link, to the phone number the organization gave for the person and to no other: the page
 * offers it to continue on a phone, and nobody can use it to message a number of their choosing.
 */
function toPhone(
  ctx: ServiceContext,
  options: {
    organizationId: string;
    phone: string;
    channel: PhoneChannel;
    name: string;
    processName: string;
    link: string;
    language: Language;
    about: WhatsAppAbout;
  },
): NewMessage {
  const text = renderMessage('continue-on-phone', { processName: options.processName, link: options.link }, options.language).text;
  if (options.channel === 'sms') return { kind: 'sms', organizationId: options.organizationId, payload: { to: options.phone, text } };
  const payload = whatsAppMessage(ctx.whatsappTemplates, {
    to: options.phone,
    purpose: 'signingInvitation',
    parameters: [options.name, options.processName, options.link],
    text,
    about: options.about,
  });
  return { kind: 'whatsapp', organizationId: options.organizationId, payload };
}

async function send(ctx: ServiceContext, message: NewMessage): Promise<LinkSent> {
  await withTransaction(ctx, (trx) => enqueue(trx, ctx.clock, [message]));
  return { sent: true };
}

export async function sendSigningLinkToPhone(ctx: ServiceContext, options: { token: string; channel: PhoneChannel }): Promise<LinkSent> {
  const { participant, process } = await findSigning(ctx, options.token);
  if (participant.phone === null) throw fail('PHONE_NOT_ON_RECORD');
  return send(
    ctx,
    toPhone(ctx, {
      organizationId: process.organization_id,
      phone: participant.phone,
      channel: options.channel,
      name: participant.name,
      processName: process.name,
      link: participantLink(ctx, participant),
      language: await languageOfPerson(ctx.db, process.organization_id, participant.language),
      about: { purpose: 'link', processId: process.id, participantId: participant.id },
    }),
  );
}

export async function sendValidationLinkToPhone(ctx: ServiceContext, options: { token: string; channel: PhoneChannel }): Promise<LinkSent> {
  const process = await findVerifaceByToken(ctx.db, options.token);
  if (!process) throw fail('VERIFACE_NOT_FOUND', { when: 'personLink' });
  return send(
    ctx,
    toPhone(ctx, {
      organizationId: process.organization_id,
      phone: process.phone,
      channel: options.channel,
      name: process.name,
      processName: process.name,
      link: verifaceLink(ctx, process),
      language: await languageOfPerson(ctx.db, process.organization_id, process.language),
      about: { purpose: 'link', verifaceId: process.id },
    }),
  );
}

/** A copy for the participant's records: their own page, where the document can be read and downloaded at any time. */
export async function emailSigningCopy(ctx: ServiceContext, options: { token: string }): Promise<LinkSent> {
  const { participant, process } = await findSigning(ctx, options.token);
  return send(ctx, {
    kind: 'email',
    organizationId: process.organization_id,
    payload: templatedEmail(
      participant.email,
      'document-copy',
      { signerName: participant.name, processName: process.name, link: participantLink(ctx, participant) },
      await languageOfPerson(ctx.db, process.organization_id, participant.language),
    ),
  });
}
