import type { ServiceContext } from '../context.js';
import type { Db } from '../db/database.js';
import { parseJson } from '../db/json-column.js';
import type { ParticipantRow, ProcessRow } from '../db/schema.js';
import { templatedEmail } from '../messages/message-templates.js';
import { personLanguage } from '../organizations/languages.js';
import { findOrganization } from '../organizations/queries.js';
import { type Language, organizationLanguage, settingsOf } from '../organizations/settings.js';
import { enqueue, type NewMessage } from '../outbox/enqueue.js';
import { queueSigningInvitation } from '../whatsapp/conversation/invitations.js';
import type { EffectiveValidations } from './identity-validations.js';
import { type ProcessAction, recordProcessEvent } from './process-events.js';

/** Where a participant's page lives: under this path of PUBLIC_URL, followed by their link token. */
export const SIGNER_PATH_PREFIX = '/s/';

export type NotifyContext = Pick<ServiceContext, 'clock' | 'publicUrl' | 'whatsappTemplates'>;

export function participantLink(ctx: Pick<ServiceContext, 'publicUrl'>, participant: Pick<ParticipantRow, 'link_token'>): string {
  return `${ctx.publicUrl}${SIGNER_PATH_PREFIX}${participant.link_token}`;
}

/** The stored effective validations were written by this service from the resolver's result. */
export function validationsOf(participant: Pick<ParticipantRow, 'validations'>): EffectiveValidations {
  const parsed = parseJson<EffectiveValidations>(participant.validations);
  if (!parsed) throw new Error('participant without validations');
  return parsed;
}

type Occasion = 'invitation' | 'reminder';

/** `organization` is the organization's language, which a participant created without one reads. */
function emailFor(ctx: NotifyContext, process: ProcessRow, participant: ParticipantRow, occasion: Occasion, organization: Language): NewMessage {
  const link = participantLink(ctx, participant);
  const language = personLanguage(participant.language, organization);
  const payload =
    occasion === 'invitation'
      ? templatedEmail(
          participant.email,
          'signing-invitation',
          { subject: process.subject, signerName: participant.name, processName: process.name, message: process.message, link },
          language,
        )
      : templatedEmail(participant.email, 'signing-reminder', { signerName: participant.name, processName: process.name, link }, language);
  return { kind: 'email', organizationId: process.organization_id, payload };
}

/**
 * Queues, in the caller's transaction, the invitation (or a reminder) of every given participant
 * whose turn it is and whom the service notifies, through the channels of their validations, and
 * records each sending in the audit trail. WhatsApp starts the participant's conversation
 * (src/whatsapp/conversation), where the whole flow runs. Answers the participants notified.
 */
export async function notifyParticipants(
  db: Db,
  ctx: NotifyContext,
  options: { process: ProcessRow; participants: ParticipantRow[]; occasion: Occasion },
): Promise<ParticipantRow[]> {
  const { process, occasion } = options;
  // Read once: the e-mails' language and the WhatsApp invitations' voice both come from it.
  const organization = await findOrganization(db, process.organization_id);
  const language = organization ? settingsOf(organization).language : 'es';
  const notified: ParticipantRow[] = [];
  for (const participant of options.participants) {
    if (participant.status !== 'NOTIFICATION' || participant.notification !== 1) continue;
    const platforms: string[] = [];
    for (const channel of validationsOf(participant).channels) {
      if (channel === 'email') {
        await enqueue(db, ctx.clock, [emailFor(ctx, process, participant, occasion, language)]);
        platforms.push('EMAIL');
      } else if (await queueSigningInvitation(db, ctx, { process, participant, organization, occasion, link: participantLink(ctx, participant) })) {
        platforms.push('WHATSAPP');
      }
    }
    const action: ProcessAction = occasion === 'reminder' ? 'REMINDER_SIGN' : participant.role === 'APPROVER' ? 'NOTIFICATION_APPROVER' : 'NOTIFICATION_SIGN';
    for (const platform of platforms) await recordProcessEvent(db, ctx.clock, { process, action, participant, platform });
    if (platforms.length > 0) notified.push(participant);
  }
  return notified;
}

/** Tells the participants who were already notified that the process was cancelled, with the reason. */
export async function notifyCancellation(
  db: Db,
  ctx: NotifyContext,
  options: { process: ProcessRow; participants: ParticipantRow[]; reason: string },
): Promise<void> {
  const { process, reason } = options;
  const reached = options.participants.filter((p) => p.notification === 1 && p.status !== 'PENDING');
  const language = await organizationLanguage(db, process.organization_id);
  await enqueue(
    db,
    ctx.clock,
    reached.map((participant) => ({
      kind: 'email' as const,
      organizationId: process.organization_id,
      payload: templatedEmail(
        participant.email,
        'process-cancelled',
        {
          signerName: participant.name,
          processName: process.name,
          message: reason,
        },
        personLanguage(participant.language, language),
      ),
    })),
  );
}
