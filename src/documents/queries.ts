import { type Expression, type SqlBool, sql } from 'kysely';
import type { Db } from '../db/database.js';
import { toCount } from '../db/database.js';
import { olderThan } from '../db/keyset.js';
import { reusableQuery, reusableRowsInsert } from '../db/reusable-query.js';
import type { ParticipantRow, ProcessDocumentRow, ProcessEventRow, ProcessRow, ProcessStatus } from '../db/schema.js';

// A process's creation inserts these on every call: compiled once (src/db/reusable-query.ts).
const processInsert = reusableQuery((db, row: ProcessRow) => db.insertInto('processes').values(row));
const documentInsert = reusableQuery((db, row: ProcessDocumentRow) => db.insertInto('process_documents').values(row));
const participantInsert = reusableQuery((db, row: ParticipantRow) => db.insertInto('participants').values(row));
const processEventInsert = reusableQuery((db, row: ProcessEventRow) => db.insertInto('process_events').values(row));

export async function insertProcess(db: Db, row: ProcessRow): Promise<void> {
  await processInsert(db, row);
}

export const insertDocuments = reusableRowsInsert(documentInsert, (db, rows: ProcessDocumentRow[]) =>
  db.insertInto('process_documents').values(rows).execute(),
);

export const insertParticipants = reusableRowsInsert(participantInsert, (db, rows: ParticipantRow[]) => db.insertInto('participants').values(rows).execute());

export async function insertProcessEvent(db: Db, row: ProcessEventRow): Promise<void> {
  await processEventInsert(db, row);
}

export async function findProcessByCode(db: Db, organizationId: string, code: string): Promise<ProcessRow | undefined> {
  return db.selectFrom('processes').selectAll().where('code', '=', code).where('organization_id', '=', organizationId).executeTakeFirst();
}

