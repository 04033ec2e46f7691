import type { Db } from '../db/database.js';
import type { IdentityAttemptRow } from '../db/schema.js';

export async function insertAttempt(db: Db, row: IdentityAttemptRow): Promise<void> {
  await db.insertInto('identity_attempts').values(row).execute();
}

/** The attempts of a face validation, or of every participant of a signing process, oldest first; always within the organization. */
export async function listAttempts(db: Db, options: { organizationId: string; ownerId: string }): Promise<IdentityAttemptRow[]> {
  return db
    .selectFrom('identity_attempts')
    .selectAll()
    .where('organization_id', '=', options.organizationId)
    .where('owner_id', '=', options.ownerId)
    .orderBy('at')
    .orderBy('id')
    .execute();
}

/** Deleting a process's photos leaves its attempts naming none (their SHA-256 stay). */
export async function clearAttemptPhotos(db: Db, ownerId: string): Promise<void> {
  await db
    .updateTable('identity_attempts')
    .set({ document_front_key: null, document_back_key: null, face_key: null })
    .where('owner_id', '=', ownerId)
    .execute();
}
