import type { Clock } from '../clock.js';
import { decodeCursor, page } from '../db/cursor.js';
import type { Db } from '../db/database.js';
import type { DeliveryAttemptRow, OutboxRow, WebhookFormat, WebhookRow } from '../db/schema.js';
import { withTransaction } from '../db/transaction.js';
import { fail } from '../domain-error.js';
import type { BlobStore } from '../files/blob-store.js';
import type { OutboxSignal } from '../outbox/enqueue.js';
import { listAttempts, requeueMessage } from '../outbox/queries.js';
import { emitEvent } from './emit-event.js';
import { bodyOf, type FlatBody, type WebhookEvent, type WebhookPayload } from './payload/event.js';
import { withFileLinks } from './payload/file-links.js';
import * as q from './queries.js';

export interface DeliveryStore {
  db: Db;
  clock: Clock;
  outbox: OutboxSignal;
  /** Where the files bodies point to are: shown with URLs signed afresh, as each attempt sends them. */
  blobs: Pick<BlobStore, 'presign'>;
}

export interface AttemptView {
  started_at: string;
  duration_ms: number;
  ok: boolean;
  status_code?: number;
  response?: string;
  error?: string;
  /** The instance that made the attempt (host:pid:random). */
  instance?: string;
}

export interface DeliveryView {
  id: string;
  /** The `webhook-id` header receivers see: the same on every retry and resend. */
  message_id: string;
  webhook?: string;
  event: WebhookEvent;
  format: WebhookFormat;
  /** The JSON body as sent; its file URLs signed afresh (each attempt signs its own, for 5 minutes). */
  body: WebhookEvent | FlatBody;
  status: OutboxRow['status'];
  attempts: AttemptView[];
  next_attempt_at?: string;
  created_at: string;
}

function presentAttempt(row: DeliveryAttemptRow): AttemptView {
  return {
    started_at: row.started_at,
    duration_ms: row.duration_ms,
    ok: row.ok === 1,
    ...(row.status_code === null ? {} : { status_code: row.status_code }),
    ...(row.response === null ? {} : { response: row.response }),
    ...(row.error === null ? {} : { error: row.error }),
    ...(row.instance === null ? {} : { instance: row.instance }),
  };
}

async function present(store: DeliveryStore, rows: OutboxRow[], webhooks: WebhookRow[]): Promise<DeliveryView[]> {
  const attempts = await listAttempts(
    store.db,
    rows.map((r) => r.id),
  );
  const names = new Map(webhooks.map((w) => [w.id, w.name]));
  return Promise.all(
    rows.map(async (row) => {
      const webhook = row.webhook_id ? names.get(row.webhook_id) : undefined;
      const payload: Pick<WebhookPayload, 'event' | 'flat' | 'links'> = JSON.parse(row.payload);
      return {
        id: row.id,
        message_id: `msg_${row.id}`,
        ...(webhook === undefined ? {} : { webhook }),
        event: payload.event,
        format: payload.flat === undefined ? 'typed' : 'flat',
        body: await withFileLinks(bodyOf(payload), payload.links ?? [], store.blobs),
        status: row.status,
        attempts: attempts.filter((a) => a.outbox_id === row.id).map(presentAttempt),
        ...(row.status === 'pending' ? { next_attempt_at: row.next_attempt_at } : {}),
        created_at: row.created_at,
      };
    }),
  );
}

/** Deliveries newest first with every attempt; one with `id`, or filtered by webhook and status. */
export async function listDeliveries(
  store: DeliveryStore,
  options: { organizationId: string; id?: string; webhook?: string; status?: OutboxRow['status']; limit: number; cursor?: string },
): Promise<{ data: DeliveryView[]; next: string | null }> {
  const webhooks = await q.listWebhooks(store.db, options.organizationId);
  if (options.id) {
    const row = await q.findDelivery(store.db, options.organizationId, options.id);
    if (!row) throw fail('DELIVERY_NOT_FOUND');
    return { data: await present(store, [row], webhooks), next: null };
  }
  let webhookId: string | undefined;
  if (options.webhook) {
    webhookId = webhooks.find((w) => w.name === options.webhook)?.id;
    if (!webhookId) throw fail('WEBHOOK_NOT_FOUND');
  }
  const rows = await q.listDeliveries(store.db, options.organizationId, {
    webhookId,
    status: options.status,
    limit: options.limit + 1,
    after: options.cursor ? decodeCursor(options.cursor) : undefined,
  });
  const { rows: kept, next } = page(rows, options.limit);
  return { data: await present(store, kept, webhooks), next };
}

/** Sends a delivery again with the same message id, in a new round of retries. */
export async function resendDelivery(store: DeliveryStore, options: { organizationId: string; id: string }): Promise<{ id: string; status: 'pending' }> {
  const row = await q.findDelivery(store.db, options.organizationId, options.id);
  if (!row) throw fail('DELIVERY_NOT_FOUND');
  if (row.status === 'pending') throw fail('DELIVERY_PENDING');
  await withTransaction(store, (trx) => requeueMessage(trx, { id: row.id, now: store.clock.now().toISOString() }));
  return { id: row.id, status: 'pending' };
}

/**
 * Queues a `webhook.test` event to one webhook, so an integrator can check the receiver end to end.
 * The real service has no test event: a flat webhook gets `{status: "TEST", webhook}`, which a
 * receiver that acts on the statuses it knows leaves alone.
 */
export async function sendTestEvent(store: DeliveryStore, options: { organizationId: string; name: string }): Promise<{ id: string }> {
  const webhook = await q.findWebhookByName(store.db, options.organizationId, options.name);
  if (!webhook) throw fail('WEBHOOK_NOT_FOUND');
  if (webhook.enabled !== 1) throw fail('WEBHOOK_DISABLED');
  const [id] = await withTransaction(store, (trx) =>
    emitEvent(trx, store.clock, {
      organizationId: options.organizationId,
      type: 'webhook.test',
      data: { webhook: webhook.name },
      flat: () => [{ status: 'TEST', webhook: webhook.name }],
      targetWebhooks: [webhook.name],
    }),
  );
  if (!id) throw fail('WEBHOOK_DISABLED');
  return { id };
}
