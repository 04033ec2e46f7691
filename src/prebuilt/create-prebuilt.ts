import type { ServiceContext } from '../context.js';
import type { PrebuiltProcessRow } from '../db/schema.js';
import { withTransaction } from '../db/transaction.js';
import { parsedTemplateBody } from '../documents/creating/template-body.js';
import { resolveValidations } from '../documents/identity-validations.js';
import { PROCESS_CODE_LENGTH } from '../documents/schemas.js';
import { DomainError, fail } from '../domain-error.js';
import { answerMessage } from '../error-catalogue.js';
import { newCode, newObjectId, newToken } from '../ids.js';
import { templatedEmail } from '../messages/message-templates.js';
import { checkCreation } from '../organizations/creation-checks.js';
import { normalizeEmail } from '../organizations/organizations.js';
import { findOrganization } from '../organizations/queries.js';
import { settingsOf } from '../organizations/settings.js';
import { enqueue } from '../outbox/enqueue.js';
import { findTemplate } from '../templates/read-templates.js';
import { templateFileKey } from '../templates/template-files.js';
import { prefilledAnswers } from './prebuilt-answers.js';
import { codeTaken, insertPrebuilt } from './queries.js';
import type { PrebuildInput } from './schemas.js';
import { PREBUILT_TOKEN_BYTES, prebuiltLink } from './stored-prebuilt.js';

export interface CreatedPrebuilt {
  document: string;
  url?: string;
}

/** A code no process and no other prebuilt process has: the process it becomes is created under it. */
async function freeCode(ctx: ServiceContext): Promise<string> {
  for (;;) {
    const code = newCode(PROCESS_CODE_LENGTH);
    if (!(await codeTaken(ctx.db, code))) return code;
  }
}

/**
 * POST /document/prebuild: checks what /document/save would check of the creation (the creator,
 * the expiry, the webhooks, the root validations, the template and its Complete HTML) and of the
 * prefilled answers, then keeps them under the code the process will have. Nobody is invited and
 * no webhook is sent: the process does not exist until its form is completed (complete-prebuilt.ts).
 * With notification, `emailTo` gets the form's link, in the organization's language.
 */
export async function createPrebuilt(ctx: ServiceContext, options: { organizationId: string; input: PrebuildInput }): Promise<CreatedPrebuilt> {
  const { organizationId, input } = options;
  const now = ctx.clock.now();
  await checkCreation(ctx.db, {
    organizationId,
    now,
    creatorEmail: input.email,
    ...(input.expiredDate ? { expiredDate: input.expiredDate } : {}),
    ...(input.targetWebhooks ? { targetWebhooks: input.targetWebhooks } : {}),
  });
  const validations = resolveValidations({ root: input, signers: [], package: false });
  if (!validations.ok) throw new DomainError(answerMessage(validations.message));
  const template = await findTemplate(ctx, organizationId, input.document);
  if (!template) throw fail('TEMPLATE_NOT_FOUND', { when: 'elsewhere' });
  const answers = prefilledAnswers(parsedTemplateBody(ctx, template), { preBuild: input.preBuild, emailTo: input.emailTo });
  if (!(await ctx.blobs.exists(templateFileKey(template.id, 'complete'))))
    throw fail('TEMPLATE_HTML_MISSING', 'upload the Complete HTML of the template first');

  const { document: _template, preBuild: _answers, sign: _sign, emailTo: _emailTo, ...fields } = input;
  const at = now.toISOString();
  const row: PrebuiltProcessRow = {
    id: newObjectId(now),
    organization_id: organizationId,
    template_id: template.id,
    code: await freeCode(ctx),
    name: input.name,
    creator_email: normalizeEmail(input.email),
    email_to: normalizeEmail(input.emailTo),
    link_token: newToken(PREBUILT_TOKEN_BYTES),
    answers: JSON.stringify(answers),
    // Its participants are invited by the service once it is completed; `notification` was about the form's e-mail.
    fields: JSON.stringify({ ...fields, notification: true }),
    status: 'PENDING',
    expires_at: input.expiredDate ? input.expiredDate.toISOString() : null,
    completion_key: null,
    completed_at: null,
    created_at: at,
    updated_at: at,
  };
  const link = prebuiltLink(ctx, row);
  await withTransaction(ctx, async (trx) => {
    await insertPrebuilt(trx, row);
    if (!input.notification) return;
    const organization = await findOrganization(trx, organizationId);
    const language = organization ? settingsOf(organization).language : 'es';
    const payload = templatedEmail(row.email_to, 'prebuilt-invitation', { processName: row.name, organization: organization?.name ?? '', link }, language);
    await enqueue(trx, ctx.clock, [{ kind: 'email', organizationId, payload }]);
  });
  return { document: row.code, ...(input.notification ? {} : { url: link }) };
}
