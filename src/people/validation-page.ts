import { organizationColours } from '../company/organization-colours.js';
import type { ServiceContext } from '../context.js';
import type { VerifaceRow } from '../db/schema.js';
import { fail } from '../domain-error.js';
import { personLanguage } from '../organizations/languages.js';
import { findOrganization } from '../organizations/queries.js';
import { settingsOf } from '../organizations/settings.js';
import { openVeriface } from '../veriface/person-flow.js';
import { findVerifaceByToken } from '../veriface/queries.js';
import type { ValidationPage, ValidationPageState } from './contract.js';

function stateOf(process: VerifaceRow, now: string): ValidationPageState {
  switch (process.status) {
    case 'INPROGRESS':
      return process.expires_at !== null && process.expires_at <= now ? 'expired' : 'capture';
    case 'APPROVED':
    case 'VALIDATED':
      return 'approved';
    case 'INVALIDATED':
      return 'not-approved';
    case 'BLOCKED':
      return 'review';
    case 'EXPIRED':
      return 'expired';
  }
}

export async function readValidationPage(ctx: ServiceContext, options: { token: string }): Promise<ValidationPage> {
  const process = await findVerifaceByToken(ctx.db, options.token);
  if (!process) throw fail('VERIFACE_NOT_FOUND', { when: 'personLink' });
  const state = stateOf(process, ctx.clock.now().toISOString());
  // The first opening is a stage of the process (and a webhook); reloads are not.
  if (state === 'capture') await openVeriface(ctx, options);
  const organization = await findOrganization(ctx.db, process.organization_id);
  return {
    state,
    language: personLanguage(process.language, organization ? settingsOf(organization).language : 'es'),
    ...organizationColours(organization),
    code: process.code,
    name: process.name,
    organization: organization?.name ?? '',
    country: process.country,
    documentType: process.document_type,
    captured: { documentFront: process.document_front !== null, documentBack: process.document_back !== null, face: process.face !== null },
    ...(state === 'capture' || state === 'expired'
      ? {}
      : { outcome: { status: process.status, ...(process.similarity === null ? {} : { similarity: process.similarity }) } }),
  };
}
