import type { EmailPayload } from '../outbox/types.js';
import type { SendResult } from './send-result.js';

/** Sends e-mail: through SMTP when configured, into the local mailbox otherwise (see choose-senders.ts). */
export interface Mailer {
  /** Resolves once the server accepted the message; rejects, preferably with a SendError, otherwise. */
  send(mail: EmailPayload): Promise<SendResult>;
}
