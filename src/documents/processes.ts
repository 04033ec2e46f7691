import type { ServiceContext } from '../context.js';
import type { ProcessRow, ProcessStatus } from '../db/schema.js';
import { ApiError, badRequest } from '../http/errors.js';
import { newCode, newObjectId } from '../ids.js';
import { lockTemplate } from '../templates/queries.js';
import * as q from './queries.js';

/** A process is "in signature" while CREATED; every other state is terminal. */
export const IN_SIGNATURE: ProcessStatus = 'CREATED';

export const PROCESS_CODE_LENGTH = 10;

/**
 * Records a signing process, optionally created from a template of the same organization. The template
 * row is locked for the transaction so a concurrent template delete cannot slip between check and insert.
 */
export async function recordProcess(
  ctx: ServiceContext,
  options: { organizationId: string; name: string; templateId?: string },
): Promise<ProcessRow> {
  return ctx.db.transaction().execute(async (trx) => {
    if (options.templateId && !(await lockTemplate(trx, ctx.dialect, options.organizationId, options.templateId))) {
      throw badRequest('TEMPLATE_NOT_FOUND');
    }
    const now = ctx.clock.now();
    const row: ProcessRow = {
      id: newObjectId(now),
      code: newCode(PROCESS_CODE_LENGTH),
      organization_id: options.organizationId,
      template_id: options.templateId ?? null,
      name: options.name,
      status: IN_SIGNATURE,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    };
    await q.insertProcess(trx, row);
    return row;
  });
}

/** Ends a process that is in signature; terminal states stay terminal. */
export async function endProcess(
  ctx: ServiceContext,
  options: { organizationId: string; code: string; to: Exclude<ProcessStatus, 'CREATED'> },
): Promise<void> {
  const process = await q.findProcessByCode(ctx.db, options.organizationId, options.code);
  if (!process) throw badRequest('DOCUMENT_NOT_FOUND');
  const moved = await q.transitionProcess(ctx.db, process.id, {
    from: IN_SIGNATURE,
    to: options.to,
    at: ctx.clock.now().toISOString(),
  });
  if (!moved) throw new ApiError(400, 'DOCUMENT_NOT_IN_SIGNATURE');
}
