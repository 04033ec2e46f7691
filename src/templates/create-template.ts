import type { ServiceContext } from '../context.js';
import { newObjectId } from '../ids.js';
import type { CreateTemplateInput } from './schemas.js';
import { mergeBody } from './template-document.js';
import { seesTemplateUploads, type TemplateUrls, templateFileUrls } from './template-files.js';
import { checkTemplateReferences } from './template-rules.js';
import { writeTemplate } from './template-writes.js';

export async function createTemplate(
  ctx: ServiceContext,
  options: { organizationId: string; input: CreateTemplateInput },
): Promise<{ id: string; urls: TemplateUrls }> {
  const { input } = options;
  const body = mergeBody(input);
  checkTemplateReferences(body);
  const now = ctx.clock.now();
  const id = newObjectId(now);
  await writeTemplate(ctx, id, (writes) =>
    writes.insertTemplate(ctx.db, {
      id,
      organization_id: options.organizationId,
      name: input.name,
      description: input.description ?? null,
      body: JSON.stringify(body),
      build: 1,
      status: 'active',
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
      files_stored: seesTemplateUploads(ctx.blobs) ? 0 : 1,
    }),
  );
  return { id, urls: await templateFileUrls(ctx.blobs, id, 'PUT') };
}
