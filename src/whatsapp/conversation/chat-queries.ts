import type { Db } from '../../db/database.js';
import { reusableQuery } from '../../db/reusable-query.js';
import type { ChatFlowRow, ChatNumberRow, ParticipantRow, ProcessRow, VerifaceRow } from '../../db/schema.js';
import { newToken } from '../../ids.js';

/** The SQL of the WhatsApp conversation: its own two tables, and the flows found by phone. */

export type ChatFlowOwner = { participantRowId: string } | { verifaceId: string };

// Every invitation through WhatsApp, at a process's or validation's creation, runs these: compiled once (src/db/reusable-query.ts).
const flowOfParticipant = reusableQuery((db, p: { id: string }) => db.selectFrom('chat_flows').selectAll().where('participant_row_id', '=', p.id));
const flowOfVeriface = reusableQuery((db, p: { id: string }) => db.selectFrom('chat_flows').selectAll().where('veriface_id', '=', p.id));
const participantFlowInsert = reusableQuery((db, row: ChatFlowRow) =>
  db
    .insertInto('chat_flows')
    .values(row)
    .onConflict((oc) => oc.column('participant_row_id').doNothing()),
);
const verifaceFlowInsert = reusableQuery((db, row: ChatFlowRow) =>
  db
    .insertInto('chat_flows')
    .values(row)
    .onConflict((oc) => oc.column('veriface_id').doNothing()),
);

export async function findChatFlow(db: Db, owner: ChatFlowOwner): Promise<ChatFlowRow | undefined> {
  const rows = 'participantRowId' in owner ? await flowOfParticipant(db, { id: owner.participantRowId }) : await flowOfVeriface(db, { id: owner.verifaceId });
  return rows[0];
}

/** The flow of `id`, only when it belongs to `phone`: an id typed or replayed by another number finds nothing. */
export async function findChatFlowOfNumber(db: Db, id: string, phone: string): Promise<ChatFlowRow | undefined> {
  return db.selectFrom('chat_flows').selectAll().where('id', '=', id).where('phone', '=', phone).executeTakeFirst();
}

/** The conversation row of a participant or face validation, made on first need (at the invitation, or a first message). */
export async function ensureChatFlow(db: Db, options: NewChatFlow): Promise<ChatFlowRow> {
  const known = await findChatFlow(db, options.owner);
  if (known) return known;
  const row = await newChatFlow(db, options);
  // A first message racing the invitation made it first: theirs is the row.
  return (await findChatFlow(db, options.owner)) ?? row;
}

interface NewChatFlow {
  owner: ChatFlowOwner;
  phone: string;
  organizationId: string;
  now: string;
}

/** The flow of an owner created in the caller's transaction, which nobody else can see yet. */
export async function newChatFlow(db: Db, options: NewChatFlow): Promise<ChatFlowRow> {
  const { owner, phone, organizationId, now } = options;
  const row: ChatFlowRow = {
    id: newToken(16),
    phone,
    organization_id: organizationId,
    participant_row_id: 'participantRowId' in owner ? owner.participantRowId : null,
    veriface_id: 'verifaceId' in owner ? owner.verifaceId : null,
    step: 'invited',
    retake: null,
    created_at: now,
    updated_at: now,
  };
  await ('participantRowId' in owner ? participantFlowInsert(db, row) : verifaceFlowInsert(db, row));
  return row;
}

export async function updateChatFlow(db: Db, id: string, patch: Partial<Pick<ChatFlowRow, 'step' | 'retake'>> & { updated_at: string }): Promise<void> {
  await db.updateTable('chat_flows').set(patch).where('id', '=', id).execute();
}

/** A participant invited again (a reactivation) starts their conversation from the invitation, whatever step it had reached. */
export async function restartParticipantChat(db: Db, participantRowId: string, now: string): Promise<void> {
  await db.updateTable('chat_flows').set({ step: 'invited', retake: null, updated_at: now }).where('participant_row_id', '=', participantRowId).execute();
}

