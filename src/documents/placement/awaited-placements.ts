import Joi from 'joi';
import type { Db } from '../../db/schema.js';
import { positionJoi } from '../schemas.js';
import type { SignerPlacement } from './place-signatures.js';

const placementsJoi = Joi.array()
  .items(
    Joi.object<SignerPlacement, true>({
      participant: Joi.number().integer().min(0).required(),
      tagIndex: Joi.number().integer().min(0).required(),
      field: Joi.string().required(),
      positions: Joi.array().items(positionJoi),
      tag: Joi.boolean(),
    }),
  )
  .required();

/** Keeps a document's placement until its PDF arrives, in the transaction that creates the process. */
export async function recordAwaitedPlacements(db: Db, rows: { processId: string; documentPosition: number; placements: SignerPlacement[] }[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('awaited_placements')
    .values(rows.map((row) => ({ process_id: row.processId, document_position: row.documentPosition, placements: JSON.stringify(row.placements) })))
    .execute();
}

/** The placement kept for an awaited PDF; none when the request placed nothing. */
export async function findAwaitedPlacements(db: Db, processId: string, documentPosition: number): Promise<SignerPlacement[]> {
  const row = await db
    .selectFrom('awaited_placements')
    .select('placements')
    .where('process_id', '=', processId)
    .where('document_position', '=', documentPosition)
    .executeTakeFirst();
  if (!row) return [];
  const { value, error } = placementsJoi.validate(JSON.parse(row.placements));
  if (error) throw new Error(`awaited placement of ${processId}/${documentPosition} is not readable: ${error.message}`);
  return value;
}

/** Once the boxes are recorded, the request's words are no longer needed. */
export async function deleteAwaitedPlacements(db: Db, processId: string, documentPosition: number): Promise<void> {
  await db.deleteFrom('awaited_placements').where('process_id', '=', processId).where('document_position', '=', documentPosition).execute();
}
