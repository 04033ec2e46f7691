/**
 * The body of every webhook delivery, as Standard Webhooks recommends: a type, when it happened, and
 * the data. `data` carries the resource (e.g. the process `code`), its `status` (the stage) and the
 * caller's `custom` and `tags` when the process had them.
 */
export interface WebhookEvent {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

export interface WebhookPayload {
  webhookId: string;
  event: WebhookEvent;
}