/** The number's flow most recently moved, whatever its state: whom a number with nothing open belongs to. */
export async function latestChatFlow(db: Db, phone: string): Promise<ChatFlowRow | undefined> {
  return db.selectFrom('chat_flows').selectAll().where('phone', '=', phone).orderBy('updated_at', 'desc').orderBy('id').limit(1).executeTakeFirst();
}

// Every message a number writes runs these (handle-message.ts, chat-flows.ts): compiled once.
const chatNumber = reusableQuery((db, p: { phone: string }) => db.selectFrom('chat_numbers').selectAll().where('phone', '=', p.phone));
const participantsOfPhone = reusableQuery((db, p: { phone: string }) =>
  db.selectFrom('participants').selectAll().where('phone', '=', p.phone).where('status', 'in', ['NOTIFICATION', 'PENDING']),
);
// By the participants' process ids: their primary key, whatever the planner thinks of the processes
// in signature. Asked as "processes in signature with a participant of this number", PostgreSQL
// walked every process in signature and looked for the number in each (0.6 ms a message in the
// WhatsApp bench, a third of the database's work; docs/benchmarks.md). A reusable twin of
// findProcessById (src/documents/queries.ts), as every message runs it.
const processInSignature = reusableQuery((db, p: { id: string }) =>
  db.selectFrom('processes').selectAll().where('id', '=', p.id).where('status', '=', 'CREATED'),
);
const verifacesOfPhone = reusableQuery((db, p: { phone: string }) =>
  db.selectFrom('veriface_processes').selectAll().where('phone', '=', p.phone).where('status', '=', 'INPROGRESS').where('platform', '=', 'whatsapp'),
);

export async function findChatNumber(db: Db, phone: string): Promise<ChatNumberRow | undefined> {
  return (await chatNumber(db, { phone }))[0];
}

export async function saveChatNumber(db: Db, row: ChatNumberRow): Promise<void> {
  await db
    .insertInto('chat_numbers')
    .values(row)
    .onConflict((oc) => oc.column('phone').doUpdateSet({ current_flow_id: row.current_flow_id, answered_on: row.answered_on, updated_at: row.updated_at }))
    .execute();
}

/** Participants of the number who may still act (now or at their turn), with their processes in signature. */
export async function participantsOfNumber(db: Db, phone: string): Promise<{ participant: ParticipantRow; process: ProcessRow }[]> {
  const participants = await participantsOfPhone(db, { phone });
  const byId = new Map<string, ProcessRow>();
  // One prepared statement a process: a number has one open process, seldom a few.
  for (const id of new Set(participants.map((participant) => participant.process_id))) {
    for (const process of await processInSignature(db, { id })) byId.set(process.id, process);
  }
  return participants.flatMap((participant) => {
    const process = byId.get(participant.process_id);
    return process ? [{ participant, process }] : [];
  });
}

/** Face validations of the number run through WhatsApp and still in progress. */
export async function verifacesOfNumber(db: Db, phone: string): Promise<VerifaceRow[]> {
  return verifacesOfPhone(db, { phone });
}

export async function findParticipantRow(db: Db, id: string): Promise<ParticipantRow | undefined> {
  return db.selectFrom('participants').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findVerifaceRow(db: Db, id: string): Promise<VerifaceRow | undefined> {
  return db.selectFrom('veriface_processes').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A place handed to another person (delegation): the former holder's conversation ends, and their number no longer reaches it. */
export async function endParticipantChat(db: Db, participantRowId: string, now: string): Promise<void> {
  const flows = await db.selectFrom('chat_flows').select('id').where('participant_row_id', '=', participantRowId).execute();
  if (flows.length === 0) return;
  const ids = flows.map((flow) => flow.id);
  await db.updateTable('chat_numbers').set({ current_flow_id: null, updated_at: now }).where('current_flow_id', 'in', ids).execute();
  await db.deleteFrom('chat_flows').where('id', 'in', ids).execute();
}
