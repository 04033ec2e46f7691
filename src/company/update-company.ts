import type { ServiceContext } from '../context.js';
import { withTransaction } from '../db/transaction.js';
import { fail } from '../domain-error.js';
import { replaceWebhooks } from '../webhooks/replace-webhooks.js';
import { checkUrl } from '../webhooks/webhooks.js';
import * as q from './queries.js';
import type { UpdateCompanyInput } from './schemas.js';
import { mergeUxOptions, uxOptionsOf } from './ux-options.js';

/**
 * PUT /company (REFERENCE §10.2): only the fields sent change; `uxOptions` merges key by key;
 * `webhooks` replaces the organization's whole list, the same list /webhooks manages (its `name`
 * is the item's `id`). Every URL passes the address guard first, as /webhooks' do.
 */
export async function updateCompany(
  ctx: ServiceContext & { allowPrivateUrls: boolean },
  options: { organizationId: string; input: UpdateCompanyInput },
): Promise<{ response: 'OK' }> {
  const { input } = options;
  for (const item of input.webhooks ?? []) await checkUrl(ctx, item.url);
  await withTransaction(ctx, async (trx) => {
    const organization = await q.lockOrganization(trx, ctx.dialect, options.organizationId);
    if (!organization) throw fail('ORGANIZATION_NOT_FOUND');
    await q.updateCompany(trx, organization.id, {
      ...(input.name === undefined ? {} : { name: input.name }),
      ...(input.image === undefined ? {} : { image: input.image === '' ? null : input.image }),
      ...(input.uxOptions === undefined ? {} : { ux_options: JSON.stringify(mergeUxOptions(uxOptionsOf(organization.ux_options), input.uxOptions)) }),
    });
    if (input.webhooks !== undefined) {
      const items = input.webhooks.map(({ id, ...rest }) => ({ name: id, ...rest }));
      await replaceWebhooks(trx, ctx.clock, { organizationId: organization.id, items });
    }
  });
  return { response: 'OK' };
}
