import type { ServiceContext } from '../../context.js';
import { decodeCursor, page } from '../../db/cursor.js';
import { parseJson } from '../../db/json-column.js';
import type {
  IdentityAttemptRow,
  ParticipantRow,
  ProcessDocumentRow,
  ProcessEventRow,
  ProcessKind,
  ProcessRow,
  ProcessStatus,
  ReaderRow,
} from '../../db/schema.js';
import { fail } from '../../domain-error.js';
import { DOCUMENT_URL_LIFETIME_SECONDS } from '../../files/document-url-lifetime.js';
import { type AttemptView, attemptViews, identityHash, type OcrData, ocrDataOf, participantHashSubject } from '../../identity-attempts/attempt-view.js';
import { listAttempts } from '../../identity-attempts/queries.js';
import { isRecord } from '../../is-record.js';
import { findUserByEmail } from '../../organizations/queries.js';
import { readSettings } from '../../organizations/settings.js';
import { fileStatuses, filesWithUrls, type ParticipantFile } from '../attachments/participant-files.js';
import { listProcessAttachments } from '../attachments/queries.js';
import { findFolderPath } from '../editing/queries.js';
import type { EffectiveValidations } from '../identity-validations.js';
import { validationsOf } from '../notify-participants.js';
import * as q from '../queries.js';
import { listReaders } from '../readers/queries.js';
import { finalFileNames } from '../sealing/final-file-names.js';
import { finalFileKeys } from '../sealing/final-file-queries.js';

export interface ParticipantView {
  id: string;
  name: string;
  email: string;
  phone?: string;
  role: ParticipantRow['role'];
  order: number;
  type?: string;
  status: ParticipantRow['status'];
  /** What this participant is asked for, after the global/individual rules. */
  validations: EffectiveValidations;
  notification: boolean;
  openedAt?: string;
  otpVerifiedAt?: string;
  identityVerifiedAt?: string;
  similarity?: number;
  signedAt?: string;
  rejectedAt?: string;
  rejectReason?: string;
  blockReason?: string;
  /** With `image=true`: the identity photos as the contract shapes them, each a URL lasting 5 minutes. */
  identificationCard?: PhotoEntry;
  identificationCardBack?: PhotoEntry;
  photo?: PhotoEntry;
  /** With `image=true`, for a participant whose camera validation is 'identification': what was read on the document, once anything was. */
  ocrData?: OcrData;
  /** With `image=true`, the same: every identity check, as GET /veriface shows them. */
  attempts?: AttemptView[];
  /** With `image=true`, the same: the integrity code of the identity validation once it is over (docs/api.md, "The hash"). */
  hash?: string;
  /** The files asked of the participant (attachments), each given one with a download URL of five minutes. */
  files?: ParticipantFile[];
}

/** A reader in GET /document and the roadmap: no id (the real service gives readers none), no status, since they never act. */
export interface ReaderView {
  name: string;
  email: string;
  role: 'READER';
}

export interface PhotoEntry {
  type: 'presigned';
  data: string;
}

export interface DocumentView {
  name: string;
  /** A package document's own code. */
  code?: string;
  source: ProcessDocumentRow['source'];
  template?: string;
  /** False while the PDF upload is awaited. */
  ready: boolean;
  sha256?: string;
  /** Download URL of the document as it is being signed (5 minutes). */
  url?: string;
  /** Download URL of the signed document once the process is finished (5 minutes). */
  signedUrl?: string;
}

