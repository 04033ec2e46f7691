import type { EmailPayload } from '../outbox/types.js';
import type { SendResult } from './send-result.js';

/** Sends e-mail: through SMTP when configured, into the local mailbox otherwise (see choose-senders.ts). */
export interface Mailer {
  /**
   * Resolves once the server accepted the message; rejects, preferably with a SendError, otherwise.
   * `files`: the bytes of `mail.attachments`, in their order, read by the e-mail handler.
   */
  send(mail: EmailPayload, files?: MailFile[]): Promise<SendResult>;
}

/** An attached file as sent. */
export interface MailFile {
  filename: string;
  contentType: string;
  content: Buffer;
}
