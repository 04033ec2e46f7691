import type { Clock } from '../clock.js';
import type { Db } from '../db/database.js';
import { fail } from '../domain-error.js';
import { countPhotoAttempt } from './queries.js';

/**
 * Photos one participant, or one face validation, may send a UTC day, refused or not. A person
 * retaking until the light is right sends a handful; the bound stops a link holder from making the
 * service decode and store photos without end (the per-address limit alone allows 120 a minute).
 */
export const PHOTO_ATTEMPTS_PER_DAY = 30;

/** Counts a photo sent for `ownerId` (in the database, so every instance counts it); 429 past the day's bound. */
export async function countPhotoSent(ctx: { db: Db; clock: Clock }, ownerId: string): Promise<void> {
  const day = ctx.clock.now().toISOString().slice(0, 10);
  const attempts = await countPhotoAttempt(ctx.db, ownerId, day);
  if (attempts > PHOTO_ATTEMPTS_PER_DAY) {
    throw fail('PHOTO_ATTEMPTS_EXCEEDED', `at most ${PHOTO_ATTEMPTS_PER_DAY} photos a day; try again tomorrow`);
  }
}
