import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { WhatsAppMessageRow } from '../../db/schema.js';

/*
 * The SQL of the local chat page. Which organization may see a number is the records' (every
 * message in and out has one, with its organization) and the conversation's flows'; a null
 * organization is the operator's view of every one.
 */

/** Numbers with messages, the most recently active first, with their last message's time. */
export async function listConversations(db: Db, options: { organizationId: string | null; limit: number }): Promise<{ phone: string; lastAt: string }[]> {
  let query = db
    .selectFrom('whatsapp_messages')
    .select(['phone', sql<string>`max(created_at)`.as('last_at')])
    .groupBy('phone');
  if (options.organizationId !== null) query = query.where('organization_id', '=', options.organizationId);
  const rows = await query.orderBy('last_at', 'desc').orderBy('phone').limit(options.limit).execute();
  return rows.map((row) => ({ phone: row.phone, lastAt: row.last_at }));
}

/** A number's latest messages, oldest first. */
export async function latestMessagesOf(db: Db, options: { phone: string; organizationId: string | null; limit: number }): Promise<WhatsAppMessageRow[]> {
  let query = db.selectFrom('whatsapp_messages').selectAll().where('phone', '=', options.phone);
  if (options.organizationId !== null) query = query.where('organization_id', '=', options.organizationId);
  const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(options.limit).execute();
  return rows.reverse();
}

/** A message the service sent to the number, by its wamid. */
export async function findSentMessage(
  db: Db,
  options: { phone: string; wamid: string; organizationId: string | null },
): Promise<WhatsAppMessageRow | undefined> {
  let query = db
    .selectFrom('whatsapp_messages')
    .selectAll()
    .where('wamid', '=', options.wamid)
    .where('phone', '=', options.phone)
    .where('direction', '=', 'out');
  if (options.organizationId !== null) query = query.where('organization_id', '=', options.organizationId);
  return query.executeTakeFirst();
}

/** Whether the organization wrote to this number, or runs a flow of it (`plus`: the number as +digits). */
export async function organizationKnowsNumber(db: Db, options: { organizationId: string; phone: string; plus: string }): Promise<boolean> {
  const record = await db
    .selectFrom('whatsapp_messages')
    .select('id')
    .where('organization_id', '=', options.organizationId)
    .where('phone', '=', options.phone)
    .limit(1)
    .executeTakeFirst();
  if (record) return true;
  const flow = await db
    .selectFrom('chat_flows')
    .select('id')
    .where('organization_id', '=', options.organizationId)
    .where('phone', '=', options.plus)
    .limit(1)
    .executeTakeFirst();
  return flow !== undefined;
}

/** The names people of these numbers (+digits) were given by the organization (or any, for the operator), newest first. */
export async function namesOfNumbers(db: Db, options: { phones: string[]; organizationId: string | null }): Promise<{ phone: string; name: string }[]> {
  if (options.phones.length === 0) return [];
  let participants = db
    .selectFrom('participants')
    .innerJoin('processes', 'processes.id', 'participants.process_id')
    .select(['participants.phone', 'participants.name', 'processes.created_at'])
    .where('participants.phone', 'in', options.phones);
  let verifaces = db.selectFrom('veriface_processes').select(['phone', 'name', 'created_at']).where('phone', 'in', options.phones);
  if (options.organizationId !== null) {
    participants = participants.where('processes.organization_id', '=', options.organizationId);
    verifaces = verifaces.where('organization_id', '=', options.organizationId);
  }
  const rows = [...(await participants.execute()), ...(await verifaces.execute())];
  return rows
    .sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0))
    .flatMap((row) => (row.phone === null ? [] : [{ phone: row.phone, name: row.name }]));
}
