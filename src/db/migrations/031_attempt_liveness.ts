import type { Kysely, Migration } from 'kysely';

/**
 * Each identity attempt's liveness score (src/veriface/face/liveness-model.ts): from 0 to 1, null
 * when the face was not scored (no usable face, a number that differed, FACE_MATCHER=manual, or an
 * attempt made before the score existed).
 */
export const attemptLiveness: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('identity_attempts').addColumn('liveness', 'double precision').execute();
  },
};
