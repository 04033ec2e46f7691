import { organizationColours } from '../company/organization-colours.js';
import type { ParticipantRow, ProcessRow } from '../db/schema.js';
import { validationsOf } from '../documents/notify-participants.js';
import { delegateNeeds, identityStepsBegun } from '../documents/participant/delegate-signing.js';
import { findDelegationByFormerToken } from '../documents/participant/delegation-queries.js';
import { findSigning, type Signing, signatureKindsOf } from '../documents/participant/signer-access.js';
import { openSigning } from '../documents/participant/signer-flow.js';
import { IDENTITY_REJECTED } from '../documents/participant/unlock-participant.js';
import type { PreviewContext } from '../documents/preview/document-preview.js';
import type { FromAddress } from '../documents/process-events.js';
import { findProcessById, listDocuments, listParticipants } from '../documents/queries.js';
import { DomainError } from '../domain-error.js';
import { awaitsReview } from '../identity-attempts/check-identity.js';
import { personLanguage } from '../organizations/languages.js';
import { findOrganization } from '../organizations/queries.js';
import { settingsOf } from '../organizations/settings.js';
import type { SigningPage, SigningPageState } from './contract.js';
import { pageDocuments } from './page-documents.js';

function stateOf(process: ProcessRow, participant: ParticipantRow, now: string): SigningPageState {
  const pastExpiry = process.expires_at !== null && process.expires_at <= now;
  if (process.status === 'EXPIRED' || (process.status === 'CREATED' && pastExpiry)) return 'expired';
  if (process.status === 'FINISH') return 'finished';
  if (process.status === 'REJECTED') return 'rejected';
  if (process.status === 'CANCELLED') return 'cancelled';
  if (process.status === 'EDITING') return 'editing';
  switch (participant.status) {
    case 'NOTIFICATION':
      return 'act';
    case 'PENDING':
      return 'waiting';
    case 'BLOCK':
      // A block that waits for a person's review is said as such, never why (src/identity-attempts/check-identity.ts).
      return awaitsReview(participant.block_reason) ? 'review' : 'blocked';
    case 'FINISH':
    case 'REJECT':
      return 'done';
  }
}

/**
 * The page of a link whose holder handed their place to another person: it says so and whom to,
 * and shows nothing of the process beyond its name (the documents are the new holder's to read).
 */
async function delegatedPage(ctx: PreviewContext, token: string): Promise<SigningPage | undefined> {
  const delegation = await findDelegationByFormerToken(ctx.db, token);
  const process = delegation && (await findProcessById(ctx.db, delegation.process_id));
  if (!delegation || !process) return undefined;
  const [participants, organization] = await Promise.all([listParticipants(ctx.db, process.id), findOrganization(ctx.db, process.organization_id)]);
  const place = participants.find((p) => p.id === delegation.participant_row_id);
  if (!place) return undefined;
  return {
    state: 'delegated',
    language: organization ? settingsOf(organization).language : 'es',
    ...organizationColours(organization),
    process: { code: process.code, name: process.name, message: '', organization: organization?.name ?? '' },
    participant: { id: delegation.former_participant_id, name: delegation.former_name, role: place.role, status: place.status },
    participants: [],
    waitingFor: [],
    documents: [],
    phoneOnRecord: false,
    signatureKinds: [],
    delegatedTo: place.name,
  };
}

async function findSigningOrDelegated(ctx: PreviewContext, token: string): Promise<Signing | SigningPage> {
  try {
    return await findSigning(ctx, token);
  } catch (error) {
    const delegated = error instanceof DomainError ? await delegatedPage(ctx, token) : undefined;
    if (delegated) return delegated;
    throw error;
  }
}

/**
 * Everything the participant's page shows, in every state of the process. While it is their turn
 * the first opening is recorded (openSigning); the other states only read.
 */
export async function readSigningPage(ctx: PreviewContext, options: { token: string } & FromAddress): Promise<SigningPage> {
  const signingOrPage = await findSigningOrDelegated(ctx, options.token);
  if ('state' in signingOrPage) return signingOrPage;
  const { participant: found, process } = signingOrPage;
  const state = stateOf(process, found, ctx.clock.now().toISOString());
  const opened = state === 'act' ? await openSigning(ctx, options) : undefined;
  const [documents, participants, organization] = await Promise.all([
    listDocuments(ctx.db, process.id),
    listParticipants(ctx.db, process.id),
    findOrganization(ctx.db, process.organization_id),
  ]);
  participants.sort((a, b) => a.sign_order - b.sign_order || a.position - b.position);
  const participant = participants.find((p) => p.id === found.id) ?? found;
  const acting = participants.filter((p) => p.status === 'NOTIFICATION' && p.id !== found.id);
  const language = personLanguage(participant.language, organization ? settingsOf(organization).language : 'es');
  const delegation =
    opened &&
    participant.role === 'SIGNER' &&
    !identityStepsBegun(participant) &&
    !opened.attachments.some((file) => file.given) &&
    organization &&
    settingsOf(organization).signerDelegation
      ? delegateNeeds(validationsOf(participant))
      : undefined;
  return {
    state,
    language,
    ...organizationColours(organization),
    process: { code: process.code, name: process.name, message: process.message, organization: organization?.name ?? '' },
    participant: { id: participant.participant_id, name: participant.name, role: participant.role, status: participant.status },
    participants: participants.map((p) => ({ name: p.name, role: p.role, status: p.status, you: p.id === found.id })),
    waitingFor: state === 'waiting' || state === 'done' ? acting.map((p) => p.name) : [],
    // The documents are being replaced: what the link showed is no longer what will be signed.
    documents: state === 'editing' ? [] : await pageDocuments(ctx, process, documents, language),
    phoneOnRecord: participant.phone !== null,
    signatureKinds: signatureKindsOf(participant),
    ...(opened
      ? {
          requirements: opened.requirements,
          canSign: opened.canSign,
          boxes: opened.boxes,
          openedDocuments: opened.openedDocuments,
          attachments: opened.attachments,
        }
      : {}),
    ...(state === 'finished' && process.sealed_at === null ? { sealing: true } : {}),
    ...(state === 'rejected' && participant.status === 'REJECT' ? { rejection: participant.reject_reason === IDENTITY_REJECTED ? 'identity' : 'yours' } : {}),
    ...(delegation ? { delegation } : {}),
  };
}
