import type { ServiceContext } from '../../context.js';
import type { AttachmentRow, ParticipantRow, ProcessRow } from '../../db/schema.js';
import { fail } from '../../domain-error.js';
import { DOCUMENT_URL_LIFETIME_SECONDS } from '../../files/document-url-lifetime.js';
import { downloadName } from '../../files/download-headers.js';
import { findProcessByCode, listDocuments, listParticipants } from '../queries.js';
import { extensionOf } from './attachment-intake.js';
import { attachmentTypeOf, isGiven, missingAttachments } from './attachments-asked.js';
import { listProcessAttachments } from './queries.js';

/**
 * Where a participant's files stand (docs/real-service.md §5.2): `pending` until they gave any (a
 * rejected file counts as not given), `uploaded` while some wait for the creator's review or may
 * still be given, `approved` once the creator approved every file given and none required is
 * missing, or once they signed a document with them (the files are final).
 */
export type AttachmentStatus = 'pending' | 'uploaded' | 'approved';

interface AttachmentSigner {
  userId: string;
  name: string;
  email: string;
  status: AttachmentStatus;
}

export interface AttachmentFileView {
  name: string;
  description?: string;
  optional: boolean;
  /** Only once given: a download of five minutes, and what the audit trail keeps of it. */
  url?: string;
  sha256?: string;
  contentType?: string;
  size?: number;
  uploadedAt?: string;
  /** The creator's review (PUT /attachments): approved, or rejected with the reason (the file is asked again). */
  review?: 'approved' | 'rejected';
  reason?: string;
  reviewedAt?: string;
}

export interface AttachmentsView {
  package: string;
  code: string;
  name: string;
  /** The process is closed: finished, rejected, expired or cancelled. */
  finish: boolean;
  signers?: AttachmentSigner[];
  signer?: AttachmentSigner & { files: AttachmentFileView[] };
}

export function attachmentStatusOf(participant: ParticipantRow, files: AttachmentRow[], withDocument: boolean): AttachmentStatus {
  if (withDocument && participant.status === 'FINISH') return 'approved';
  const given = files.filter(isGiven);
  if (given.length === 0) return 'pending';
  return missingAttachments(files).length === 0 && given.every((file) => file.review === 'approved') ? 'approved' : 'uploaded';
}

function signerOf(participant: ParticipantRow, files: AttachmentRow[], withDocument: boolean): AttachmentSigner {
  return { userId: participant.participant_id, name: participant.name, email: participant.email, status: attachmentStatusOf(participant, files, withDocument) };
}

function reviewOf(row: AttachmentRow): Pick<AttachmentFileView, 'review' | 'reason' | 'reviewedAt'> {
  if (row.review === null || row.reviewed_at === null) return {};
  return { review: row.review, ...(row.review_reason === null ? {} : { reason: row.review_reason }), reviewedAt: row.reviewed_at };
}

async function fileView(ctx: ServiceContext, process: ProcessRow, row: AttachmentRow): Promise<AttachmentFileView> {
  const type = attachmentTypeOf(row);
  const base = { name: row.name, ...(row.description === null ? {} : { description: row.description }), optional: row.optional === 1 };
  if (row.file_key === null || type === undefined || row.sha256 === null || row.size === null || row.uploaded_at === null) return base;
  const url = await ctx.blobs.presign(row.file_key, {
    method: 'GET',
    expiresInSeconds: DOCUMENT_URL_LIFETIME_SECONDS,
    downloadName: downloadName(`${process.name} - ${row.name}`, extensionOf(type)),
  });
  return { ...base, url, sha256: row.sha256, contentType: type, size: row.size, uploadedAt: row.uploaded_at, ...reviewOf(row) };
}

/**
 * GET /attachments: the participants a process asks files of, or one of them (`userId`) with each
 * file asked and, once given, a download URL of five minutes. Only the organization's own
 * processes; one that asks no files, or a participant asked none, is ATTACHMENT_NOT_FOUND.
 */
export async function readAttachments(ctx: ServiceContext, options: { organizationId: string; code: string; userId?: string }): Promise<AttachmentsView> {
  const process = await findProcessByCode(ctx.db, options.organizationId, options.code);
  if (!process) throw fail('ATTACHMENT_NOT_FOUND');
  const [participants, rows, documents] = await Promise.all([
    listParticipants(ctx.db, process.id),
    listProcessAttachments(ctx.db, process.id),
    listDocuments(ctx.db, process.id),
  ]);
  const withDocument = documents.length > 0;
  const asked = participants
    .map((participant) => ({ participant, files: rows.filter((row) => row.participant_row_id === participant.id) }))
    .filter(({ files }) => files.length > 0);
  if (asked.length === 0) throw fail('ATTACHMENT_NOT_FOUND');
  const head = { package: process.code, code: process.code, name: process.name, finish: process.status !== 'CREATED' };
  if (options.userId === undefined) return { ...head, signers: asked.map(({ participant, files }) => signerOf(participant, files, withDocument)) };
  const one = asked.find(({ participant }) => participant.participant_id === options.userId);
  if (!one) throw fail('ATTACHMENT_NOT_FOUND');
  const files = await Promise.all(one.files.map((row) => fileView(ctx, process, row)));
  return { ...head, signer: { ...signerOf(one.participant, one.files, withDocument), files } };
}
