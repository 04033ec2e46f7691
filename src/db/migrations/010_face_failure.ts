import type { Kysely, Migration } from 'kysely';

/** Why a signer's last face comparison failed (a mismatch or an unusable photo), for the page to say so. */
export const faceFailure: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('participants').addColumn('camera_last_failure', 'text').execute();
  },
};
