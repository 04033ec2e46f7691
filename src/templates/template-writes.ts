import type { ServiceContext } from '../context.js';
import * as statements from './write-queries.js';

/** The statements that change the `templates` table, handed out only by `writeTemplate`. */
export type TemplateWrites = typeof statements;

/**
 * The one way a template is written (created, changed, deleted, its uploaded files recorded):
 * `write` gets the statements that change the table, and once it has settled the template cache is
 * told, so the next read loads the template again and nothing kept beside its old row is used.
 * Told when `write` throws too: a transaction whose commit answered an error may still have
 * committed, and telling costs one read of the row.
 */
export async function writeTemplate<T>(ctx: Pick<ServiceContext, 'templateCache'>, id: string, write: (writes: TemplateWrites) => Promise<T>): Promise<T> {
  try {
    return await write(statements);
  } finally {
    ctx.templateCache?.written(id);
  }
}
