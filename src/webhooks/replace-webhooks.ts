import type { Clock } from '../clock.js';
import type { Db } from '../db/database.js';
import type { WebhookFormat, WebhookRow } from '../db/schema.js';
import { invalid } from '../domain-error.js';
import { newObjectId } from '../ids.js';
import * as q from './queries.js';
import { newWebhookSecret } from './secret.js';
import { MASKED_HEADER_VALUE, type StaticHeader } from './static-header.js';

export interface WebhookListItem {
  name: string;
  url: string;
  description?: string;
  header?: StaticHeader;
  format?: WebhookFormat;
}

/** The header to keep: a value sent as the mask GET shows stands for the one stored under the same name. */
function headerToKeep(item: WebhookListItem, at: number, row: WebhookRow | undefined): { header_key: string | null; header_value: string | null } {
  const { header } = item;
  if (header === undefined) return { header_key: null, header_value: null };
  if (header.value !== MASKED_HEADER_VALUE) return { header_key: header.key, header_value: header.value };
  if (row && row.header_key !== null && row.header_value !== null && row.header_key.toLowerCase() === header.key.toLowerCase()) {
    return { header_key: header.key, header_value: row.header_value };
  }
  throw invalid(`"webhooks[${at}].header.value" is the mask GET /company shows, and no value is stored under this key: send the value itself`);
}

/**
 * Makes the organization's webhooks exactly `items`, in the caller's transaction (PUT /company
 * replaces the whole list, REFERENCE §10.2). A webhook that stays keeps its secret, its enabled
 * flag and, unless one is sent, its format; a new one gets a secret of its own (POST
 * /webhooks/rotate-secret shows one) and the format sent, else `flat`; those left out are deleted,
 * and their pending deliveries fail (WEBHOOK_DELETED). URLs are checked by the caller beforehand.
 */
export async function replaceWebhooks(db: Db, clock: Clock, options: { organizationId: string; items: WebhookListItem[] }): Promise<void> {
  const now = clock.now().toISOString();
  const existing = new Map((await q.listWebhooks(db, options.organizationId)).map((row) => [row.name, row]));
  for (const [at, item] of options.items.entries()) {
    const row = existing.get(item.name);
    const fields = { url: item.url, description: item.description ?? null, ...headerToKeep(item, at, row) };
    if (row) {
      await q.updateWebhook(db, row.id, { ...fields, format: item.format ?? row.format, updated_at: now });
      existing.delete(item.name);
    } else {
      await q.insertWebhook(db, {
        id: newObjectId(clock.now()),
        organization_id: options.organizationId,
        name: item.name,
        secret: newWebhookSecret(),
        enabled: 1,
        format: item.format ?? 'flat',
        ...fields,
        created_at: now,
        updated_at: now,
      });
    }
  }
  for (const row of existing.values()) await q.deleteWebhook(db, row.id);
}
