import type { Clock } from '../clock.js';
import type { Db } from '../db/database.js';
import { parseJson } from '../db/json-column.js';
import type { ParticipantRow, ProcessDocumentRow, ProcessRow } from '../db/schema.js';
import { newObjectId } from '../ids.js';
import { emitEvent } from '../webhooks/emit-event.js';
import { documentsAsRead, type EventDocument, type SealedFiles, sealedFiles } from './event-files.js';
import { flatProcessBodies, hasFlatBody } from './flat-webhook-bodies.js';
import { insertProcessEvent, listDocuments } from './queries.js';
import { queueReaderUpdate } from './readers/notify-readers.js';

/**
 * The audit trail's actions, named as the real service's roadmap names them where it has a name
 * (NOTIFICATION_SIGN, PARTICIPANT_SIGN, CANCEL_SIGN, ...); the identity steps are ours.
 */
export const PROCESS_ACTIONS = [
  'CREATE',
  'DOCUMENT_UPLOADED',
  'NOTIFICATION_SIGN',
  'NOTIFICATION_APPROVER',
  'NOTIFICATION_FAILED_SIGN',
  'REMINDER_SIGN',
  'PARTICIPANT_READ',
  'DOCUMENT_OPENED',
  'OTP_SENT',
  'OTP_VERIFIED',
  'OTP_FAILED',
  'PHOTO_CAPTURED',
  'PHOTO_UNUSABLE',
  'COMPARISONS_LIMITED',
  'IDENTITY_VERIFIED',
  'IDENTITY_FAILED',
  'PARTICIPANT_BLOCK',
  'PARTICIPANT_UNLOCK',
  'PARTICIPANT_SIGN',
  'PARTICIPANT_APPROVE',
  'PARTICIPANT_REJECT',
  'FINISH',
  'EXPIRED',
  'CANCEL_SIGN',
  'REACTIVATION_SIGN',
  'UPDATE_SIGNER',
  'EDIT_SIGN',
  'UPDATE_SIGN',
  'ATTACHMENT_UPLOAD',
  'ATTACHMENTS_GIVEN',
  'ATTACHMENTS_APPROVED',
  'ATTACHMENTS_REJECTED',
  'PRINT',
  'PHOTOS_DELETED',
  'SEAL_FAILED',
  'SIGNED_FILES_READY',
] as const;
export type ProcessAction = (typeof PROCESS_ACTIONS)[number];

/**
 * The actions integrators are told about, as `<kind>.<event>` webhooks (`document.finished`,
 * `package.finished`, ...). `status` is the real service's webhook status for the same moment.
 */
