import type { Db } from '../../db/database.js';
import { reusableQuery, reusableRowsInsert } from '../../db/reusable-query.js';
import type { WhatsAppMessageRow, WhatsAppStatus, WhatsAppStatusesTable, WhatsAppStatusRow } from '../../db/schema.js';

// Written with every WhatsApp invitation a creation queues: compiled once (src/db/reusable-query.ts).
const recordInsert = reusableQuery((db, row: WhatsAppMessageRow) => db.insertInto('whatsapp_messages').values(row));

export const insertMessageRecords = reusableRowsInsert(recordInsert, (db, rows: WhatsAppMessageRow[]) =>
  db.insertInto('whatsapp_messages').values(rows).execute(),
);

// Every received message runs these (src/whatsapp/inbound/receive.ts): compiled once.
const receivedInsert = reusableQuery((db, row: WhatsAppMessageRow) =>
  db
    .insertInto('whatsapp_messages')
    .values(row)
    .onConflict((oc) => oc.column('wamid').doNothing())
    .returning('id'),
);
const messageByWamid = reusableQuery((db, p: { wamid: string }) => db.selectFrom('whatsapp_messages').selectAll().where('wamid', '=', p.wamid));
const latestOut = reusableQuery((db, p: { phone: string }) =>
  db
    .selectFrom('whatsapp_messages')
    .selectAll()
    .where('phone', '=', p.phone)
    .where('direction', '=', 'out')
    .where('organization_id', 'is not', null)
    .where((eb) => eb.or([eb('participant_id', 'is not', null), eb('veriface_id', 'is not', null)]))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1),
);

/** A received message, once: answers false when its wamid is already stored (Meta delivered it again). */
export async function insertReceivedMessage(db: Db, row: WhatsAppMessageRow): Promise<boolean> {
  return (await receivedInsert(db, row)).length === 1;
}

export async function findMessageByWamid(db: Db, wamid: string): Promise<WhatsAppMessageRow | undefined> {
  return (await messageByWamid(db, { wamid }))[0];
}

/** The flow the business last wrote to this number about: whose conversation a message without a reply context continues. */
export async function latestFlowMessage(db: Db, phone: string): Promise<WhatsAppMessageRow | undefined> {
  return (await latestOut(db, { phone }))[0];
}

/** Meta accepted a message sent: its wamid, and `sent` unless a status reported meanwhile says more. One statement. */
export async function recordAccepted(db: Db, options: { id: string; wamid: string | undefined; at: string }): Promise<void> {
  const { wamid } = options;
  await db
    .updateTable('whatsapp_messages')
    .set((eb) => ({
      ...(wamid === undefined ? {} : { wamid }),
      status: eb.case().when('status', '=', 'queued').then(eb.val<WhatsAppStatus>('sent')).else(eb.ref('status')).end(),
      status_at: eb.case().when('status', '=', 'queued').then(options.at).else(eb.ref('status_at')).end(),
    }))
    .where('id', '=', options.id)
    .execute();
}

/**
 * Moves a message sent to `status` only from one of `from` (the statuses it comes after): statuses
 * reported out of order, or twice, never move it back. Answers whether it moved.
 */
export async function advanceMessageStatus(
  db: Db,
  options: { id: string; status: WhatsAppStatus; from: readonly WhatsAppStatus[]; at: string; error: string | null },
): Promise<boolean> {
  const result = await db
    .updateTable('whatsapp_messages')
    .set({ status: options.status, status_at: options.at, ...(options.error === null ? {} : { error: options.error }) })
    .where('id', '=', options.id)
    .where('status', 'in', [...options.from])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function findMessageById(db: Db, id: string): Promise<WhatsAppMessageRow | undefined> {
  return db.selectFrom('whatsapp_messages').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Statuses, once each: Meta reports the same status of a message again when it retries a delivery. Answers how many were new. */
export async function insertStatuses(db: Db, rows: WhatsAppStatusesTable[]): Promise<number> {
  let inserted = 0;
  for (const row of rows) {
    const result = await db
      .insertInto('whatsapp_statuses')
      .values(row)
      .onConflict((oc) => oc.columns(['wamid', 'status']).doNothing())
      .executeTakeFirst();
    inserted += Number(result.numInsertedOrUpdatedRows ?? 0n);
  }
  return inserted;
}

/** Statuses not yet applied to a recorded message: of one number, or of one message. */
export async function pendingStatuses(db: Db, where: { phone: string } | { wamid: string }): Promise<WhatsAppStatusRow[]> {
  let query = db.selectFrom('whatsapp_statuses').selectAll().where('applied_at', 'is', null);
  query = 'phone' in where ? query.where('phone', '=', where.phone) : query.where('wamid', '=', where.wamid);
  return query.orderBy('at').orderBy('id').execute();
}

/** Takes a status to apply: false when another worker applied it already. */
export async function claimStatus(db: Db, id: string, at: string): Promise<boolean> {
  const result = await db.updateTable('whatsapp_statuses').set({ applied_at: at }).where('id', '=', id).where('applied_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function participantRowsInOrganization(db: Db, options: { organizationId: string; participantId: string }): Promise<string[]> {
  const rows = await db
    .selectFrom('participants')
    .innerJoin('processes', 'processes.id', 'participants.process_id')
    .select('participants.id')
    .where('processes.organization_id', '=', options.organizationId)
    .where('participants.participant_id', '=', options.participantId)
    .execute();
  return rows.map((row) => row.id);
}

/** A participant's messages, oldest first. */
export async function listParticipantMessages(
  db: Db,
  options: { organizationId: string; participantRowIds: string[]; limit: number },
): Promise<WhatsAppMessageRow[]> {
  return db
    .selectFrom('whatsapp_messages')
    .selectAll()
    .where('organization_id', '=', options.organizationId)
    .where('participant_id', 'in', options.participantRowIds)
    .orderBy('created_at')
    .orderBy('id')
    .limit(options.limit)
    .execute();
}
