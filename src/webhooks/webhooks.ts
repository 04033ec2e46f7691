import type { Clock } from '../clock.js';
import type { Db } from '../db/database.js';
import type { WebhookFormat, WebhookRow } from '../db/schema.js';
import { DomainError, fail } from '../domain-error.js';
import { answerMessage } from '../error-catalogue.js';
import { newObjectId } from '../ids.js';
import * as q from './queries.js';
import type { CreateWebhookInput, UpdateWebhookInput } from './schemas.js';
import { newWebhookSecret } from './secret.js';
import { maskedHeader } from './static-header.js';
import { checkWebhookUrl, WebhookUrlError } from './url-guard.js';

/** The webhook that receives events when a request names no `targetWebhooks`. */
export const DEFAULT_WEBHOOK = 'default';

export interface WebhookStore {
  db: Db;
  clock: Clock;
  allowPrivateUrls: boolean;
}

export interface WebhookView {
  name: string;
  url: string;
  description?: string;
  enabled: boolean;
  format: WebhookFormat;
  header?: { key: string; value: string };
  created_at: string;
  updated_at: string;
}

export function presentWebhook(row: WebhookRow): WebhookView {
  const header = maskedHeader(row.header_key);
  return {
    name: row.name,
    url: row.url,
    ...(row.description === null ? {} : { description: row.description }),
    enabled: row.enabled === 1,
    format: row.format,
    ...(header === undefined ? {} : { header }),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export async function checkUrl(store: WebhookStore, url: string): Promise<void> {
  try {
    await checkWebhookUrl(url, store.allowPrivateUrls);
  } catch (error) {
    if (error instanceof WebhookUrlError) throw new DomainError(answerMessage(error.message));
    throw error;
  }
}

async function existing(store: WebhookStore, organizationId: string, name: string): Promise<WebhookRow> {
  const row = await q.findWebhookByName(store.db, organizationId, name);
  if (!row) throw fail('WEBHOOK_NOT_FOUND');
  return row;
}

/** The secret is answered here and on rotation only. */
export async function createWebhook(
  store: WebhookStore,
  options: { organizationId: string; input: CreateWebhookInput },
): Promise<WebhookView & { secret: string }> {
  const { input } = options;
  await checkUrl(store, input.url);
  if (await q.findWebhookByName(store.db, options.organizationId, input.name)) throw fail('WEBHOOK_ALREADY_EXISTS');
  const now = store.clock.now();
  const row: WebhookRow = {
    id: newObjectId(now),
    organization_id: options.organizationId,
    name: input.name,
    url: input.url,
    secret: input.secret ?? newWebhookSecret(),
    description: input.description ?? null,
    enabled: input.enabled ? 1 : 0,
    format: input.format,
    header_key: input.header?.key ?? null,
    header_value: input.header?.value ?? null,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  await q.insertWebhook(store.db, row);
  return { ...presentWebhook(row), secret: row.secret };
}

export async function listWebhooks(store: WebhookStore, options: { organizationId: string }): Promise<{ data: WebhookView[] }> {
  return { data: (await q.listWebhooks(store.db, options.organizationId)).map(presentWebhook) };
}

export async function updateWebhook(store: WebhookStore, options: { organizationId: string; input: UpdateWebhookInput }): Promise<WebhookView> {
  const { input } = options;
  const row = await existing(store, options.organizationId, input.name);
  if (input.url !== undefined) await checkUrl(store, input.url);
  const patch = {
    ...(input.url === undefined ? {} : { url: input.url }),
    ...(input.description === undefined ? {} : { description: input.description }),
    ...(input.enabled === undefined ? {} : { enabled: input.enabled ? 1 : 0 }),
    ...(input.format === undefined ? {} : { format: input.format }),
    ...(input.header === undefined ? {} : { header_key: input.header?.key ?? null, header_value: input.header?.value ?? null }),
    updated_at: store.clock.now().toISOString(),
  };
  await q.updateWebhook(store.db, row.id, patch);
  return presentWebhook({ ...row, ...patch });
}

/** A new secret signs every delivery from now on, retries of older messages included. */
export async function rotateWebhookSecret(store: WebhookStore, options: { organizationId: string; name: string }): Promise<{ name: string; secret: string }> {
  const row = await existing(store, options.organizationId, options.name);
  const secret = newWebhookSecret();
  await q.updateWebhook(store.db, row.id, { secret, updated_at: store.clock.now().toISOString() });
  return { name: row.name, secret };
}

/** Pending deliveries to a deleted webhook fail on their next attempt (WEBHOOK_DELETED). */
export async function deleteWebhook(store: WebhookStore, options: { organizationId: string; name: string }): Promise<{ name: string; deleted: boolean }> {
  const row = await existing(store, options.organizationId, options.name);
  await q.deleteWebhook(store.db, row.id);
  return { name: row.name, deleted: true };
}
