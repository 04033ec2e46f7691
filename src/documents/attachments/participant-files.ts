import type { ServiceContext } from '../../context.js';
import type { AttachmentRow, ParticipantRow, ProcessRow } from '../../db/schema.js';
import { DOCUMENT_URL_LIFETIME_SECONDS } from '../../files/document-url-lifetime.js';
import { downloadName } from '../../files/download-headers.js';
import { extensionOf } from './attachment-intake.js';
import { attachmentTypeOf, isGiven } from './attachments-asked.js';

/**
 * Where one file asked of a participant stands, as GET /document shows it: `pending` (not given, or
 * rejected and asked again: `rejected`), `uploaded` (given, not reviewed), `approved` (by the
 * creator, or final because the participant signed the document with it).
 */
export type FileStatus = 'pending' | 'uploaded' | 'approved' | 'rejected';

export interface ParticipantFile {
  name: string;
  optional: boolean;
  status: FileStatus;
  /** Private key only: a download of five minutes, once given. */
  url?: string;
}

function fileStatus(row: AttachmentRow, participant: ParticipantRow, withDocument: boolean): FileStatus {
  if (row.review === 'rejected') return 'rejected';
  if (row.file_key === null) return 'pending';
  return row.review === 'approved' || (withDocument && participant.status === 'FINISH') ? 'approved' : 'uploaded';
}

/** Each participant's files by name and status only: what the public key reads. */
export function fileStatuses(participant: ParticipantRow, rows: AttachmentRow[], withDocument: boolean): Omit<ParticipantFile, 'url'>[] {
  return rows
    .filter((row) => row.participant_row_id === participant.id)
    .map((row) => ({ name: row.name, optional: row.optional === 1, status: fileStatus(row, participant, withDocument) }));
}

/** The same with, for each file given (and not rejected), a download URL of five minutes: the private key's view. */
export async function filesWithUrls(
  ctx: ServiceContext,
  options: { process: ProcessRow; participant: ParticipantRow; rows: AttachmentRow[]; withDocument: boolean },
): Promise<ParticipantFile[]> {
  const own = options.rows.filter((row) => row.participant_row_id === options.participant.id);
  return Promise.all(
    own.map(async (row) => {
      const base = { name: row.name, optional: row.optional === 1, status: fileStatus(row, options.participant, options.withDocument) };
      const type = attachmentTypeOf(row);
      if (!isGiven(row) || row.file_key === null || type === undefined) return base;
      const url = await ctx.blobs.presign(row.file_key, {
        method: 'GET',
        expiresInSeconds: DOCUMENT_URL_LIFETIME_SECONDS,
        downloadName: downloadName(`${options.process.name} - ${row.name}`, extensionOf(type)),
      });
      return { ...base, url };
    }),
  );
}
