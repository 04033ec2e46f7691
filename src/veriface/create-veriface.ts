import type { ServiceContext } from '../context.js';
import type { VerifaceRow } from '../db/schema.js';
import { withTransaction } from '../db/transaction.js';
import { DomainError } from '../domain-error.js';
import { answerMessage } from '../error-catalogue.js';
import { newCode, newObjectId, newToken } from '../ids.js';
import { templatedEmail } from '../messages/message-templates.js';
import { checkCreation } from '../organizations/creation-checks.js';
import { personLanguage } from '../organizations/languages.js';
import { normalizeEmail } from '../organizations/organizations.js';
import { findOrganization } from '../organizations/queries.js';
import { settingsOf } from '../organizations/settings.js';
import { enqueue } from '../outbox/enqueue.js';
import { queueVerifaceInvitation } from '../whatsapp/conversation/invitations.js';
import { checkIdentification } from './documents-catalogue.js';
import { insertVeriface } from './queries.js';
import { type CreateVerifaceInput, VERIFACE_CODE_LENGTH } from './schemas.js';
import { recordStage } from './stages.js';

/** Where the person validates: the page is served under this path of PUBLIC_URL. */
export const VERIFACE_PATH_PREFIX = '/v/';

/** The person's link to their face validation. */
export function verifaceLink(ctx: Pick<ServiceContext, 'publicUrl'>, process: Pick<VerifaceRow, 'link_token'>): string {
  return `${ctx.publicUrl}${VERIFACE_PATH_PREFIX}${process.link_token}`;
}

export interface CreatedVeriface {
  code: string;
  /** The person's link, answered only when the service did not notify the person itself. */
  url?: string;
}

async function checkInput(ctx: ServiceContext, organizationId: string, input: CreateVerifaceInput, now: Date): Promise<void> {
  const identification = checkIdentification(input.country, input.type, input.identification);
  if (!identification.ok) throw new DomainError(answerMessage(identification.message));
  await checkCreation(ctx.db, {
    organizationId,
    now,
    creatorEmail: input.email,
    ...(input.expiredDate ? { expiredDate: input.expiredDate } : {}),
    ...(input.targetWebhooks ? { targetWebhooks: input.targetWebhooks } : {}),
  });
}

/**
 * Creates a face validation and notifies the person: by WhatsApp on the `whatsapp` platform; on
 * `web`, by e-mail to `userEmail` only when the organization has the SDK integration enabled.
 * Otherwise the link is answered for the integrator to deliver. The process, its stages, their
 * webhooks and the notification commit together.
 */
export async function createVeriface(ctx: ServiceContext, options: { organizationId: string; input: CreateVerifaceInput }): Promise<CreatedVeriface> {
  const { input, organizationId } = options;
  const now = ctx.clock.now();
  await checkInput(ctx, organizationId, input, now);
  const organization = await findOrganization(ctx.db, organizationId);
  const process: VerifaceRow = {
    id: newObjectId(now),
    code: newCode(VERIFACE_CODE_LENGTH),
    organization_id: organizationId,
    creator_email: normalizeEmail(input.email),
    platform: input.platform,
    name: input.name,
    phone: input.phone,
    country: input.country,
    document_type: input.type,
    identification: input.identification,
    user_email: input.userEmail ? normalizeEmail(input.userEmail) : null,
    custom: input.custom ? JSON.stringify(input.custom) : null,
    target_webhooks: input.targetWebhooks ? JSON.stringify(input.targetWebhooks) : null,
    tags: input.tags ? JSON.stringify(input.tags) : null,
    status: 'INPROGRESS',
    expires_at: input.expiredDate ? input.expiredDate.toISOString() : null,
    link_token: newToken(),
    document_front: null,
    document_back: null,
    face: null,
    similarity: null,
    result_reason: null,
    email_validated: null,
    review_reason: null,
    photos_deleted_at: null,
    language: input.language ?? null,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  const link = verifaceLink(ctx, process);
  const language = personLanguage(process.language, organization ? settingsOf(organization).language : 'es');
  const channel = process.platform === 'whatsapp' ? 'whatsapp' : organization?.sdk_integration === 1 && process.user_email ? 'email' : undefined;

  await withTransaction(ctx, async (trx) => {
    await insertVeriface(trx, process);
    await recordStage(trx, ctx.clock, { process, stage: 'created' });
    if (channel === 'whatsapp') {
      // The validation runs in the person's WhatsApp conversation (src/whatsapp/conversation).
      await queueVerifaceInvitation(trx, ctx, { veriface: process, organization, link });
    } else if (channel === 'email' && process.user_email) {
      const email = templatedEmail(process.user_email, 'veriface-invitation', { personName: process.name, link }, language);
      await enqueue(trx, ctx.clock, [{ kind: 'email', organizationId, payload: email }]);
    }
    if (channel) await recordStage(trx, ctx.clock, { process, stage: 'notified', detail: { channel } });
  });
  return channel ? { code: process.code } : { code: process.code, url: link };
}
