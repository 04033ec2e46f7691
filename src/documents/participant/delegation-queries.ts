import type { Db } from '../../db/database.js';
import type { DelegationRow, ParticipantRow } from '../../db/schema.js';
import { NO_IDENTITY_STEPS } from './identity-steps.js';

/** The place's new holder: who they are and their own id and link; nothing of the former holder's steps stays. */
export type NewHolder = Pick<
  ParticipantRow,
  'participant_id' | 'link_token' | 'name' | 'email' | 'phone' | 'identification' | 'identification_type' | 'country'
>;

/**
 * Puts the new holder in the place, while it is still the turn of the one who handed it over: a
 * new id and link, the same role, order, boxes and validations, every identity step and opening
 * from nothing. Answers whether it did (a concurrent step of the former holder wins otherwise).
 */
export async function handOverPlace(db: Db, options: { id: string; formerToken: string; holder: NewHolder; at: string }): Promise<boolean> {
  const result = await db
    .updateTable('participants')
    .set({
      ...options.holder,
      notification: 1,
      ...NO_IDENTITY_STEPS,
      updated_at: options.at,
    })
    .where('id', '=', options.id)
    .where('link_token', '=', options.formerToken)
    .where('status', '=', 'NOTIFICATION')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function insertDelegation(db: Db, row: DelegationRow): Promise<void> {
  await db.insertInto('participant_delegations').values(row).execute();
}

/** The handing over a former holder's link was part of; their link opens nothing else. */
export async function findDelegationByFormerToken(db: Db, token: string): Promise<DelegationRow | undefined> {
  return db.selectFrom('participant_delegations').selectAll().where('former_link_token', '=', token).executeTakeFirst();
}

/** A process's handings over, oldest first: the evidence certificate names each former holder. */
export async function listDelegations(db: Db, processId: string): Promise<DelegationRow[]> {
  return db.selectFrom('participant_delegations').selectAll().where('process_id', '=', processId).orderBy('created_at').orderBy('id').execute();
}
