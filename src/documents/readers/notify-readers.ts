import type { Clock } from '../../clock.js';
import type { ServiceContext } from '../../context.js';
import type { Db } from '../../db/database.js';
import type { ProcessRow, ReaderRow } from '../../db/schema.js';
import { withTransaction } from '../../db/transaction.js';
import { isRecord } from '../../is-record.js';
import { templatedEmail } from '../../messages/message-templates.js';
import { type Language, organizationLanguage } from '../../organizations/settings.js';
import type { Claim } from '../../outbox/claim.js';
import { enqueue, type NewMessage } from '../../outbox/enqueue.js';
import type { EmailPayload } from '../../outbox/types.js';
import { findProcessById } from '../queries.js';
import { hasReaders, listReaders } from './queries.js';

/** Where a reader's page lives: under this path of PUBLIC_URL, followed by their link token. */
export const READER_PATH_PREFIX = '/read/';

/** The job that tells a process's readers of one update, once its change committed. */
export const READER_UPDATE_JOB = 'reader-update';

export function readerLink(ctx: Pick<ServiceContext, 'publicUrl'>, reader: Pick<ReaderRow, 'link_token'>): string {
  return `${ctx.publicUrl}${READER_PATH_PREFIX}${reader.link_token}`;
}

function emailsTo(process: ProcessRow, readers: ReaderRow[], payload: (reader: ReaderRow) => EmailPayload): NewMessage[] {
  return readers.map((reader) => ({ kind: 'email' as const, organizationId: process.organization_id, payload: payload(reader) }));
}

/**
 * Invites the process's readers to read it, in the caller's transaction: when its first turn of
 * participants is invited, so readers never hear of a process still waiting for its PDF.
 */
export async function inviteReaders(
  db: Db,
  ctx: Pick<ServiceContext, 'clock' | 'publicUrl'>,
  options: { process: ProcessRow; readers: ReaderRow[] },
): Promise<void> {
  const { process } = options;
  const readers = options.readers.filter((reader) => reader.kind === 'READER');
  if (readers.length === 0) return;
  const language = await organizationLanguage(db, process.organization_id);
  await enqueue(
    db,
    ctx.clock,
    emailsTo(process, readers, (reader) =>
      templatedEmail(
        reader.email,
        'reader-invitation',
        { readerName: reader.name ?? '', processName: process.name, message: process.message, link: readerLink(ctx, reader) },
        language,
      ),
    ),
  );
}

/**
 * The final files for every reader and CC address of a sealed process, queued in the seal's own
 * transaction: each gets the link of their read-only page, which hands out the sealed files.
 */
export async function finalCopies(db: Db, ctx: Pick<ServiceContext, 'publicUrl'>, options: { process: ProcessRow; language: Language }): Promise<NewMessage[]> {
  const { process, language } = options;
  const readers = await listReaders(db, process.id);
  return emailsTo(process, readers, (reader) =>
    templatedEmail(reader.email, 'process-finished', { processName: process.name, link: readerLink(ctx, reader) }, language),
  );
}

/** The audit actions readers are told of; the end of a signed process reaches them with the final files. */
const UPDATES = {
  PARTICIPANT_SIGN: 'reader-signed',
  PARTICIPANT_APPROVE: 'reader-approved',
  PARTICIPANT_REJECT: 'reader-rejected',
  CANCEL_SIGN: 'reader-cancelled',
  EXPIRED: 'reader-expired',
  REACTIVATION_SIGN: 'reader-reactivated',
  UPDATE_SIGNER: 'reader-delegated',
} as const;
type UpdateAction = keyof typeof UPDATES;

function isUpdate(action: string): action is UpdateAction {
  return Object.hasOwn(UPDATES, action);
}

interface ReaderUpdate {
  processId: string;
  action: UpdateAction;
  participantName?: string;
  /** UPDATE_SIGNER: who the participant handed their place to. */
  delegateName?: string;
  message?: string;
}

/**
 * Queues, in the caller's transaction, the job that tells the process's readers of this action, if
 * it is one they are told of and the process has readers. A job rather than the e-mails themselves:
 * the audit trail is written from places that know the clock only, while an e-mail needs the
 * reader's link and the organization's language.
 */
export async function queueReaderUpdate(
  db: Db,
  clock: Clock,
  options: { process: ProcessRow; action: string; participantName?: string; delegateName?: string; message?: string },
): Promise<void> {
  const { process, action } = options;
  if (!isUpdate(action) || !(await hasReaders(db, process.id))) return;
  const update: ReaderUpdate = {
    processId: process.id,
    action,
    ...(options.participantName === undefined ? {} : { participantName: options.participantName }),
    ...(options.delegateName === undefined ? {} : { delegateName: options.delegateName }),
    ...(options.message === undefined ? {} : { message: options.message }),
  };
  await enqueue(db, clock, [{ kind: 'job', organizationId: process.organization_id, payload: { name: READER_UPDATE_JOB, data: { ...update } } }]);
}

/** The job's data as queueReaderUpdate wrote it; anything else is no update. */
function updateOf(data: unknown): ReaderUpdate | undefined {
  if (!isRecord(data) || typeof data.processId !== 'string' || typeof data.action !== 'string' || !isUpdate(data.action)) return undefined;
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const participantName = text(data.participantName);
  const delegateName = text(data.delegateName);
  const message = text(data.message);
  return {
    processId: data.processId,
    action: data.action,
    ...(participantName === undefined ? {} : { participantName }),
    ...(delegateName === undefined ? {} : { delegateName }),
    ...(message === undefined ? {} : { message }),
  };
}

function updateEmail(ctx: Pick<ServiceContext, 'publicUrl'>, process: ProcessRow, reader: ReaderRow, update: ReaderUpdate, language: Language): EmailPayload {
  const base = { readerName: reader.name ?? '', processName: process.name, link: readerLink(ctx, reader) };
  const participantName = update.participantName ?? '';
  switch (update.action) {
    case 'PARTICIPANT_SIGN':
    case 'PARTICIPANT_APPROVE':
    case 'PARTICIPANT_REJECT':
      return templatedEmail(reader.email, UPDATES[update.action], { ...base, participantName }, language);
    case 'CANCEL_SIGN':
      return templatedEmail(reader.email, 'reader-cancelled', { ...base, message: update.message ?? '' }, language);
    case 'EXPIRED':
    case 'REACTIVATION_SIGN':
      return templatedEmail(reader.email, UPDATES[update.action], base, language);
    case 'UPDATE_SIGNER':
      return templatedEmail(reader.email, 'reader-delegated', { ...base, participantName, delegateName: update.delegateName ?? '' }, language);
  }
}

/**
 * Runs the reader-update job: one e-mail per reader of the process, in the organization's
 * language, queued in one transaction that first renews the job's claim, so a run that lost the
 * job to another worker sends nothing.
 */
export async function sendReaderUpdate(ctx: ServiceContext, options: { data: unknown; claim?: Claim }): Promise<void> {
  const update = updateOf(options.data);
  const process = update && (await findProcessById(ctx.db, update.processId));
  if (!update || !process) return;
  const readers = await listReaders(ctx.db, process.id, 'READER');
  const language = await organizationLanguage(ctx.db, process.organization_id);
  await withTransaction(ctx, async (trx) => {
    if (options.claim && !(await options.claim.renew(trx))) return;
    await enqueue(
      trx,
      ctx.clock,
      emailsTo(process, readers, (reader) => updateEmail(ctx, process, reader, update, language)),
    );
  });
}
