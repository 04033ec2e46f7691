import type { ServiceContext } from '../context.js';
import { fail } from '../domain-error.js';
import * as q from './queries.js';
import type { UpdateTemplateInput } from './schemas.js';
import { changesBody, mergeBody, parseBody } from './template-document.js';
import { type TemplateUrls, templateFileUrls } from './template-files.js';
import { checkTemplateReferences } from './template-rules.js';
import { writeTemplate } from './template-writes.js';

/**
 * Replaces the fields given and keeps the others (a description can be replaced, never removed).
 * The HTML files are untouched: the new upload URLs may be ignored when the HTML did not change.
 */
export async function updateTemplate(
  ctx: ServiceContext,
  options: { organizationId: string; input: UpdateTemplateInput },
): Promise<{ id: string; urls: TemplateUrls }> {
  const { input } = options;
  await writeTemplate(ctx, input.id, (writes) =>
    ctx.db.transaction().execute(async (trx) => {
      const current = await q.lockTemplate(trx, ctx.dialect, options.organizationId, input.id);
      if (!current) throw fail('TEMPLATE_NOT_FOUND', { when: 'elsewhere' });
      // The stored body was checked when written: only a change to it needs merging and checking again.
      let body = current.body;
      if (changesBody(input)) {
        const merged = mergeBody(input, parseBody(current));
        checkTemplateReferences(merged);
        body = JSON.stringify(merged);
      }
      await writes.updateTemplate(trx, current.id, {
        name: input.name ?? current.name,
        description: input.description ?? current.description,
        body,
        build: current.build + 1,
        updated_at: ctx.clock.now().toISOString(),
      });
    }),
  );
  return { id: input.id, urls: await templateFileUrls(ctx.blobs, input.id, 'PUT') };
}