export interface ProcessView {
  code: string;
  kind: ProcessRow['kind'];
  name: string;
  status: ProcessStatus;
  /** True once every participant signed or approved. */
  signFinish: boolean;
  /** Created with `sign: false`: its document was e-mailed for printing, nobody signs. */
  sign?: false;
  email: string;
  subject: string;
  message: string;
  expiredDate?: string;
  remember?: number;
  custom?: Record<string, unknown>;
  targetWebhooks?: string[];
  tags?: string[];
  /** The cancellation or rejection reason, and who cancelled. */
  reason?: string;
  endedBy?: string;
  /** Download URL of the evidence certificate once finished (5 minutes). */
  certificateUrl?: string;
  /** When the participants' identity photos were deleted, by the retention purge or on request. */
  photosDeletedAt?: string;
  /** Finished, but its final files could not be made, until a seal succeeds: since when, and which document and why. */
  sealFailure?: { at: string; message: string };
  /** The creator's folder it sits in. */
  folder?: string;
  documents: DocumentView[];
  /** The participants, then the readers. */
  signProfile: (ParticipantView | ReaderView)[];
  /** The addresses sent a copy of the final files. */
  cc?: string[];
  /** Read with `package`: the real service's names (docs/real-service.md §4.2) for the package code, its documents' codes and its participants. */
  _id?: string;
  codes?: string[];
  signers?: { userId: string; email: string; name: string; phone?: string; status: ParticipantRow['status'] }[];
  createdAt: string;
  updatedAt: string;
}

/**
 * What the public key reads of a process: what the holder of its code may see. The public key sits
 * in integrators' web pages, so no contact data, identity data, participant ids (with the code they
 * open a participant's flow in the SDK), free text, link or download URL.
 */
export interface PublicProcessView {
  code: string;
  kind: ProcessRow['kind'];
  name: string;
  status: ProcessStatus;
  signFinish: boolean;
  sign?: false;
  expiredDate?: string;
  documents: { name: string; ready: boolean }[];
  signProfile: {
    name: string;
    role: ParticipantRow['role'];
    order: number;
    status: ParticipantRow['status'];
    signedAt?: string;
    rejectedAt?: string;
    /** The files asked of them, by name and status: never a URL, since the public key sits in web pages. */
    files?: Omit<ParticipantFile, 'url'>[];
  }[];
  createdAt: string;
  updatedAt: string;
}

function participantView(p: ParticipantRow): ParticipantView {
  const optional = (key: string, value: string | number | null) => (value === null ? {} : { [key]: value });
  return {
    id: p.participant_id,
    name: p.name,
    email: p.email,
    ...optional('phone', p.phone),
    role: p.role,
    order: p.sign_order,
    ...optional('type', p.signer_type),
    status: p.status,
    validations: validationsOf(p),
    notification: p.notification === 1,
    ...optional('openedAt', p.opened_at),
    ...optional('otpVerifiedAt', p.otp_verified_at),
    ...optional('identityVerifiedAt', p.camera_verified_at),
    ...optional('similarity', p.similarity),
    ...optional('signedAt', p.signed_at),
    ...optional('rejectedAt', p.rejected_at),
    ...optional('rejectReason', p.reject_reason),
    ...optional('blockReason', p.block_reason),
  };
}

function photoEntries(ctx: ServiceContext, p: ParticipantRow): Pick<ParticipantView, 'identificationCard' | 'identificationCardBack' | 'photo'> {
  const entry = (key: string | null) => (key === null ? undefined : { type: 'presigned' as const, data: ctx.photos.url(key) });
  const [identificationCard, identificationCardBack, photo] = [entry(p.document_front_key), entry(p.document_back_key), entry(p.face_key)];
  return { ...(identificationCard && { identificationCard }), ...(identificationCardBack && { identificationCardBack }), ...(photo && { photo }) };
}

function readerViews(readers: ReaderRow[]): ReaderView[] {
  return readers.flatMap((r) => (r.kind === 'READER' && r.name !== null ? [{ name: r.name, email: r.email, role: 'READER' as const }] : []));
}

/** A process that ended: its participants' identity checks are over. */
const ENDED: readonly ProcessStatus[] = ['FINISH', 'REJECTED', 'CANCELLED', 'EXPIRED'];

/**
 * With `image=true`, a participant whose camera validation is 'identification' shows what was read
 * on their document and every check, as GET /veriface does, and the hash once their validation is
 * over (verified, or the process ended).
 */
