import QRCode from 'qrcode';
import type { ServiceContext } from '../context.js';
import { participantLink } from '../documents/notify-participants.js';
import { findParticipantByToken } from '../documents/queries.js';
import { fail } from '../domain-error.js';
import { verifaceLink } from '../veriface/create-veriface.js';
import { findVerifaceByToken } from '../veriface/queries.js';
import type { LinkQr } from './contract.js';

/** A link as a QR code (SVG): the person's own, for the page to show so the same steps go on on a phone, or a reference link's. */
export async function qrOf(link: string): Promise<LinkQr> {
  return { svg: await QRCode.toString(link, { type: 'svg', errorCorrectionLevel: 'M', margin: 1 }) };
}

export async function signingLinkQr(ctx: ServiceContext, options: { token: string }): Promise<LinkQr> {
  const participant = await findParticipantByToken(ctx.db, options.token);
  if (!participant) throw fail('SIGNING_LINK_NOT_FOUND');
  return qrOf(participantLink(ctx, participant));
}

export async function validationLinkQr(ctx: ServiceContext, options: { token: string }): Promise<LinkQr> {
  const process = await findVerifaceByToken(ctx.db, options.token);
  if (!process) throw fail('VERIFACE_NOT_FOUND', { when: 'personLink' });
  return qrOf(verifaceLink(ctx, process));
}