export const PROCESS_WEBHOOKS = {
  CREATE: { event: 'created', status: 'CREATE', summary: 'The process was created (url: its PDF, once stored)' },
  NOTIFICATION_FAILED_SIGN: {
    event: 'notification_failed',
    status: 'NOTIFICATION_FAILED',
    summary: "A participant's invitation or reminder never reached them: WhatsApp refused or could not deliver it (message: why)",
  },
  PARTICIPANT_READ: { event: 'signer_opened', status: 'READ', summary: 'A participant opened their link for the first time' },
  PARTICIPANT_SIGN: { event: 'signer_finished', status: 'NOTIFICATION', summary: 'A participant signed' },
  PARTICIPANT_APPROVE: { event: 'signer_finished', status: 'NOTIFICATION', summary: 'A participant approved' },
  PARTICIPANT_BLOCK: {
    event: 'signer_blocked',
    status: 'BLOCKED',
    summary: 'A participant failed identity validation too often (message: the reason)',
  },
  PARTICIPANT_UNLOCK: {
    event: 'signer_unlocked',
    status: 'UNLOCK',
    summary: 'A person let a blocked participant go on: approved their identity or reset their attempts (message, by)',
  },
  PARTICIPANT_REJECT: { event: 'rejected', status: 'REJECT', summary: 'A participant rejected: the process is rejected (message: their reason)' },
  FINISH: {
    event: 'finished',
    status: 'FINISH',
    summary: 'Every participant signed or approved (url: the PDF they signed, before the seal; the sealed files come with signed_files_ready)',
  },
  EXPIRED: { event: 'expired', status: 'EXPIRED', summary: 'The expiry date passed while in signature (url: the PDF, when it has one)' },
  CANCEL_SIGN: { event: 'cancelled', status: 'CANCEL', summary: 'The process was cancelled (message: the reason, by: who)' },
  REACTIVATION_SIGN: {
    event: 'reactivated',
    status: 'REACTIVATED',
    summary:
      'A rejected or expired process is in signature again (by: who; from: REJECTED or EXPIRED; expiredDate: the new expiry, when the old one had passed); its invitations follow',
  },
  UPDATE_SIGNER: {
    event: 'signer_delegated',
    status: 'UPDATE_SIGNER',
    summary:
      "A signer handed their place to another person from their page (signer: who handed it on; delegate: {id, name, email, phone?}, the new participant, with a new id and link; message: the reason; by: the signer's e-mail)",
  },
  EDIT_SIGN: {
    event: 'editing',
    status: 'EDITING',
    summary: 'The process was put in edit mode: nobody can act on it until it is sent again with its code (POST /document/upload, /save or /many)',
  },
  UPDATE_SIGN: {
    event: 'updated',
    status: 'UPDATE',
    summary: 'A process in edit mode was sent again and replaced whole, keeping its code (url: its new PDF); its participants are invited again with new links',
  },
  ATTACHMENT_UPLOAD: {
    event: 'attachment_uploaded',
    status: 'ATTACHMENT_UPLOADED',
    summary:
      'A participant gave one of the files asked of them, or gave it again (attachment: its name; sha256, contentType, size; message: the name and SHA-256). GET /attachments has its download URL',
  },
  ATTACHMENTS_GIVEN: {
    event: 'signer_finished',
    status: 'NOTIFICATION',
    summary: 'A participant of a process without a document to sign gave every required file: they are done (POST /package/upload)',
  },
  ATTACHMENTS_APPROVED: {
    event: 'attachments_approved',
    status: 'ATTACHMENTS_APPROVED',
    summary: "The process's creator approved a participant's files (by: who; attachments: their names)",
  },
  ATTACHMENTS_REJECTED: {
    event: 'attachments_rejected',
    status: 'ATTACHMENTS_REJECTED',
    summary: "The process's creator rejected a participant's files: they are asked again (by: who; attachments: their names; message: why)",
  },
  PRINT: {
    event: 'printed',
    status: 'PRINTED',
    summary:
      "A `sign: false` process's document was e-mailed for printing, once (documents: the attached PDFs' file names; recipients: the participants' e-mails, those with notification: false left out)",
  },
  PHOTOS_DELETED: {
    event: 'photos_deleted',
    status: 'PHOTOS_DELETED',
    summary: "The participants' identity photos were deleted (message and reason: retention or on request; deleted: how many)",
  },
  SEAL_FAILED: {
    event: 'seal_failed',
    status: 'SEAL_FAILED',
    summary:
      "The final files could not be made: a document is missing, changed or cannot be opened, or no timestamp authority or revocation responder answered for the organization's PAdES level (message: which and why). No final file is written, never one at a lower level; the seal is retried, and succeeds once the file is put right or the authority answers",
  },
  SIGNED_FILES_READY: {
    event: 'signed_files_ready',
    status: 'SIGNED_FILES_READY',
    summary:
      'The sealed final files are stored and can be downloaded, once per process, after finished: url (a document: its sealed PDF), documents [{name, signedUrl}] and certificateUrl, each a 5-minute URL signed as the delivery is sent',
  },
} as const satisfies Partial<Record<ProcessAction, { event: string; status: string; summary: string }>>;

function hasWebhook(action: ProcessAction): action is keyof typeof PROCESS_WEBHOOKS {
  return Object.hasOwn(PROCESS_WEBHOOKS, action);
}

export function signerSummary(participant: ParticipantRow): { id: string; name: string; email: string; phone?: string } {
  return {
    id: participant.participant_id,
    name: participant.name,
    email: participant.email,
    ...(participant.phone === null ? {} : { phone: participant.phone }),
  };
}

export interface ProcessEventOptions {
  process: ProcessRow;
  action: ProcessAction;
  participant?: ParticipantRow;
  /** Where it happened: EMAIL, WHATSAPP, SMS, API. */
  platform?: string;
  /** Who did it, when not the participant: the organization user's e-mail. */
  actor?: string;
  message?: string;
  detail?: Record<string, unknown>;
  /** UPDATE_SIGNER: the person the participant handed their place to, as the place now holds them. */
  delegate?: ParticipantRow;
  /** The process's documents, when the caller has them at hand: read otherwise, for the moments whose bodies point to them. */
  documents?: ProcessDocumentRow[];
}

/** The moments whose bodies point to the documents as the participants read them (REFERENCE §11.2: CREATE, FINISH, EXPIRED). */
const WITH_DOCUMENTS: readonly ProcessAction[] = ['CREATE', 'UPDATE_SIGN', 'FINISH', 'EXPIRED'];

/**
 * The files the bodies of a moment point to: the documents as read, or the sealed files once the
 * seal recorded them (SIGNED_FILES_READY); none for the other moments.
 */
