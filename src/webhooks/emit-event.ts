import type { Clock } from '../clock.js';
import type { Db } from '../db/database.js';
import { enqueue } from '../outbox/enqueue.js';
import { findEnabledWebhooks } from './queries.js';
import { DEFAULT_WEBHOOK } from './webhooks.js';

export interface EmitEventOptions {
  organizationId: string;
  /** Dotted event type, e.g. `veriface.approved`. */
  type: string;
  /** The resource and its stage, e.g. `{ code, status }`. */
  data: Record<string, unknown>;
  /** Names of the organization's webhooks to notify; `default` when absent. */
  targetWebhooks?: string[];
  custom?: Record<string, unknown>;
  tags?: string[];
}

/**
 * Queues one delivery per target webhook in the caller's transaction, so the event exists exactly
 * when the state change that caused it commits. Disabled or missing webhooks receive nothing.
 * Answers the ids of the queued deliveries.
 */
export async function emitEvent(db: Db, clock: Clock, options: EmitEventOptions): Promise<string[]> {
  const names = options.targetWebhooks ?? [DEFAULT_WEBHOOK];
  const webhooks = await findEnabledWebhooks(db, options.organizationId, names);
  const event = {
    type: options.type,
    timestamp: clock.now().toISOString(),
    data: {
      ...options.data,
      ...(options.custom === undefined ? {} : { custom: options.custom }),
      ...(options.tags === undefined ? {} : { tags: options.tags }),
    },
  };
  return enqueue(
    db,
    clock,
    webhooks.map((webhook) => ({
      kind: 'webhook' as const,
      organizationId: options.organizationId,
      payload: { webhookId: webhook.id, event },
    })),
  );
}
