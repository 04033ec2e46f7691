import type { Db } from '../db/database.js';
import type { ProcessRow, ProcessStatus } from '../db/schema.js';
import { toCount } from '../db/database.js';
import { reusableQuery } from '../db/reusable-query.js';

export async function insertProcess(db: Db, row: ProcessRow): Promise<void> {
  await db.insertInto('processes').values(row).execute();
}

export async function findProcessByCode(db: Db, organizationId: string, code: string): Promise<ProcessRow | undefined> {
  return db
    .selectFrom('processes')
    .selectAll()
    .where('code', '=', code)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
}

/** Moves a process only if it is still in `from`; answers whether it moved (a concurrent change wins otherwise). */
export async function transitionProcess(
  db: Db,
  id: string,
  change: { from: ProcessStatus; to: ProcessStatus; at: string },
): Promise<boolean> {
  const result = await db
    .updateTable('processes')
    .set({ status: change.to, updated_at: change.at })
    .where('id', '=', id)
    .where('status', '=', change.from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

const processesInSignature = reusableQuery((db, templateId: string, status: 'CREATED') =>
  db
    .selectFrom('processes')
    .select((eb) => eb.fn.countAll<string | number>().as('count'))
    .where('template_id', '=', templateId)
    .where('status', '=', status),
);

export async function countProcessesInSignature(db: Db, templateId: string): Promise<number> {
  return toCount((await processesInSignature(db, templateId, 'CREATED'))[0]?.count);
}
