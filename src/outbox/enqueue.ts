import type { Clock } from '../clock.js';
import type { Db } from '../db/database.js';
import type { OutboxRow } from '../db/schema.js';
import { newObjectId } from '../ids.js';
import type { WebhookPayload } from '../webhooks/payload/event.js';
import { phoneDigits } from '../whatsapp/message/phone.js';
import { recordQueuedWhatsApp } from '../whatsapp/records/record-queued.js';
import { insertOutboxRowOnce, insertOutboxRows } from './queries.js';
import type { EmailPayload, JobPayload, OutboxKind, SmsPayload, WhatsAppPayload } from './types.js';

interface PayloadOf {
  webhook: WebhookPayload;
  email: EmailPayload;
  whatsapp: WhatsAppPayload;
  sms: SmsPayload;
  job: JobPayload;
}

export type NewMessage = {
  [K in OutboxKind]: {
    kind: K;
    payload: PayloadOf[K];
    organizationId: string | null;
    /** Not before this instant (scheduled work); now by default. */
    notBefore?: Date;
    /** At most one pending message per key. */
    dedupeKey?: string;
  };
}[OutboxKind];

/** Something that wants to know when there is new work (the worker of this process). */
export interface OutboxSignal {
  wake(): void;
}

function toRow(message: NewMessage, now: Date): OutboxRow {
  const at = now.toISOString();
  return {
    id: newObjectId(now),
    organization_id: message.organizationId,
    kind: message.kind,
    payload: JSON.stringify(message.payload),
    status: 'pending',
    attempts: 0,
    next_attempt_at: (message.notBefore ?? now).toISOString(),
    locked_by: null,
    locked_until: null,
    last_error: null,
    dedupe_key: message.dedupeKey ?? null,
    webhook_id: message.kind === 'webhook' ? message.payload.webhookId : null,
    event_type: message.kind === 'webhook' ? message.payload.event.type : null,
    recipient: message.kind === 'whatsapp' ? phoneDigits(message.payload.to) : null,
    created_at: at,
    updated_at: at,
  };
}

/**
 * Writes messages in the caller's transaction: they exist exactly when the state change that caused
 * them commits. The worker delivers them after commit (call the signal's wake() once committed).
 * Every WhatsApp message is recorded as it is queued, whoever queues it (src/whatsapp/records).
 */
export async function enqueue(db: Db, clock: Clock, messages: NewMessage[]): Promise<string[]> {
  const now = clock.now();
  const rows = messages.map((m) => toRow(m, now));
  const plain = rows.filter((r) => r.dedupe_key === null);
  await insertOutboxRows(db, plain);
  for (const row of rows.filter((r) => r.dedupe_key !== null)) await insertOutboxRowOnce(db, row);
  const whatsApp = messages.flatMap((message, i) =>
    message.kind === 'whatsapp' ? [{ id: rows[i]!.id, organizationId: message.organizationId, payload: message.payload, at: rows[i]!.created_at }] : [],
  );
  if (whatsApp.length > 0) await recordQueuedWhatsApp(db, whatsApp);
  return rows.map((r) => r.id);
}
