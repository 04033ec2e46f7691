import net from 'node:net';
import { type Dispatcher, request } from 'undici';
import type { Clock } from '../clock.js';
import type { Db } from '../db/database.js';
import type { WebhookRow } from '../db/schema.js';
import type { BlobStore } from '../files/blob-store.js';
import type { DeliveryOutcome, OutboxHandler, OutboxMessage } from '../outbox/types.js';
import { OriginSlots } from './origin-slots.js';
import { bodyOf, type WebhookPayload } from './payload/event.js';
import { withFileLinks } from './payload/file-links.js';
import { findWebhookById, findWebhooksByIds } from './queries.js';
import { signWebhook } from './signature.js';
import { RESERVED_HEADERS } from './static-header.js';
import { isPrivateAddress } from './url-guard.js';

export interface WebhookDeliveryOptions {
  db: Db;
  clock: Clock;
  /** Connection pool; without allowPrivateUrls its DNS lookup refuses private addresses. */
  dispatcher: Dispatcher;
  allowPrivateUrls: boolean;
  /**
   * How long one exchange with the receiver may take (10 s): connecting, sending, the answer. The
   * clock starts when the delivery has a connection of its own (OriginSlots), not while it waits.
   */
  timeoutMs: number;
  /** Connections the pool keeps per origin: deliveries beyond it wait for one, unclocked. */
  connectionsPerOrigin: number;
  /** Where the files bodies point to are: their URLs are signed for each attempt. */
  blobs: Pick<BlobStore, 'presign'>;
}

const EXCERPT_BYTES = 1024;

/** Reads at most the first kilobyte of the answer: enough to show the receiver's reason. */
async function excerpt(body: Dispatcher.ResponseData['body']): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    chunks.push(buffer);
    size += buffer.length;
    if (size >= EXCERPT_BYTES) break;
  }
  body.destroy();
  return Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8');
}

/**
 * The webhook's static header, as the real service adds it. Names the service sets were refused
 * when it was saved; they are left out here too, and the service's own headers come after it.
 */
function staticHeader(webhook: WebhookRow): Record<string, string> {
  const { header_key: key, header_value: value } = webhook;
  if (key === null || value === null || RESERVED_HEADERS.includes(key.toLowerCase())) return {};
  return { [key]: value };
}

/**
 * POSTs the event as JSON (its flat body for a webhook of format `flat`), signed the Standard Webhooks way. `webhook-id` is the outbox message id,
 * the same on every retry, so receivers can de-duplicate; the timestamp is the attempt's.
 */
export function webhookDeliveryHandler(options: WebhookDeliveryOptions): OutboxHandler<WebhookPayload> {
  const slots = new OriginSlots(options.connectionsPerOrigin);
  async function send(message: OutboxMessage<WebhookPayload>, webhook: WebhookRow | undefined): Promise<DeliveryOutcome> {
    if (!webhook) return { ok: false, retryable: false, durationMs: 0, error: 'WEBHOOK_DELETED' };
    if (webhook.enabled !== 1) return { ok: false, retryable: false, durationMs: 0, error: 'WEBHOOK_DISABLED' };
    const url = new URL(webhook.url);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (!options.allowPrivateUrls && net.isIP(host) && isPrivateAddress(host)) {
      return { ok: false, retryable: false, durationMs: 0, error: 'WEBHOOK_URL_NOT_ALLOWED' };
    }

    const body = JSON.stringify(await withFileLinks(bodyOf(message.payload), message.payload.links ?? [], options.blobs));
    const release = await slots.acquire(url.origin);
    const id = `msg_${message.id}`;
    const now = options.clock.now();
    const signature = signWebhook(webhook.secret, id, now, body);
    const started = performance.now();
    try {
      const response = await request(webhook.url, {
        method: 'POST',
        body,
        dispatcher: options.dispatcher,
        signal: AbortSignal.timeout(options.timeoutMs),
        headers: {
          ...staticHeader(webhook),
          'content-type': 'application/json',
          'user-agent': 'signature-service-webhooks/1',
          'webhook-id': id,
          'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
          'webhook-signature': signature,
        },
      });
      const text = await excerpt(response.body);
      const ok = response.statusCode >= 200 && response.statusCode < 300;
      return { ok, statusCode: response.statusCode, durationMs: performance.now() - started, response: text };
    } catch (error) {
      const reason = error instanceof Error ? (error.name === 'TimeoutError' ? `timed out after ${options.timeoutMs} ms` : error.message) : String(error);
      return { ok: false, durationMs: performance.now() - started, error: reason };
    } finally {
      release();
    }
  }

  return {
    async deliver(message) {
      return send(message, await findWebhookById(options.db, message.payload.webhookId));
    },
    /** One lookup for the whole round: the webhook's current URL, secret and state at sending time. */
    deliverAll(messages) {
      const lookup = findWebhooksByIds(options.db, [...new Set(messages.map((m) => m.payload.webhookId))]).then(
        (webhooks) => new Map(webhooks.map((w) => [w.id, w])),
      );
      return messages.map(async (message) => send(message, (await lookup).get(message.payload.webhookId)));
    },
  };
}
