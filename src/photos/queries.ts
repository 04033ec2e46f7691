import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { ProcessRow, ProcessStatus, VerifaceRow } from '../db/schema.js';
import { clearAttemptPhotos } from '../identity-attempts/queries.js';

/** Signing processes whose photos are no longer needed: ended one way or another. */
const ENDED_PROCESS_STATUSES: readonly ProcessStatus[] = ['FINISH', 'REJECTED', 'CANCELLED', 'EXPIRED'];

/** Keeps track of a photo's key; writing it twice (a retaken photo under the same key) keeps one row. */
export async function recordPhotoBlob(db: Db, row: { key: string; owner_id: string; created_at: string }): Promise<void> {
  await db
    .insertInto('photo_blobs')
    .values(row)
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
}

/** Marks the photos a decision (a match, a block) was taken on: retakes never replace them. */
export async function markPhotosDecided(db: Db, keys: readonly string[], at: string): Promise<void> {
  if (keys.length > 0) await db.updateTable('photo_blobs').set({ decided_at: at }).where('key', 'in', keys).where('decided_at', 'is', null).execute();
}

/** Of `keys`, those no decision was taken on. */
export async function undecidedPhotoKeys(db: Db, keys: readonly string[]): Promise<string[]> {
  if (keys.length === 0) return [];
  const rows = await db.selectFrom('photo_blobs').select('key').where('key', 'in', keys).where('decided_at', 'is', null).execute();
  return rows.map((row) => row.key);
}

/** Counts one more photo of `ownerId` on `day` and answers how many it has sent that day, this one included. */
export async function countPhotoAttempt(db: Db, ownerId: string, day: string): Promise<number> {
  const row = await db
    .insertInto('photo_attempts')
    .values({ owner_id: ownerId, day, attempts: 1 })
    .onConflict((oc) => oc.columns(['owner_id', 'day']).doUpdateSet({ attempts: sql<number>`photo_attempts.attempts + 1` }))
    .returning('attempts')
    .executeTakeFirstOrThrow();
  return Number(row.attempts);
}

/** Forgets the counts of days before `day`: the bound is per day. */
export async function forgetPhotoAttemptsBefore(db: Db, day: string): Promise<void> {
  await db.deleteFrom('photo_attempts').where('day', '<', day).execute();
}

export async function listPhotoKeys(db: Db, ownerId: string): Promise<string[]> {
  const rows = await db.selectFrom('photo_blobs').select('key').where('owner_id', '=', ownerId).orderBy('key').execute();
  return rows.map((row) => row.key);
}

export async function forgetPhotoBlobs(db: Db, keys: readonly string[]): Promise<void> {
  if (keys.length > 0) await db.deleteFrom('photo_blobs').where('key', 'in', keys).execute();
}

/** The retention periods organizations use, so that each is one query whatever the number of organizations. */
export async function retentionPeriods(db: Db): Promise<number[]> {
  const rows = await db.selectFrom('organizations').select('photo_retention_days').distinct().execute();
  return rows.map((row) => row.photo_retention_days);
}

/**
 * Ended signing processes of organizations keeping photos `days` days, last changed (that is, ended)
 * before `cutoff`, that still have photos.
 */
export async function processesWithDuePhotos(db: Db, options: { days: number; cutoff: string; limit: number }): Promise<ProcessRow[]> {
  return db
    .selectFrom('processes')
    .innerJoin('organizations', 'organizations.id', 'processes.organization_id')
    .selectAll('processes')
    .where('organizations.photo_retention_days', '=', options.days)
    .where('processes.status', 'in', ENDED_PROCESS_STATUSES)
    .where('processes.updated_at', '<', options.cutoff)
    .where((eb) => eb.exists(eb.selectFrom('photo_blobs').select('photo_blobs.key').whereRef('photo_blobs.owner_id', '=', 'processes.id')))
    .orderBy('processes.updated_at')
    .limit(options.limit)
    .execute();
}

/** The same for face validations: any status but INPROGRESS has ended. */
export async function verifacesWithDuePhotos(db: Db, options: { days: number; cutoff: string; limit: number }): Promise<VerifaceRow[]> {
  return db
    .selectFrom('veriface_processes')
    .innerJoin('organizations', 'organizations.id', 'veriface_processes.organization_id')
    .selectAll('veriface_processes')
    .where('organizations.photo_retention_days', '=', options.days)
    .where('veriface_processes.status', '!=', 'INPROGRESS')
    .where('veriface_processes.updated_at', '<', options.cutoff)
    .where((eb) => eb.exists(eb.selectFrom('photo_blobs').select('photo_blobs.key').whereRef('photo_blobs.owner_id', '=', 'veriface_processes.id')))
    .orderBy('veriface_processes.updated_at')
    .limit(options.limit)
    .execute();
}

/** Clears the participants' (and their attempts') photo keys and marks when the process's photos were deleted. */
export async function clearProcessPhotos(db: Db, processId: string, now: string): Promise<void> {
  await clearAttemptPhotos(db, processId);
  await db.updateTable('participants').set({ face_key: null, document_front_key: null, document_back_key: null }).where('process_id', '=', processId).execute();
  await db.updateTable('processes').set({ photos_deleted_at: now }).where('id', '=', processId).execute();
}

export async function clearVerifacePhotos(db: Db, id: string, now: string): Promise<void> {
  await clearAttemptPhotos(db, id);
  await db
    .updateTable('veriface_processes')
    .set({ document_front: null, document_back: null, face: null, photos_deleted_at: now })
    .where('id', '=', id)
    .execute();
}