export async function findProcessById(db: Db, id: string): Promise<ProcessRow | undefined> {
  return db.selectFrom('processes').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listDocuments(db: Db, processId: string): Promise<ProcessDocumentRow[]> {
  return db.selectFrom('process_documents').selectAll().where('process_id', '=', processId).orderBy('position').execute();
}

export async function listParticipants(db: Db, processId: string): Promise<ParticipantRow[]> {
  return db.selectFrom('participants').selectAll().where('process_id', '=', processId).orderBy('position').execute();
}

export async function listProcessEvents(db: Db, processId: string): Promise<ProcessEventRow[]> {
  return db.selectFrom('process_events').selectAll().where('process_id', '=', processId).orderBy('at').orderBy('id').execute();
}

export async function findParticipantByToken(db: Db, token: string): Promise<ParticipantRow | undefined> {
  return db.selectFrom('participants').selectAll().where('link_token', '=', token).executeTakeFirst();
}

/** Moves a process only if it is still in `from`; answers whether it moved (a concurrent change wins otherwise). */
export async function transitionProcess(
  db: Db,
  id: string,
  change: { from: ProcessStatus; to: ProcessStatus; at: string; endReason?: string; endedBy?: string },
): Promise<boolean> {
  const result = await db
    .updateTable('processes')
    .set({
      status: change.to,
      updated_at: change.at,
      ...(change.endReason === undefined ? {} : { end_reason: change.endReason }),
      ...(change.endedBy === undefined ? {} : { ended_by: change.endedBy }),
    })
    .where('id', '=', id)
    .where('status', '=', change.from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export type ParticipantPatch = Partial<Omit<ParticipantRow, 'id' | 'process_id' | 'participant_id' | 'link_token' | 'created_at'>>;

/** Changes a participant only while it is in one of `statuses`; answers whether it did. */
export async function updateParticipant(
  db: Db,
  id: string,
  patch: ParticipantPatch & { updated_at: string },
  statuses: ParticipantRow['status'][],
): Promise<boolean> {
  const result = await db.updateTable('participants').set(patch).where('id', '=', id).where('status', 'in', statuses).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function markDocumentReady(db: Db, id: string, sha256: string): Promise<boolean> {
  const result = await db.updateTable('process_documents').set({ file_ready: 1, sha256 }).where('id', '=', id).where('file_ready', '=', 0).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function findDocumentByFileKey(db: Db, fileKey: string): Promise<ProcessDocumentRow | undefined> {
  return db.selectFrom('process_documents').selectAll().where('file_key', '=', fileKey).executeTakeFirst();
}

/** Documents of processes in signature still waiting for their PDF, oldest first. */
export async function findAwaitingDocuments(db: Db, limit: number): Promise<ProcessDocumentRow[]> {
  return db
    .selectFrom('process_documents')
    .innerJoin('processes', 'processes.id', 'process_documents.process_id')
    .selectAll('process_documents')
    .where('process_documents.file_ready', '=', 0)
    .where('processes.status', '=', 'CREATED')
    .orderBy('process_documents.created_at')
    .limit(limit)
    .execute();
}

export async function setNextReminder(db: Db, id: string, at: string | null): Promise<void> {
  await db.updateTable('processes').set({ next_reminder_at: at }).where('id', '=', id).execute();
}

export async function findDueProcesses(db: Db, column: 'expires_at' | 'next_reminder_at', now: string, limit: number): Promise<ProcessRow[]> {
  return db.selectFrom('processes').selectAll().where('status', '=', 'CREATED').where(column, '<=', now).orderBy(column).limit(limit).execute();
}

export type ProcessSummaryRow = Pick<ProcessRow, 'id' | 'code' | 'kind' | 'name' | 'status' | 'expires_at' | 'created_at' | 'updated_at'>;

/** What a list of processes may be narrowed to; each filter given must hold. */
export interface ProcessFilters {
  status?: ProcessStatus;
  templateId?: string;
  /** Created at or after this instant, and before that one. */
  createdFrom?: string;
  createdBefore?: string;
  /** A word of the process's name or of a participant's name or e-mail (any case), or its code. */
  search?: string;
  /** The path of a folder, whichever creator's it is. */
  folder?: string;
}

/** `%` and `_` are LIKE's wildcards: searched for as the characters they are. */
function containing(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function like(column: string, pattern: string) {
  // ESCAPE said: SQLite has no default escape character, PostgreSQL's is the same backslash.
  return sql<SqlBool>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
}

/** Newest first with keyset paging, narrowed by the filters given. */
export async function listProcesses(
  db: Db,
  organizationId: string,
  options: ProcessFilters & { limit: number; after?: { created_at: string; id: string } },
): Promise<ProcessSummaryRow[]> {
  let query = db
    .selectFrom('processes')
    .select(['id', 'code', 'kind', 'name', 'status', 'expires_at', 'created_at', 'updated_at'])
    .where('organization_id', '=', organizationId);
  if (options.status) query = query.where('status', '=', options.status);
  const templateId = options.templateId;
  if (templateId) {
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('process_documents')
          .select('process_documents.id')
          .whereRef('process_documents.process_id', '=', 'processes.id')
          .where('process_documents.template_id', '=', templateId),
      ),
    );
  }
  const folder = options.folder;
  if (folder !== undefined) {
    query = query.where('folder_id', 'in', (eb) =>
      eb.selectFrom('folders').select('folders.id').where('folders.organization_id', '=', organizationId).where('folders.path', '=', folder),
    );
  }
  if (options.createdFrom) query = query.where('created_at', '>=', options.createdFrom);
  if (options.createdBefore) query = query.where('created_at', '<', options.createdBefore);
  const search = options.search?.trim();
  if (search) {
    const pattern = containing(search);
    query = query.where((eb) =>
      eb.or([
        eb('code', '=', search.toUpperCase()),
        like('processes.name', pattern),
        eb.exists(
          eb
            .selectFrom('participants')
            .select('participants.id')
            .whereRef('participants.process_id', '=', 'processes.id')
            .where((p) => p.or([like('participants.email', pattern), like('participants.name', pattern)])),
        ),
      ]),
    );
  }
  const after = options.after;
  if (after) {
    query = query.where(olderThan(after));
  }
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(options.limit).execute();
}

/** A process is "in signature" while CREATED (every other state is terminal); its templates stay meanwhile. */
export const IN_SIGNATURE: ProcessStatus = 'CREATED';

/**
 * A process in edit mode is not finished, expired or rejected either: the contract counts it as in
 * signature for its templates, which stay while it may be sent again.
 */
const HOLDING_TEMPLATES: readonly ProcessStatus[] = [IN_SIGNATURE, 'EDITING'];

/**
 * The documents of processes made from a template and still in signature (or in edit mode): what
 * TEMPLATE_IN_USE counts, and what a template's one-statement delete must find none of. The
 * template is an id or a column of the outer query.
 */
export function documentsInSignature(db: Db, templateId: string | Expression<string>) {
  return db
    .selectFrom('process_documents')
    .innerJoin('processes', 'processes.id', 'process_documents.process_id')
    .where('process_documents.template_id', '=', templateId)
    .where('processes.status', 'in', HOLDING_TEMPLATES);
}

const processesInSignature = reusableQuery((db, p: { templateId: string }) =>
  documentsInSignature(db, p.templateId).select((eb) => eb.fn.countAll<string | number>().as('count')),
);

export async function countProcessesInSignature(db: Db, templateId: string): Promise<number> {
  return toCount((await processesInSignature(db, { templateId }))[0]?.count);
}

/** Marks a process whose seal found a document it cannot use; answers false when it was marked already (or is sealed). */
export async function markSealFailed(db: Db, id: string, options: { at: string; reason: string }): Promise<boolean> {
  const result = await db
    .updateTable('processes')
    .set({ seal_failed_at: options.at, seal_failure: options.reason })
    .where('id', '=', id)
    .where('sealed_at', 'is', null)
    .where('seal_failed_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Records that the final files exist; answers false when another run sealed it first. */
export async function markSealed(db: Db, id: string, at: string): Promise<boolean> {
  const result = await db.updateTable('processes').set({ sealed_at: at }).where('id', '=', id).where('sealed_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** When the service last sent a participant their invitation or a reminder (the audit trail's lines), if ever. */
export async function lastInvitedAt(db: Db, processId: string, participantId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('process_events')
    .select('at')
    .where('process_id', '=', processId)
    .where('participant_id', '=', participantId)
    .where('action', 'in', ['NOTIFICATION_SIGN', 'NOTIFICATION_APPROVER', 'REMINDER_SIGN'])
    .orderBy('at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.at;
}

/**
 * Puts an ended process back in signature, only if it is still in `from`: its end reason and who
 * ended it are cleared (the audit trail keeps them), with its new expiry and next reminder.
 */
export async function reopenProcess(
  db: Db,
  id: string,
  change: { from: ProcessStatus; at: string; expiresAt: string | null; nextReminderAt: string | null },
): Promise<boolean> {
  const result = await db
    .updateTable('processes')
    .set({
      status: IN_SIGNATURE,
      updated_at: change.at,
      end_reason: null,
      ended_by: null,
      expires_at: change.expiresAt,
      next_reminder_at: change.nextReminderAt,
    })
    .where('id', '=', id)
    .where('status', '=', change.from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** A prebuilt process still waiting for its filler, cancelled by its code as POST /document/cancel cancels a process: if it has not expired; answers whether it did. */
export async function cancelPendingPrebuilt(db: Db, options: { organizationId: string; code: string; now: string }): Promise<boolean> {
  const result = await db
    .updateTable('prebuilt_processes')
    .set({ status: 'CANCELLED', updated_at: options.now })
    .where('organization_id', '=', options.organizationId)
    .where('code', '=', options.code)
    .where('status', '=', 'PENDING')
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', options.now)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
