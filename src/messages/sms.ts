import type { SmsPayload } from '../outbox/types.js';
import type { SendResult } from './send-result.js';

/** Sends text messages: through an SMS provider when configured, into the local mailbox otherwise. */
export interface SmsSender {
  /** Resolves once the provider accepted the message; rejects, preferably with a SendError, otherwise. */
  send(message: SmsPayload): Promise<SendResult>;
}
