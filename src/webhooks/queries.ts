import type { Db } from '../db/database.js';
import { olderThan } from '../db/keyset.js';
import { reusableQuery } from '../db/reusable-query.js';
import type { OutboxRow, OutboxStatus, WebhookRow } from '../db/schema.js';

export async function insertWebhook(db: Db, row: WebhookRow): Promise<void> {
  await db.insertInto('webhooks').values(row).execute();
}

export async function findWebhookByName(db: Db, organizationId: string, name: string): Promise<WebhookRow | undefined> {
  return db.selectFrom('webhooks').selectAll().where('organization_id', '=', organizationId).where('name', '=', name).executeTakeFirst();
}

export async function findWebhookById(db: Db, id: string): Promise<WebhookRow | undefined> {
  return db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findWebhooksByIds(db: Db, ids: string[]): Promise<WebhookRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('webhooks').selectAll().where('id', 'in', ids).execute();
}

export async function listWebhooks(db: Db, organizationId: string): Promise<WebhookRow[]> {
  return db.selectFrom('webhooks').selectAll().where('organization_id', '=', organizationId).orderBy('name').execute();
}

/** The enabled webhooks of an organization among `names`. */
// Most events go to one webhook (`default`): that shape is compiled once (src/db/reusable-query.ts).
const enabledWebhookNamed = reusableQuery((db, p: { organizationId: string; name: string }) =>
  db.selectFrom('webhooks').selectAll().where('organization_id', '=', p.organizationId).where('name', '=', p.name).where('enabled', '=', 1),
);

export async function findEnabledWebhooks(db: Db, organizationId: string, names: string[]): Promise<WebhookRow[]> {
  if (names.length === 0) return [];
  const [name] = names;
  if (names.length === 1 && name !== undefined) return enabledWebhookNamed(db, { organizationId, name });
  return db.selectFrom('webhooks').selectAll().where('organization_id', '=', organizationId).where('name', 'in', names).where('enabled', '=', 1).execute();
}

export async function updateWebhook(
  db: Db,
  id: string,
  patch: Partial<Pick<WebhookRow, 'url' | 'secret' | 'description' | 'enabled' | 'format' | 'header_key' | 'header_value'>> & { updated_at: string },
): Promise<void> {
  await db.updateTable('webhooks').set(patch).where('id', '=', id).execute();
}

export async function deleteWebhook(db: Db, id: string): Promise<void> {
  await db.deleteFrom('webhooks').where('id', '=', id).execute();
}

export async function listDeliveries(
  db: Db,
  organizationId: string,
  options: { webhookId?: string; status?: OutboxStatus; limit: number; after?: { created_at: string; id: string } },
): Promise<OutboxRow[]> {
  let query = db.selectFrom('outbox').selectAll().where('organization_id', '=', organizationId).where('kind', '=', 'webhook');
  if (options.webhookId) query = query.where('webhook_id', '=', options.webhookId);
  if (options.status) query = query.where('status', '=', options.status);
  const after = options.after;
  if (after) {
    query = query.where(olderThan(after));
  }
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(options.limit).execute();
}

export async function findDelivery(db: Db, organizationId: string, id: string): Promise<OutboxRow | undefined> {
  return db
    .selectFrom('outbox')
    .selectAll()
    .where('id', '=', id)
    .where('organization_id', '=', organizationId)
    .where('kind', '=', 'webhook')
    .executeTakeFirst();
}
