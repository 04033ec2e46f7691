import { sql } from 'kysely';
import type { Db } from '../db/database.js';

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
