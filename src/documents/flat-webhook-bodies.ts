import type { Db } from '../db/database.js';
import type { ProcessRow } from '../db/schema.js';
import type { FlatBody } from '../webhooks/payload/event.js';
import type { EventDocument } from './event-files.js';
import { listDocuments } from './queries.js';

/** The audit actions that have a flat body; every other action sends a flat webhook nothing. */
export type FlatAction =
  | 'CREATE'
  | 'UPDATE_SIGN'
  | 'PARTICIPANT_SIGN'
  | 'PARTICIPANT_APPROVE'
  | 'PARTICIPANT_BLOCK'
  | 'PARTICIPANT_REJECT'
  | 'SIGNED_FILES_READY'
  | 'EXPIRED'
  | 'CANCEL_SIGN'
  | 'REACTIVATION_SIGN'
  | 'UPDATE_SIGNER'
  | 'ATTACHMENT_UPLOAD'
  | 'ATTACHMENTS_GIVEN'
  | 'ATTACHMENTS_APPROVED'
  | 'ATTACHMENTS_REJECTED';

type PackageDocumentStatus = 'CREATE' | 'FINISH' | 'REJECT' | 'EXPIRED';

/**
 * How each moment reads in the real service's bodies (REFERENCE §11.2 and §11.3): the status of
 * each body it sends, in order, and for packages the status of every document. A rejection is two
 * bodies, REJECT (the process) and REJECTED (who and why); a cancellation is REJECTED alone, which
 * "carries the details of the rejection or cancellation". The real service documents no body for
 * a reactivation; ours is REACTIVATED, with a package's documents back at CREATE. Nor one for a
 * delegation: ours is UPDATE_SIGNER, the roadmap's name, with `signer` (who handed their place on),
 * `delegate` (the new participant, as `signer` names people) and `message` (the reason).
 *
 * FINISH (SIGNED_PACKAGE) is sent when the sealed files are stored, not when the last participant
 * signs: its `url` is what a receiver of the real service downloads and keeps as the signed
 * document, and before the seal there is only the unsigned one. So a flat webhook gets no body of
 * its own for `signed_files_ready`: FINISH is that moment.
 */
const MOMENTS: Record<FlatAction, { document: string[]; package: string[]; documents?: PackageDocumentStatus }> = {
  CREATE: { document: ['CREATE'], package: ['CREATE'], documents: 'CREATE' },
  // The real service documents no body for an overwrite; a receiver of it sees the process created again, with its code.
  UPDATE_SIGN: { document: ['CREATE'], package: ['CREATE'], documents: 'CREATE' },
  PARTICIPANT_SIGN: { document: ['NOTIFICATION'], package: ['NOTIFICATION'] },
  PARTICIPANT_APPROVE: { document: ['NOTIFICATION'], package: ['NOTIFICATION'] },
  PARTICIPANT_BLOCK: { document: ['BLOCKED'], package: ['BLOCKED'], documents: 'CREATE' },
  PARTICIPANT_REJECT: { document: ['REJECT', 'REJECTED'], package: ['DOCUMENT_REJECT', 'REJECTED'], documents: 'REJECT' },
  SIGNED_FILES_READY: { document: ['FINISH'], package: ['SIGNED_PACKAGE'], documents: 'FINISH' },
  EXPIRED: { document: ['EXPIRED'], package: ['EXPIRED'], documents: 'EXPIRED' },
  CANCEL_SIGN: { document: ['REJECTED'], package: ['REJECTED'] },
  REACTIVATION_SIGN: { document: ['REACTIVATED'], package: ['REACTIVATED'], documents: 'CREATE' },
  UPDATE_SIGNER: { document: ['UPDATE_SIGNER'], package: ['UPDATE_SIGNER'] },
  // REFERENCE §11.5: the real service documents no body for attachments; these are ours, in its shape (docs/api.md, "Attachments").
  ATTACHMENT_UPLOAD: { document: ['ATTACHMENT_UPLOADED'], package: ['ATTACHMENT_UPLOADED'] },
  ATTACHMENTS_GIVEN: { document: ['NOTIFICATION'], package: ['NOTIFICATION'] },
  ATTACHMENTS_APPROVED: { document: ['ATTACHMENTS_APPROVED'], package: ['ATTACHMENTS_APPROVED'] },
  ATTACHMENTS_REJECTED: { document: ['ATTACHMENTS_REJECTED'], package: ['ATTACHMENTS_REJECTED'] },
};

