import type { FileLink } from './file-links.js';

/**
 * The body of every webhook delivery of format `typed`, as Standard Webhooks recommends: a type,
 * when it happened, and the data. `data` carries the resource (e.g. the process `code`), its
 * `status` (the stage) and the caller's `custom` and `tags` when the process had them.
 */
export interface WebhookEvent {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/**
 * A body of format `flat`: the real service's (REFERENCE §11), the resource's fields at the top
 * level and `status` naming the moment (CREATE, NOTIFICATION, FINISH, APPROVED, ...).
 */
export type FlatBody = { status: string } & Record<string, unknown>;

export interface WebhookPayload {
  webhookId: string;
  /** The event that caused the delivery; the body sent when the webhook is `typed`. */
  event: WebhookEvent;
  /** The body sent when the webhook was `flat` as the event happened. */
  flat?: FlatBody;
  /** The files the body sent points to: their URLs are signed, and put in the body, as each attempt is sent. */
  links?: FileLink[];
}

/** The JSON body a delivery sends, and the deliveries API shows. */
export function bodyOf(payload: Pick<WebhookPayload, 'event' | 'flat'>): WebhookEvent | FlatBody {
  return payload.flat ?? payload.event;
}
