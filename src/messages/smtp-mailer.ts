import nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer';
import type { SMTPPoolOptions, SMTPPoolSentMessageInfo } from 'nodemailer/lib/smtp-pool';
import type { EmailPayload } from '../outbox/types.js';
import type { Mailer, MailFile } from './mailer.js';
import { SendError, type SendResult } from './send-result.js';

export interface SmtpMailerOptions {
  /** smtp://user:pass@host:587 (STARTTLS when the server offers it) or smtps://user:pass@host:465. */
  url: string;
  /** The From of every message: an address, or `Name <address>`. */
  from: string;
  /** Longest one send may take, waiting for a free pooled connection included; under the outbox lease. */
  timeoutMs?: number;
  /** Timeout for connecting and for the server's greeting. */
  connectTimeoutMs?: number;
}

/**
 * E-mail through an SMTP relay. The worker delivers a batch side by side, so connections are pooled
 * (a few, reused) instead of one per message. The pool never re-sends on its own: the outbox retries.
 */
export class SmtpMailer implements Mailer {
  private readonly transport: Mail<SMTPPoolSentMessageInfo, SMTPPoolOptions>;
  private readonly timeoutMs: number;

  constructor(options: SmtpMailerOptions) {
    const connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.transport = nodemailer.createTransport(
      {
        url: options.url,
        pool: true,
        maxConnections: 5,
        maxRequeues: 0,
        connectionTimeout: connectTimeoutMs,
        greetingTimeout: connectTimeoutMs,
        socketTimeout: this.timeoutMs,
      },
      { from: options.from },
    );
  }

  async send(mail: EmailPayload, files: MailFile[] = []): Promise<SendResult> {
    const deadline = AbortSignal.timeout(this.timeoutMs);
    try {
      // With html, nodemailer builds multipart/alternative: the text part first, then the html.
      const info = await this.transport.sendMail({
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        ...(files.length === 0
          ? {}
          : { attachments: files.map((file) => ({ filename: file.filename, contentType: file.contentType, content: file.content })) }),
        signal: deadline,
      });
      return { id: info.messageId, statusCode: replyCodeOf(info.response), response: info.response };
    } catch (error) {
      if (deadline.aborted) throw new SendError(`not sent within ${this.timeoutMs} ms`, { retryable: true });
      throw smtpSendError(error);
    }
  }

  /** Closes the pooled connections; a delivery under way finishes first. */
  close(): void {
    this.transport.close();
  }
}

function replyCodeOf(response: string): number | undefined {
  const code = /^(\d{3})\b/.exec(response)?.[1];
  return code === undefined ? undefined : Number(code);
}

/**
 * What an SMTP failure means for the outbox. A 4xx reply asks to try again later (greylisting, a full
 * mailbox, a rate limit); a 5xx reply is a definite refusal (550 unknown mailbox). Without a reply the
 * server could not be reached or went silent, which later may cure, unless nodemailer refused the
 * envelope itself (an address it cannot use).
 */
function smtpSendError(error: unknown): SendError {
  const message = error instanceof Error ? error.message : String(error);
  if (typeof error === 'object' && error !== null) {
    if ('responseCode' in error && typeof error.responseCode === 'number') {
      return new SendError(message, { retryable: error.responseCode < 500, statusCode: error.responseCode });
    }
    if ('code' in error && error.code === 'EENVELOPE') return new SendError(message, { retryable: false });
  }
  return new SendError(message, { retryable: true });
}