async function filesOf(db: Db, options: ProcessEventOptions): Promise<{ documents?: EventDocument[]; sealed?: SealedFiles }> {
  const { process, action } = options;
  if (action === 'SIGNED_FILES_READY') {
    const sealed = await sealedFiles(db, process);
    return sealed ? { documents: sealed.documents, sealed } : {};
  }
  if (!WITH_DOCUMENTS.includes(action)) return {};
  return { documents: documentsAsRead(options.documents ?? (await listDocuments(db, process.id))) };
}

/**
 * The typed body's files: a document's `url` (a package's documents are listed by GET /document;
 * `documents` in its typed bodies is their count); once sealed, each document's `signedUrl` and
 * the `certificateUrl`, as GET /document names them.
 */
function typedFiles(process: ProcessRow, files: { documents?: EventDocument[]; sealed?: SealedFiles }): Record<string, unknown> {
  const { documents, sealed } = files;
  const url = process.kind === 'document' ? documents?.[0]?.url : undefined;
  return {
    ...(url === undefined ? {} : { url }),
    ...(sealed ? { documents: sealed.documents.map((d) => ({ name: d.name, signedUrl: d.url })), certificateUrl: sealed.certificate } : {}),
  };
}

/** The files a moment is about, for its flat body: one (`attachment`, a name) or several (`attachments`). */
function attachmentsOf(detail: Record<string, unknown> | undefined): { attachments?: string[] } {
  if (typeof detail?.attachment === 'string') return { attachments: [detail.attachment] };
  const names = detail?.attachments;
  return Array.isArray(names) && names.every((name) => typeof name === 'string') ? { attachments: names } : {};
}

/**
 * Where a person's request came from, for their audit line's detail (the roadmap's `ip`): the
 * address Fastify gives as `request.ip`, which behind a reverse proxy is the client's only when
 * TRUST_PROXY names the proxy.
 */
export interface FromAddress {
  ip?: string;
}

export function addressDetail(from: FromAddress): { ip?: string } {
  return from.ip === undefined ? {} : { ip: from.ip };
}

/**
 * Writes one line of the audit trail and, for the actions integrators are told about, queues the
 * webhook, and for those readers are told about, their update, in the caller's transaction: the
 * change, its record and its notifications commit together.
 */
export async function recordProcessEvent(db: Db, clock: Clock, options: ProcessEventOptions): Promise<void> {
  const { process, action, participant } = options;
  const now = clock.now();
  await insertProcessEvent(db, {
    id: newObjectId(now),
    process_id: process.id,
    participant_id: participant?.participant_id ?? null,
    action,
    platform: options.platform ?? null,
    actor: options.actor ?? null,
    message: options.message ?? null,
    detail: options.detail ? JSON.stringify(options.detail) : null,
    at: now.toISOString(),
  });
  const delegate = options.delegate ? signerSummary(options.delegate) : undefined;
  await queueReaderUpdate(db, clock, {
    process,
    action,
    ...(participant ? { participantName: participant.name } : {}),
    ...(delegate ? { delegateName: delegate.name } : {}),
    ...(options.message === undefined ? {} : { message: options.message }),
  });
  if (!hasWebhook(action)) return;
  const webhook = PROCESS_WEBHOOKS[action];
  const status = process.kind === 'package' && action === 'FINISH' ? 'SIGNED_PACKAGE' : webhook.status;
  const signer = participant ? signerSummary(participant) : undefined;
  const files = await filesOf(db, options);
  await emitEvent(db, clock, {
    organizationId: process.organization_id,
    type: `${process.kind}.${webhook.event}`,
    data: {
      code: process.code,
      name: process.name,
      status,
      ...(signer ? { signer } : {}),
      ...(delegate ? { delegate } : {}),
      ...(options.message === undefined ? {} : { message: options.message }),
      ...(options.actor === undefined ? {} : { by: options.actor }),
      ...options.detail,
      ...typedFiles(process, files),
    },
    ...(hasFlatBody(action)
      ? {
          flat: () =>
            flatProcessBodies(db, {
              process,
              action,
              ...(signer ? { signer, similarity: participant?.similarity } : {}),
              ...(delegate ? { delegate } : {}),
              ...(options.message === undefined ? {} : { message: options.message }),
              ...(files.documents === undefined ? {} : { documents: files.documents }),
              ...attachmentsOf(options.detail),
            }),
        }
      : {}),
    targetWebhooks: parseJson<string[]>(process.target_webhooks),
    custom: parseJson<Record<string, unknown>>(process.custom),
    tags: parseJson<string[]>(process.tags),
  });
}
