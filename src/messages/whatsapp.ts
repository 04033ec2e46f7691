import type { WhatsAppPayload } from '../outbox/types.js';
import type { SendResult } from './send-result.js';

/** Sends WhatsApp messages: through the Cloud API when configured, into the local mailbox otherwise. */
export interface WhatsAppSender {
  /** Resolves once the provider accepted the message; rejects, preferably with a SendError, otherwise. */
  send(message: WhatsAppPayload): Promise<SendResult>;
}
