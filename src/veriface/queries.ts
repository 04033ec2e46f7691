import type { Db } from '../db/database.js';
import type { VerifaceRow, VerifaceStageRow } from '../db/schema.js';

export async function insertVeriface(db: Db, row: VerifaceRow): Promise<void> {
  await db.insertInto('veriface_processes').values(row).execute();
}

export async function insertStage(db: Db, row: VerifaceStageRow): Promise<void> {
  await db.insertInto('veriface_stages').values(row).execute();
}

export async function findVerifaceByCode(db: Db, organizationId: string, code: string): Promise<VerifaceRow | undefined> {
  return db
    .selectFrom('veriface_processes')
    .selectAll()
    .where('code', '=', code)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
}

export async function listStages(db: Db, processId: string): Promise<VerifaceStageRow[]> {
  return db.selectFrom('veriface_stages').selectAll().where('process_id', '=', processId).orderBy('at').orderBy('id').execute();
}
