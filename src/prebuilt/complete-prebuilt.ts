import type { Transaction } from 'kysely';
import type { ServiceContext } from '../context.js';
import type { Database, PrebuiltProcessRow, ProcessRow, TemplateRow } from '../db/schema.js';
import { createSigningProcess } from '../documents/creating/create-process.js';
import { draftFromTemplate } from '../documents/creating/drafts.js';
import type { Answer } from '../documents/schemas.js';
import { fail } from '../domain-error.js';
import { withPrefilled } from './prebuilt-answers.js';
import { markCompleted } from './queries.js';
import { storedAnswers, storedFields } from './stored-prebuilt.js';

/**
 * The form of a prebuilt process sent: the process is created exactly as POST /document/save would
 * with every answer (the prefilled ones, which the completer cannot change, and theirs) and the
 * fields the integrator gave, under the code it was answered. Its participants are invited by the
 * service, and the CREATE webhook goes out as for any creation. The prebuilt row is marked
 * completed in the same transaction, so two completions make one process.
 */
export async function completePrebuilt(
  ctx: ServiceContext,
  options: {
    prebuilt: PrebuiltProcessRow;
    template: Readonly<TemplateRow>;
    data: readonly Answer[];
    idempotencyKey: string;
    /** More rows of the same transaction (the SDK session that completed it). */
    recordWith?: (trx: Transaction<Database>, process: ProcessRow) => Promise<void>;
  },
): Promise<{ code: string }> {
  const { prebuilt, idempotencyKey } = options;
  const draft = draftFromTemplate({
    ...storedFields(prebuilt),
    document: options.template.id,
    data: withPrefilled(storedAnswers(prebuilt), options.data),
    sign: true,
  });
  const created = await createSigningProcess(ctx, {
    organizationId: prebuilt.organization_id,
    draft: {
      ...draft,
      code: prebuilt.code,
      expiryCheckedAt: new Date(prebuilt.created_at),
      recordWith: async (trx, { process }) => {
        if (!(await markCompleted(trx, { id: prebuilt.id, key: idempotencyKey, now: process.created_at }))) throw fail('PREBUILT_COMPLETED');
        await options.recordWith?.(trx, process);
      },
    },
  });
  return { code: created.code };
}
