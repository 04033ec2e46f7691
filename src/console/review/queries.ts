import type { Db, ParticipantRow, VerifaceRow } from '../../db/schema.js';

export type BlockedParticipantRow = ParticipantRow & { process_code: string; process_name: string };

/** The organization's participants blocked in a process still in signature, with the process's code and name. */
function blockedParticipants(db: Db, organizationId: string) {
  return db
    .selectFrom('participants')
    .innerJoin('processes', 'processes.id', 'participants.process_id')
    .selectAll('participants')
    .select(['processes.code as process_code', 'processes.name as process_name'])
    .where('processes.organization_id', '=', organizationId)
    .where('processes.status', '=', 'CREATED')
    .where('participants.status', '=', 'BLOCK');
}

/** Newest block first. */
export async function listBlockedParticipants(db: Db, organizationId: string, limit: number): Promise<BlockedParticipantRow[]> {
  return blockedParticipants(db, organizationId).orderBy('participants.updated_at', 'desc').orderBy('participants.id', 'desc').limit(limit).execute();
}

/** One of them, named as the API names a participant: the process code and the participant's id. */
export async function findBlockedParticipant(
  db: Db,
  organizationId: string,
  processCode: string,
  participantId: string,
): Promise<BlockedParticipantRow | undefined> {
  return blockedParticipants(db, organizationId)
    .where('processes.code', '=', processCode)
    .where('participants.participant_id', '=', participantId)
    .executeTakeFirst();
}

/** The organization's face validations waiting for a person's decision. */
function blockedVerifaces(db: Db, organizationId: string) {
  return db.selectFrom('veriface_processes').selectAll().where('organization_id', '=', organizationId).where('status', '=', 'BLOCKED');
}

/** Newest first. */
export async function listBlockedVerifaces(db: Db, organizationId: string, limit: number): Promise<VerifaceRow[]> {
  return blockedVerifaces(db, organizationId).orderBy('updated_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

export async function findBlockedVeriface(db: Db, organizationId: string, code: string): Promise<VerifaceRow | undefined> {
  return blockedVerifaces(db, organizationId).where('code', '=', code).executeTakeFirst();
}
