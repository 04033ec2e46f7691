/** What a sender answers when the provider took the message. */
export interface SendResult {
  /** The provider's id for the message: SMTP Message-ID, WhatsApp wamid, SMS sid, mailbox file name. */
  id?: string;
  /** The SMTP reply code or HTTP status of the acceptance. */
  statusCode?: number;
  /** The provider's own words on acceptance (e.g. "250 2.0.0 Ok: queued as 4F2A1"), for the attempt log. */
  response?: string;
}

/** A provider refused the message or could not be reached; `retryable` says whether later can help. */
export class SendError extends Error {
  readonly retryable: boolean;
  readonly statusCode: number | undefined;

  constructor(message: string, details: { retryable: boolean; statusCode?: number }) {
    super(message);
    this.name = 'SendError';
    this.retryable = details.retryable;
    this.statusCode = details.statusCode;
  }
}