export function hasFlatBody(action: string): action is FlatAction {
  return Object.hasOwn(MOMENTS, action);
}

/** The statuses whose body names the participant, and carries the reason in `message`. */
const ABOUT_A_PARTICIPANT = new Set([
  'NOTIFICATION',
  'BLOCKED',
  'REJECTED',
  'UPDATE_SIGNER',
  'ATTACHMENT_UPLOADED',
  'ATTACHMENTS_APPROVED',
  'ATTACHMENTS_REJECTED',
]);

/** The statuses whose body names the files concerned, `attachments` [names]; the upload's `message` would only repeat them. */
const ABOUT_FILES = new Set(['ATTACHMENT_UPLOADED', 'ATTACHMENTS_APPROVED', 'ATTACHMENTS_REJECTED']);

/** The statuses whose body carries the document's `url` (REFERENCE §11.2's CREATE, FINISH and EXPIRED examples). */
const WITH_URL = new Set(['CREATE', 'FINISH', 'EXPIRED']);

export interface FlatProcessMoment {
  process: ProcessRow;
  action: FlatAction;
  /** The participant concerned, as the typed body's `signer` names them, and their face comparison (0 to 100). */
  signer?: { id: string; name: string; email: string; phone?: string };
  similarity?: number | null;
  /** UPDATE_SIGNER: the person the place was handed to. */
  delegate?: { id: string; name: string; email: string; phone?: string };
  /** The rejection's or cancellation's reason, or why the participant was blocked. */
  message?: string;
  /** The documents with their PDFs, as read or sealed, for the moments whose bodies carry `url`. */
  documents?: EventDocument[];
  /** The names of the files given, approved or rejected. */
  attachments?: string[];
}

/**
 * The flat bodies of one moment of a process. `signer` is `{id, name, email, phone?}`;
 * `similarity` is the participant's face comparison on 0..1, as the real service's webhooks give it.
 * A package names itself in `package` and lists its documents, each `{name, status, url?}`, where
 * REFERENCE lists them. `url` is a PDF's download URL, signed for 5 minutes as each attempt is sent
 * (src/webhooks/file-links.ts): the document as read at CREATE and EXPIRED, sealed at FINISH.
 */
export async function flatProcessBodies(db: Db, moment: FlatProcessMoment): Promise<FlatBody[]> {
  const { process, signer, similarity } = moment;
  const shape = MOMENTS[moment.action];
  const isPackage = process.kind === 'package';
  const documentStatus = shape.documents;
  const listed =
    isPackage && documentStatus !== undefined
      ? (moment.documents ?? (await listDocuments(db, process.id)).map((d): EventDocument => ({ name: d.name, ...(d.code === null ? {} : { code: d.code }) })))
      : undefined;
  const documents = listed?.map((d) => ({
    ...(d.code === undefined ? {} : { code: d.code }),
    name: d.name,
    status: documentStatus,
    ...(d.url === undefined ? {} : { url: d.url }),
  }));
  const url = isPackage ? undefined : moment.documents?.[0]?.url;
  return (isPackage ? shape.package : shape.document).map((status) => {
    const aboutParticipant = ABOUT_A_PARTICIPANT.has(status);
    return {
      ...(isPackage ? { package: process.code } : { code: process.code }),
      name: process.name,
      status,
      ...(url !== undefined && WITH_URL.has(status) ? { url } : {}),
      ...(aboutParticipant && signer ? { signer } : {}),
      ...(aboutParticipant && moment.delegate ? { delegate: moment.delegate } : {}),
      ...(aboutParticipant && typeof similarity === 'number' ? { similarity: similarity / 100 } : {}),
      ...(aboutParticipant && status !== 'NOTIFICATION' && status !== 'ATTACHMENT_UPLOADED' && moment.message !== undefined ? { message: moment.message } : {}),
      ...(ABOUT_FILES.has(status) && moment.attachments ? { attachments: moment.attachments } : {}),
      ...(documents && status !== 'REJECTED' ? { documents } : {}),
    };
  });
}
