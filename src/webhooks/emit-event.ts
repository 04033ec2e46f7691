import type { Clock } from '../clock.js';
import type { Db } from '../db/database.js';
import { enqueue, type NewMessage } from '../outbox/enqueue.js';
import type { FlatBody, WebhookEvent } from './payload/event.js';
import { type FileLink, takeFileLinks } from './payload/file-links.js';
import { findEnabledWebhooks } from './queries.js';
import { DEFAULT_WEBHOOK } from './webhooks.js';

export interface EmitEventOptions {
  organizationId: string;
  /** Dotted event type, e.g. `veriface.approved`. */
  type: string;
  /**
   * The resource and its stage, e.g. `{ code, status }`. A `fileLink(key)` where a URL goes is sent
   * as that file's download URL, signed as each attempt is sent (as in flat bodies).
   */
  data: Record<string, unknown>;
  /**
   * The real service's bodies for this moment, for the webhooks of format `flat`: none when it sends
   * nothing then, two when it sends two (REJECT and REJECTED). Called only when a flat webhook is
   * among the targets, so organizations without one pay nothing for it.
   */
  flat?: () => FlatBody[] | Promise<FlatBody[]>;
  /** Names of the organization's webhooks to notify; `default` when absent. */
  targetWebhooks?: string[];
  custom?: Record<string, unknown>;
  tags?: string[];
}

/**
 * Queues the deliveries of an event in the caller's transaction, so they exist exactly when the
 * state change that caused them commits: one per `typed` target webhook, and one per flat body per
 * `flat` one. Disabled or missing webhooks receive nothing. Answers the ids of the queued deliveries.
 */
export async function emitEvent(db: Db, clock: Clock, options: EmitEventOptions): Promise<string[]> {
  const names = options.targetWebhooks ?? [DEFAULT_WEBHOOK];
  const webhooks = await findEnabledWebhooks(db, options.organizationId, names);
  const integrator = {
    ...(options.tags === undefined ? {} : { tags: options.tags }),
    ...(options.custom === undefined ? {} : { custom: options.custom }),
  };
  const typed = takeFileLinks(
    {
      ...options.data,
      ...(options.custom === undefined ? {} : { custom: options.custom }),
      ...(options.tags === undefined ? {} : { tags: options.tags }),
    },
    ['data'],
  );
  const event: WebhookEvent = { type: options.type, timestamp: clock.now().toISOString(), data: typed.body };
  const flat = webhooks.some((w) => w.format === 'flat') && options.flat ? (await options.flat()).map((body) => takeFileLinks({ ...body, ...integrator })) : [];
  const linked = (links: FileLink[]) => (links.length === 0 ? {} : { links });
  const messages: NewMessage[] = webhooks.flatMap((webhook) =>
    webhook.format === 'flat'
      ? flat.map(({ body, links }) => ({
          kind: 'webhook' as const,
          organizationId: options.organizationId,
          payload: { webhookId: webhook.id, event, flat: body, ...linked(links) },
        }))
      : [{ kind: 'webhook' as const, organizationId: options.organizationId, payload: { webhookId: webhook.id, event, ...linked(typed.links) } }],
  );
  return enqueue(db, clock, messages);
}
