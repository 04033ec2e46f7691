import { newObjectId } from '../../src/ids.js';
import type { OutboxKind, OutboxMessage } from '../../src/outbox/types.js';

/** A message as the worker hands it to a handler: first attempt. */
export function outboxMessage<P>(kind: OutboxKind, payload: P, queued: { id?: string; createdAt?: string } = {}): OutboxMessage<P> {
  const now = new Date();
  return { id: queued.id ?? newObjectId(now), organizationId: null, kind, payload, attempts: 0, createdAt: queued.createdAt ?? now.toISOString() };
}
