import type { Db } from '../../db/database.js';
import type { ProcessRow, ProcessStatus, VerifaceRow } from '../../db/schema.js';
import { clearAttemptPhotos } from '../../identity-attempts/queries.js';

/** Signing processes whose photos are no longer needed: ended one way or another. */
const ENDED_PROCESS_STATUSES: readonly ProcessStatus[] = ['FINISH', 'REJECTED', 'CANCELLED', 'EXPIRED'];

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
