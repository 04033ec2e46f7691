import { sql } from 'kysely';
import type { Db } from '../../db/database.js';

/** A flow's comparisons: over its life, and in the UTC hour `hour` (YYYY-MM-DDTHH). */
export interface MatcherUses {
  uses: number;
  hour: string;
  hourUses: number;
}

const toUses = (row: { uses: number; hour: string; hour_uses: number }): MatcherUses => ({
  uses: Number(row.uses),
  hour: row.hour,
  hourUses: Number(row.hour_uses),
});

/**
 * Counts one comparison of `ownerId` in `hour` unless it has used `perFlow` already, or
 * `perHour` in that hour; answers the counts with it in, or undefined when it was refused (and not
 * counted). One statement: on PostgreSQL concurrent ones serialize on the flow's row and each sees
 * the others' counts, so no instance lets one more through. An hour earlier than the row's (an
 * instance whose clock is behind) counts in the row's hour.
 */
export async function takeMatcherUse(db: Db, options: { ownerId: string; hour: string; perFlow: number; perHour: number }): Promise<MatcherUses | undefined> {
  const { ownerId, hour, perFlow, perHour } = options;
  const later = sql<boolean>`face_matcher_uses.hour < excluded.hour`;
  const row = await db
    .insertInto('face_matcher_uses')
    .values({ owner_id: ownerId, uses: 1, hour, hour_uses: 1, refused_hour: null })
    .onConflict((oc) =>
      oc
        .column('owner_id')
        .doUpdateSet({
          uses: sql<number>`face_matcher_uses.uses + 1`,
          hour_uses: sql<number>`CASE WHEN ${later} THEN 1 ELSE face_matcher_uses.hour_uses + 1 END`,
          hour: sql<string>`CASE WHEN ${later} THEN excluded.hour ELSE face_matcher_uses.hour END`,
        })
        .where(sql<boolean>`face_matcher_uses.uses < ${perFlow} AND (${later} OR face_matcher_uses.hour_uses < ${perHour})`),
    )
    .returning(['uses', 'hour', 'hour_uses'])
    .executeTakeFirst();
  return row ? toUses(row) : undefined;
}

/**
 * Gives back a comparison the service could not make (its workers were busy or failed): the
 * person did not spend it. Only the hour it was counted in gives back its hour's count.
 */
export async function giveBackMatcherUse(db: Db, options: { ownerId: string; hour: string }): Promise<void> {
  await db
    .updateTable('face_matcher_uses')
    .set({
      uses: sql<number>`uses - 1`,
      hour_uses: sql<number>`CASE WHEN hour = ${options.hour} AND hour_uses > 0 THEN hour_uses - 1 ELSE hour_uses END`,
    })
    .where('owner_id', '=', options.ownerId)
    .where('uses', '>', 0)
    .execute();
}

/**
 * Marks `hour` as the hour of the flow's refusal: answers the counts when this is its first
 * refusal that hour (the one the integrator is told of), undefined when one was already marked.
 */
export async function markMatcherRefusal(db: Db, options: { ownerId: string; hour: string }): Promise<MatcherUses | undefined> {
  const row = await db
    .updateTable('face_matcher_uses')
    .set({ refused_hour: options.hour })
    .where('owner_id', '=', options.ownerId)
    .where((eb) => eb.or([eb('refused_hour', 'is', null), eb('refused_hour', '<', options.hour)]))
    .returning(['uses', 'hour', 'hour_uses'])
    .executeTakeFirst();
  return row ? toUses(row) : undefined;
}

export async function readMatcherUses(db: Db, ownerId: string): Promise<MatcherUses | undefined> {
  const row = await db.selectFrom('face_matcher_uses').select(['uses', 'hour', 'hour_uses']).where('owner_id', '=', ownerId).executeTakeFirst();
  return row ? toUses(row) : undefined;
}

/**
 * Forgets the counts of flows that have ended (a face validation no longer in progress, a
 * participant of a process that finished, was rejected, cancelled or expired) or no longer exist:
 * nothing compares their faces again.
 */
export async function forgetEndedMatcherUses(db: Db): Promise<void> {
  await db
    .deleteFrom('face_matcher_uses')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('veriface_processes')
            .select('veriface_processes.id')
            .whereRef('veriface_processes.id', '=', 'face_matcher_uses.owner_id')
            .where('veriface_processes.status', '=', 'INPROGRESS'),
        ),
      ),
    )
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('participants')
            .innerJoin('processes', 'processes.id', 'participants.process_id')
            .select('participants.id')
            .whereRef('participants.id', '=', 'face_matcher_uses.owner_id')
            .where('processes.status', '=', 'CREATED'),
        ),
      ),
    )
    .execute();
}
