import type { Clock } from '../../clock.js';
import type { Db } from '../../db/database.js';
import type { FinalFileRow, OrganizationRow, ParticipantRow, ProcessDocumentRow, ProcessRow, VerifaceRow } from '../../db/schema.js';
import { type Language, personLanguage } from '../../organizations/languages.js';
import { say } from '../../people/words-chat.js';
import type { WhatsAppTemplates } from '../message/approved-templates.js';
import type { OutgoingChatContent } from '../message/chat-message.js';
import { queueChatMessage } from '../queue-chat.js';
import { buttonId } from './chat-input.js';
import { ensureChatFlow, newChatFlow } from './chat-queries.js';
import { voiceFrom } from './flow-voice.js';

/*
 * The messages the service starts in a conversation, each queued in the transaction of what caused
 * it: a signer's invitation or reminder (also when their turn comes), a face validation's
 * invitation, the one-time code, and the signed documents once the process is sealed.
 */

interface StartContext {
  clock: Clock;
  whatsappTemplates: WhatsAppTemplates;
}

/**
 * The approved template when the operator has one (Meta refuses free text to someone who has not
 * written in 24 hours), its quick reply starting the flow; otherwise the same words with a button.
 */
function invitation(
  ctx: StartContext,
  template: string | undefined,
  options: { parameters: string[]; text: string; start: string; title: string },
): OutgoingChatContent {
  if (template)
    return { kind: 'template', name: template, language: ctx.whatsappTemplates.language, parameters: options.parameters, quickReplies: [options.start] };
  return { kind: 'buttons', text: options.text, buttons: [{ id: options.start, title: options.title }] };
}

/** A signer's invitation or reminder in the chat; answers whether one was queued (a participant with a phone). */
export async function queueSigningInvitation(
  db: Db,
  ctx: StartContext,
  options: { process: ProcessRow; participant: ParticipantRow; organization: OrganizationRow | undefined; occasion: 'invitation' | 'reminder'; link: string },
): Promise<boolean> {
  const { process, participant, link } = options;
  if (participant.phone === null) return false;
  const now = ctx.clock.now().toISOString();
  const organizationId = process.organization_id;
  const chat = await ensureChatFlow(db, { owner: { participantRowId: participant.id }, phone: participant.phone, organizationId, now });
  const voice = voiceFrom(options.organization, process.creator_email, participant.language);
  const content = invitation(ctx, ctx.whatsappTemplates.signingInvitation, {
    parameters: [participant.name, process.name, link],
    text: say(voice.language, participant.role === 'APPROVER' ? 'approvingInvitation' : 'signingInvitation', {
      name: participant.name,
      process: process.name,
      organization: voice.organization,
    }),
    start: buttonId(chat.id, 'start'),
    title: say(voice.language, 'start'),
  });
  await queueChatMessage(db, ctx.clock, {
    organizationId,
    to: participant.phone,
    purpose: options.occasion,
    content,
    processId: process.id,
    participantId: participant.id,
  });
  return true;
}

/**
 * A face validation's invitation on the WhatsApp platform, queued in the transaction that creates
 * it: nobody can have written about it yet, so its flow is new, and the caller has read its
 * organization already.
 */
export async function queueVerifaceInvitation(
  db: Db,
  ctx: StartContext,
  options: { veriface: VerifaceRow; organization: OrganizationRow | undefined; link: string },
): Promise<void> {
  const { veriface, link } = options;
  const now = ctx.clock.now().toISOString();
  const organizationId = veriface.organization_id;
  const chat = await newChatFlow(db, { owner: { verifaceId: veriface.id }, phone: veriface.phone, organizationId, now });
  const voice = voiceFrom(options.organization, veriface.creator_email, veriface.language);
  const content = invitation(ctx, ctx.whatsappTemplates.verifaceInvitation, {
    parameters: [veriface.name, link],
    text: say(voice.language, 'verifaceInvitation', { name: veriface.name, organization: voice.organization }),
    start: buttonId(chat.id, 'start'),
    title: say(voice.language, 'start'),
  });
  await queueChatMessage(db, ctx.clock, { organizationId, to: veriface.phone, purpose: 'invitation', content, verifaceId: veriface.id });
}

/** The one-time code in the chat: the operator's authentication template when set, otherwise the words. */
export function codeContent(ctx: StartContext, options: { language: Language; code: string; minutes: number }): OutgoingChatContent {
  const template = ctx.whatsappTemplates.otpCode;
  if (template) return { kind: 'template', name: template, language: ctx.whatsappTemplates.language, parameters: [options.code] };
  return { kind: 'text', text: say(options.language, 'codeMessage', { code: options.code, minutes: options.minutes }) };
}

/**
 * Once a process is sealed, each of `recipients` (the participants whose flow ran through WhatsApp)
 * receives every signed document in the chat (each carries the evidence certificate), in the
 * seal's transaction.
 */
export async function queueSignedDocuments(
  db: Db,
  ctx: StartContext,
  options: {
    process: ProcessRow;
    recipients: ParticipantRow[];
    documents: ProcessDocumentRow[];
    files: Pick<FinalFileRow, 'file_key' | 'document_position'>[];
    /** Each recipient's caption is in their own language, this one when none was given for them. */
    organizationLanguage: Language;
  },
): Promise<void> {
  const { process } = options;
  const signed = options.files.flatMap((file) => {
    const document = options.documents.find((d) => d.position === file.document_position);
    return document ? [{ file, document }] : [];
  });
  for (const participant of options.recipients) {
    if (participant.phone === null) continue;
    for (const { file, document } of signed) {
      const filename = document.name.toLowerCase().endsWith('.pdf') ? document.name : `${document.name}.pdf`;
      await queueChatMessage(db, ctx.clock, {
        organizationId: process.organization_id,
        to: participant.phone,
        purpose: 'document',
        content: {
          kind: 'document',
          blobKey: file.file_key,
          filename,
          mimeType: 'application/pdf',
          caption: say(personLanguage(participant.language, options.organizationLanguage), 'signedDocument', { process: process.name }),
        },
        processId: process.id,
        participantId: participant.id,
      });
    }
  }
}
