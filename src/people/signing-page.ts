import { organizationColours } from '../company/organization-colours.js';
import type { ParticipantRow, ProcessRow } from '../db/schema.js';
import { findSigning, signatureKindsOf } from '../documents/participant/signer-access.js';
import { openSigning } from '../documents/participant/signer-flow.js';
import { IDENTITY_REJECTED } from '../documents/participant/unlock-participant.js';
import type { PreviewContext } from '../documents/preview/document-preview.js';
import type { FromAddress } from '../documents/process-events.js';
import { listDocuments, listParticipants } from '../documents/queries.js';
import { awaitsReview } from '../identity-attempts/check-identity.js';
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
 * Everything the participant's page shows, in every state of the process. While it is their turn
 * the first opening is recorded (openSigning); the other states only read.
 */
export async function readSigningPage(ctx: PreviewContext, options: { token: string } & FromAddress): Promise<SigningPage> {
  const { participant: found, process } = await findSigning(ctx, options.token);
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
  const language = organization ? settingsOf(organization).language : 'es';
  return {
    state,
    language,
    ...organizationColours(organization),
    process: { code: process.code, name: process.name, message: process.message, organization: organization?.name ?? '' },
    participant: { id: participant.participant_id, name: participant.name, role: participant.role, status: participant.status },
    participants: participants.map((p) => ({ name: p.name, role: p.role, status: p.status, you: p.id === found.id })),
    waitingFor: state === 'waiting' || state === 'done' ? acting.map((p) => p.name) : [],
    documents: await pageDocuments(ctx, process, documents, language),
    phoneOnRecord: participant.phone !== null,
    signatureKinds: signatureKindsOf(participant),
    ...(opened ? { requirements: opened.requirements, canSign: opened.canSign, boxes: opened.boxes, openedDocuments: opened.openedDocuments } : {}),
    ...(state === 'finished' && process.sealed_at === null ? { sealing: true } : {}),
    ...(state === 'rejected' && participant.status === 'REJECT' ? { rejection: participant.reject_reason === IDENTITY_REJECTED ? 'identity' : 'yours' } : {}),
  };
}