function identityEvidence(ctx: ServiceContext, process: ProcessRow, p: ParticipantRow, attempts: readonly IdentityAttemptRow[]) {
  const validations = validationsOf(p);
  if (!validations.camera || validations.options.camera !== 'identification') return {};
  const own = attempts.filter((attempt) => attempt.participant_row_id === p.id);
  const ocrData = ocrDataOf(own);
  const over = p.camera_verified_at !== null || ENDED.includes(process.status);
  return {
    ...(ocrData === undefined ? {} : { ocrData }),
    attempts: attemptViews(ctx.photos, own),
    ...(over ? { hash: identityHash(participantHashSubject(process, p), own) } : {}),
  };
}

/** The process of `code` with its documents and participants, and, when asked, where its recorded final files are: read side by side. */
async function loadProcess(ctx: ServiceContext, options: { organizationId: string; code: string; kind?: ProcessKind; finalFiles?: boolean }) {
  const process = await q.findProcessByCode(ctx.db, options.organizationId, options.code);
  // `package` names packages only: a document's code there is unknown, as the real service answers it.
  if (!process || (options.kind !== undefined && process.kind !== options.kind)) throw fail('DOCUMENT_NOT_FOUND', { when: 'elsewhere' });
  const finalFiles = options.finalFiles && process.sealed_at !== null;
  const [documents, participants, sealed, settings, attachments] = await Promise.all([
    q.listDocuments(ctx.db, process.id),
    q.listParticipants(ctx.db, process.id),
    finalFiles ? finalFileKeys(ctx.db, process.id) : undefined,
    finalFiles ? readSettings(ctx.db, process.organization_id) : undefined,
    listProcessAttachments(ctx.db, process.id),
  ]);
  return { process, documents, participants, attachments, sealed, names: sealed && finalFileNames(process, documents, settings?.language ?? 'es') };
}

/** What either key reads first of a process: what it is and where it stands. */
function processHead(process: ProcessRow) {
  const print = process.sign === 0;
  return {
    code: process.code,
    kind: process.kind,
    name: process.name,
    status: process.status,
    // A process for printing is FINISH without anyone signing.
    signFinish: process.status === 'FINISH' && !print,
    ...(print ? { sign: false as const } : {}),
  };
}

/**
 * A process as an integrator follows it: status, documents with short-lived download URLs (and the
 * signed files once finished), and each participant with their status and effective validations.
 */
