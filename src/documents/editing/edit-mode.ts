import type { ServiceContext } from '../../context.js';
import type { Db } from '../../db/database.js';
import type { ParticipantRow, ProcessKind, ProcessRow } from '../../db/schema.js';
import { withTransaction } from '../../db/transaction.js';
import { fail } from '../../domain-error.js';
import { DOCUMENT_URL_LIFETIME_SECONDS } from '../../files/document-url-lifetime.js';
import { listPhotoKeys } from '../../photos/queries.js';
import { listProcessAttachments } from '../attachments/queries.js';
import { listDelegations } from '../participant/delegation-queries.js';
import { lockProcess } from '../participant/signer-queries.js';
import { recordProcessEvent } from '../process-events.js';
import { findProcessByCode, IN_SIGNATURE, listDocuments, listParticipants, transitionProcess } from '../queries.js';

/** How each kind names itself in edit mode's answers and refusals (docs/real-service.md §3.10). */
const KIND = {
  document: { notFound: () => fail('DOCUMENT_NOT_FOUND', { when: 'elsewhere' }), modified: 'DOCUMENT_MODIFIED' },
  package: { notFound: () => fail('PACKAGE_NOT_FOUND'), modified: 'PACKAGE_MODIFIED' },
} as const;

async function findOfKind(db: Db, options: { organizationId: string; code: string; kind: ProcessKind }): Promise<ProcessRow> {
  const process = await findProcessByCode(db, options.organizationId, options.code);
  if (process?.kind !== options.kind) throw KIND[options.kind].notFound();
  return process;
}

/** The process in edit mode a creation overwrites: of the organization, of the creation's kind, and marked. */
export async function findEditedProcess(db: Db, options: { organizationId: string; code: string; kind: ProcessKind }): Promise<ProcessRow> {
  const process = await findOfKind(db, options);
  if (process.status !== 'EDITING') throw fail('DOCUMENT_NOT_IN_EDIT', `it is ${process.status}`);
  return process;
}

/**
 * Why nobody may edit it, if so. A signature, an approval, a rejection, identity photos, an
 * attached file or a signer's handing over of their place are
 * evidence a person gave about the document as it was: the real service throws them away, this one
 * keeps them, so such a process is cancelled and created again instead (README, "Coming from the
 * real service").
 */
function whyNotEditable(
  process: ProcessRow,
  participants: ParticipantRow[],
  evidence: { photos: number; delegations: number; attachments: number },
): string | undefined {
  if (process.status === 'EDITING') return 'it is in edit mode already';
  if (process.status !== IN_SIGNATURE) return `it is ${process.status}`;
  const acted = participants.find((p) => p.signed_at !== null || (p.status !== 'PENDING' && p.status !== 'NOTIFICATION'));
  if (acted) return `${acted.name} has ${acted.status === 'BLOCK' ? 'been blocked' : 'acted'} (${acted.status})`;
  if (evidence.photos > 0) return 'a participant has given identity photos';
  // A handing over is a signer's act too, kept with the place it names (UPDATE_SIGNER).
  if (evidence.delegations > 0) return 'a signer has handed their place to another person';
  // A file a participant attached is theirs, with its hash in the audit trail, like their photos.
  if (evidence.attachments > 0) return 'a participant has attached a file';
  return undefined;
}

/**
 * Puts a process in edit mode (POST /document/edit, /package/edit): under its lock, while nobody
 * has acted, it goes to EDITING with its audit line (EDIT_SIGN) and webhook in one transaction.
 * Nobody can act on it until it is sent again: participants' links show that it is being
 * corrected, reminders and the expiry wait, and the overwrite replaces the participants and
 * their links. Edit mode cannot be left except by the overwrite, or by cancelling the process.
 */
export async function markForEdit(
  ctx: ServiceContext,
  options: { organizationId: string; code: string; kind: ProcessKind },
): Promise<{ message: 'DOCUMENT_MODIFIED' | 'PACKAGE_MODIFIED' }> {
  const found = await findOfKind(ctx.db, options);
  await withTransaction(ctx, async (trx) => {
    const process = await lockProcess(trx, ctx.dialect, found.id);
    if (!process) throw KIND[options.kind].notFound();
    const [participants, photos, delegations, attachments] = await Promise.all([
      listParticipants(trx, process.id),
      listPhotoKeys(trx, process.id),
      listDelegations(trx, process.id),
      listProcessAttachments(trx, process.id),
    ]);
    const why = whyNotEditable(process, participants, {
      photos: photos.length,
      delegations: delegations.length,
      attachments: attachments.filter((file) => file.file_key !== null).length,
    });
    if (why !== undefined) throw fail('DOCUMENT_NOT_EDITABLE', why);
    const at = ctx.clock.now().toISOString();
    if (!(await transitionProcess(trx, process.id, { from: IN_SIGNATURE, to: 'EDITING', at }))) throw fail('DOCUMENT_NOT_EDITABLE', 'it changed meanwhile');
    await recordProcessEvent(trx, ctx.clock, { process: { ...process, status: 'EDITING', updated_at: at }, action: 'EDIT_SIGN', platform: 'API' });
  });
  return { message: KIND[options.kind].modified };
}

export interface EditedProcessView {
  code: string;
  kind: ProcessKind;
  name: string;
  status: 'EDITING';
  subject: string;
  message: string;
  signers: { name: string; email: string; status: 'pending' }[];
  documents: { code: string; name: string; url?: string; signProfile: { name: string; email: string }[] }[];
}

/**
 * GET /document/edit, /package/edit: the process in edit mode as it was marked, its documents with
 * download URLs (5 minutes), so the integrator can send it again corrected. Every participant is
 * `pending`: what they had done before the marking no longer counts.
 */
export async function readEditedProcess(ctx: ServiceContext, options: { organizationId: string; code: string; kind: ProcessKind }): Promise<EditedProcessView> {
  const process = await findEditedProcess(ctx.db, options);
  const [documents, participants] = await Promise.all([listDocuments(ctx.db, process.id), listParticipants(ctx.db, process.id)]);
  const people = participants.map((p) => ({ name: p.name, email: p.email }));
  return {
    code: process.code,
    kind: process.kind,
    name: process.name,
    status: 'EDITING',
    subject: process.subject,
    message: process.message,
    signers: people.map((p) => ({ ...p, status: 'pending' as const })),
    documents: await Promise.all(
      documents.map(async (d) => ({
        code: d.code ?? process.code,
        name: d.name,
        ...(d.file_ready === 1 && d.file_key !== null
          ? { url: await ctx.blobs.presign(d.file_key, { method: 'GET', expiresInSeconds: DOCUMENT_URL_LIFETIME_SECONDS }) }
          : {}),
        signProfile: people,
      })),
    ),
  };
}
