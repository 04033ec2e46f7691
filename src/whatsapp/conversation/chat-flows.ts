import type { ServiceContext } from '../../context.js';
import type { ChatFlowRow, ParticipantRow, ProcessRow, VerifaceRow } from '../../db/schema.js';
import { validationsOf } from '../../documents/notify-participants.js';
import { ensureChatFlow, participantsOfNumber, verifacesOfNumber } from './chat-queries.js';
import { type FlowVoice, voiceOf } from './flow-voice.js';

export interface SigningFlow {
  kind: 'signing';
  chat: ChatFlowRow;
  process: ProcessRow;
  participant: ParticipantRow;
  voice: FlowVoice;
}

export interface VerifaceFlow {
  kind: 'veriface';
  chat: ChatFlowRow;
  veriface: VerifaceRow;
  voice: FlowVoice;
}

export type Flow = SigningFlow | VerifaceFlow;

/** Meta gives the sender's number as digits with the country code; the service keeps +[country code][number]. */
export function numberOf(from: string): string | undefined {
  const digits = from.replace(/\D/g, '');
  return digits.length >= 8 && digits.length <= 15 ? `+${digits}` : undefined;
}

function pastExpiry(expiresAt: string | null, now: string): boolean {
  return expiresAt !== null && expiresAt <= now;
}

/**
 * The flows the number may act in now or later, oldest first: participants of a process in
 * signature whose flow runs through WhatsApp (their turn or still to come), and face validations on
 * the WhatsApp platform in progress, in any organization. Only the number's own: a flow is the
 * number's because its participant or validation was created with that phone.
 */
export async function openFlowsOf(ctx: ServiceContext, phone: string): Promise<Flow[]> {
  const now = ctx.clock.now().toISOString();
  const [signings, verifaces] = await Promise.all([participantsOfNumber(ctx.db, phone), verifacesOfNumber(ctx.db, phone)]);
  const flows: Flow[] = [];
  for (const { participant, process } of signings) {
    if (pastExpiry(process.expires_at, now) || !validationsOf(participant).options.whatsapp) continue;
    const chat = await ensureChatFlow(ctx.db, { owner: { participantRowId: participant.id }, phone, organizationId: process.organization_id, now });
    flows.push({
      kind: 'signing',
      chat,
      process,
      participant,
      voice: await voiceOf(ctx, process.organization_id, process.creator_email, participant.language),
    });
  }
  for (const veriface of verifaces) {
    if (pastExpiry(veriface.expires_at, now)) continue;
    const chat = await ensureChatFlow(ctx.db, { owner: { verifaceId: veriface.id }, phone, organizationId: veriface.organization_id, now });
    flows.push({ kind: 'veriface', chat, veriface, voice: await voiceOf(ctx, veriface.organization_id, veriface.creator_email, veriface.language) });
  }
  return flows.sort((a, b) => (a.chat.created_at < b.chat.created_at ? -1 : a.chat.created_at > b.chat.created_at ? 1 : a.chat.id < b.chat.id ? -1 : 1));
}

/** The name a list of flows shows for one. */
export function flowTitle(flow: Flow, generic: string): string {
  return flow.kind === 'signing' ? `${flow.process.name} (${flow.voice.organization})` : `${generic} (${flow.voice.organization})`;
}
