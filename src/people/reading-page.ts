import { organizationColours } from '../company/organization-colours.js';
import type { ProcessRow } from '../db/schema.js';
import type { PreviewContext } from '../documents/preview/document-preview.js';
import { findProcessById, listDocuments, listParticipants } from '../documents/queries.js';
import { findReaderByToken } from '../documents/readers/queries.js';
import { fail } from '../domain-error.js';
import { findOrganization } from '../organizations/queries.js';
import { settingsOf } from '../organizations/settings.js';
import type { ReadingPage, ReadingPageState } from './contract.js';
import { pageDocuments } from './page-documents.js';

function stateOf(process: ProcessRow, now: string): ReadingPageState {
  if (process.status === 'EXPIRED' || (process.status === 'CREATED' && process.expires_at !== null && process.expires_at <= now)) return 'expired';
  if (process.status === 'FINISH') return 'finished';
  if (process.status === 'REJECTED') return 'rejected';
  if (process.status === 'CANCELLED') return 'cancelled';
  if (process.status === 'EDITING') return 'editing';
  return 'following';
}

/**
 * A reader's page: the process of their link only, as its participants see it, and nothing to act
 * with. The token is looked up among readers alone, so a reader's link never opens a participant's
 * flow, nor a participant's link this page. A CC address is sent its link once the process is
 * sealed, and sees the final files only.
 */
export async function readReadingPage(ctx: PreviewContext, options: { token: string }): Promise<ReadingPage> {
  const reader = await findReaderByToken(ctx.db, options.token);
  const process = reader && (await findProcessById(ctx.db, reader.process_id));
  if (!reader || !process) throw fail('READING_LINK_NOT_FOUND');
  const [documents, participants, organization] = await Promise.all([
    listDocuments(ctx.db, process.id),
    listParticipants(ctx.db, process.id),
    findOrganization(ctx.db, process.organization_id),
  ]);
  participants.sort((a, b) => a.sign_order - b.sign_order || a.position - b.position);
  const language = organization ? settingsOf(organization).language : 'es';
  const state = stateOf(process, ctx.clock.now().toISOString());
  const sealed = process.status === 'FINISH' && process.sealed_at !== null;
  return {
    state,
    language,
    ...organizationColours(organization),
    process: { name: process.name, message: process.message, organization: organization?.name ?? '' },
    participants: participants.map((p) => ({ name: p.name, role: p.role, status: p.status, you: false })),
    documents: (reader.kind === 'CC' && !sealed) || state === 'editing' ? [] : await pageDocuments(ctx, process, documents, language),
    ...(state === 'finished' && !sealed ? { sealing: true } : {}),
  };
}