export async function readProcess(
  ctx: ServiceContext,
  options: { organizationId: string; code: string; image?: boolean; kind?: ProcessKind },
): Promise<ProcessView> {
  const { process, documents, participants, attachments, sealed, names } = await loadProcess(ctx, { ...options, finalFiles: true });
  const asked = (p: ParticipantRow) => attachments.some((row) => row.participant_row_id === p.id);
  const [attempts, readers, folder] = await Promise.all([
    options.image ? listAttempts(ctx.db, { organizationId: options.organizationId, ownerId: process.id }) : undefined,
    listReaders(ctx.db, process.id),
    process.folder_id === null ? undefined : findFolderPath(ctx.db, process.folder_id),
  ]);
  const cc = readers.filter((r) => r.kind === 'CC').map((r) => r.email);
  const download = (key: string, downloadName?: string) =>
    ctx.blobs.presign(key, { method: 'GET', expiresInSeconds: DOCUMENT_URL_LIFETIME_SECONDS, ...(downloadName === undefined ? {} : { downloadName }) });
  const custom = parseJson<Record<string, unknown>>(process.custom);
  const targetWebhooks = parseJson<string[]>(process.target_webhooks);
  const tags = parseJson<string[]>(process.tags);
  return {
    ...processHead(process),
    email: process.creator_email,
    subject: process.subject,
    message: process.message,
    ...(process.expires_at === null ? {} : { expiredDate: process.expires_at }),
    ...(process.remind_every_hours === null ? {} : { remember: process.remind_every_hours }),
    ...(custom === undefined ? {} : { custom }),
    ...(targetWebhooks === undefined ? {} : { targetWebhooks }),
    ...(tags === undefined ? {} : { tags }),
    ...(process.end_reason === null ? {} : { reason: process.end_reason }),
    ...(process.ended_by === null ? {} : { endedBy: process.ended_by }),
    ...(sealed ? { certificateUrl: await download(sealed.certificate, names?.certificate) } : {}),
    ...(process.photos_deleted_at === null ? {} : { photosDeletedAt: process.photos_deleted_at }),
    ...(process.sealed_at === null && process.seal_failed_at !== null
      ? { sealFailure: { at: process.seal_failed_at, message: process.seal_failure ?? '' } }
      : {}),
    ...(folder === undefined ? {} : { folder }),
    documents: await Promise.all(
      documents.map(async (d): Promise<DocumentView> => {
        const signed = sealed?.documents[d.position];
        return {
          name: d.name,
          ...(d.code === null ? {} : { code: d.code }),
          source: d.source,
          ...(d.template_id === null ? {} : { template: d.template_id }),
          ready: d.file_ready === 1,
          ...(d.sha256 === null ? {} : { sha256: d.sha256 }),
          ...(d.file_ready === 1 && d.file_key !== null ? { url: await download(d.file_key) } : {}),
          ...(signed === undefined ? {} : { signedUrl: await download(signed, names?.documents[d.position]) }),
        };
      }),
    ),
    signProfile: [
      ...(await Promise.all(
        participants.map(async (p) => ({
          ...participantView(p),
          ...(attempts ? { ...photoEntries(ctx, p), ...identityEvidence(ctx, process, p, attempts) } : {}),
          ...(asked(p) ? { files: await filesWithUrls(ctx, { process, participant: p, rows: attachments, withDocument: documents.length > 0 }) } : {}),
        })),
      )),
      ...readerViews(readers),
    ],
    ...(cc.length === 0 ? {} : { cc }),
    ...(options.kind === 'package' ? packageNames(process, documents, participants) : {}),
    createdAt: process.created_at,
    updatedAt: process.updated_at,
  };
}

function packageNames(process: ProcessRow, documents: ProcessDocumentRow[], participants: ParticipantRow[]) {
  return {
    _id: process.code,
    codes: documents.flatMap((d) => (d.code === null ? [] : [d.code])),
    signers: participants.map((p) => ({
      userId: p.participant_id,
      email: p.email,
      name: p.name,
      ...(p.phone === null ? {} : { phone: p.phone }),
      status: p.status,
    })),
  };
}

/** A process as the public key reads it (`PublicProcessView`): each field named here, nothing copied wholesale. */
export async function readPublicProcess(
  ctx: ServiceContext,
  options: { organizationId: string; code: string; kind?: ProcessKind },
): Promise<PublicProcessView> {
  const { process, documents, participants, attachments } = await loadProcess(ctx, options);
  return {
    ...processHead(process),
    ...(process.expires_at === null ? {} : { expiredDate: process.expires_at }),
    documents: documents.map((d) => ({ name: d.name, ready: d.file_ready === 1 })),
    signProfile: participants.map((p) => ({
      name: p.name,
      role: p.role,
      order: p.sign_order,
      status: p.status,
      ...(p.signed_at === null ? {} : { signedAt: p.signed_at }),
      ...(p.rejected_at === null ? {} : { rejectedAt: p.rejected_at }),
      ...(attachments.some((row) => row.participant_row_id === p.id) ? { files: fileStatuses(p, attachments, documents.length > 0) } : {}),
    })),
    createdAt: process.created_at,
    updatedAt: process.updated_at,
  };
}

export interface ProcessSummary {
  code: string;
  kind: ProcessRow['kind'];
  name: string;
  status: ProcessStatus;
  expiredDate?: string;
  createdAt: string;
  updatedAt: string;
}

/** The organization's processes newest first, narrowed by the filters given, page by page (`{data, next}`). */
export async function listProcesses(
  ctx: ServiceContext,
  options: q.ProcessFilters & { organizationId: string; limit: number; cursor?: string },
): Promise<{ data: ProcessSummary[]; next: string | null }> {
  const { organizationId, limit, cursor, ...filters } = options;
  const after = cursor === undefined ? undefined : decodeCursor(cursor);
  const rows = await q.listProcesses(ctx.db, organizationId, { ...filters, limit: limit + 1, ...(after ? { after } : {}) });
  const { rows: kept, next } = page(rows, options.limit);
  return {
    data: kept.map((row) => ({
      code: row.code,
      kind: row.kind,
      name: row.name,
      status: row.status,
      ...(row.expires_at === null ? {} : { expiredDate: row.expires_at }),
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    })),
    next,
  };
}

export interface RoadmapView {
  name: string;
  documentCode: string;
  createdAt: string;
  author: { name?: string; email: string };
  /** The participants, then the readers (who have no id). */
  participants: ({ id: string; name: string; role: ParticipantRow['role']; email: string; phone?: string; ipAddress?: string } | ReaderView)[];
  activityLog: { action: string; participant: string; platform?: string; timestamp: string; by?: string; ip?: string; message?: string }[];
}

/** `{[key]: value}`, or nothing for a value that is empty: the roadmap leaves such keys out, never null or "". */
function present<K extends string>(key: K, value: string | null | undefined): Partial<Record<K, string>> {
  return value === null || value === undefined || value === '' ? {} : ({ [key]: value } as Partial<Record<K, string>>);
}

/** The client address an audit line recorded: the person's request's (src/documents/process-events.ts, FromAddress). */
function addressOf(event: ProcessEventRow): string | undefined {
  const detail = parseJson<unknown>(event.detail);
  return isRecord(detail) && typeof detail.ip === 'string' ? detail.ip : undefined;
}

/**
 * The audit trail in the real service's roadmap shape: empty keys left out, oldest first. A
 * participant's `ipAddress` is the address of their latest request the trail recorded one for
 * (the bare address: the real service adds a place, which would need a geolocation database).
 */
export async function readRoadmap(ctx: ServiceContext, options: { organizationId: string; code: string }): Promise<RoadmapView> {
  const process = await q.findProcessByCode(ctx.db, options.organizationId, options.code);
  if (!process) throw fail('DOCUMENT_NOT_FOUND', { when: 'elsewhere' });
  const [participants, events, readers, author] = await Promise.all([
    q.listParticipants(ctx.db, process.id),
    q.listProcessEvents(ctx.db, process.id),
    listReaders(ctx.db, process.id, 'READER'),
    findUserByEmail(ctx.db, process.organization_id, process.creator_email),
  ]);
  const lastAddress = new Map<string, string>();
  for (const event of events) {
    const ip = addressOf(event);
    if (ip !== undefined && event.participant_id !== null) lastAddress.set(event.participant_id, ip);
  }
  return {
    name: process.name,
    documentCode: process.code,
    createdAt: process.created_at,
    author: { ...present('name', author?.name), email: process.creator_email },
    participants: [
      ...participants.map((p) => ({
        id: p.participant_id,
        name: p.name,
        role: p.role,
        email: p.email,
        ...present('phone', p.phone),
        ...present('ipAddress', lastAddress.get(p.participant_id)),
      })),
      ...readerViews(readers),
    ],
    activityLog: events.map((e) => ({
      action: e.action,
      participant: e.participant_id ?? 'ARCHIVE',
      ...present('platform', e.platform),
      timestamp: e.at,
      ...present('by', e.actor),
      ...present('ip', addressOf(e)),
      ...present('message', e.message),
    })),
  };
}
