import type { Clock } from '../clock.js';
import type { BlobStore } from '../files/blob-store.js';
import { type Channel, LocalMailbox, mailboxDir } from './local-mailbox.js';
import type { Mailer } from './mailer.js';
import type { SmsSender } from './sms.js';
import { SmtpMailer } from './smtp-mailer.js';
import { TwilioSmsSender } from './twilio-sms.js';
import type { WhatsAppSender } from './whatsapp.js';
import { WhatsAppCloudSender } from './whatsapp-cloud.js';

export interface SenderOptions {
  dataDir: string;
  clock: Clock;
  /** Longest one delivery may take on any channel; shorter than the outbox lease. */
  timeoutMs?: number;
  smtp?: { url: string; from: string };
  whatsapp?: { token: string; phoneNumberId: string; baseUrl: string };
  sms?: { baseUrl: string; accountSid: string; authToken: string; from: string };
  /** Where the documents sent in WhatsApp are read from, to be uploaded to the provider. */
  blobs?: BlobStore;
}

export interface Senders {
  mailer: Mailer;
  whatsapp: WhatsAppSender;
  sms: SmsSender;
  /** Which of them write to the local mailbox, for the start-up log. */
  local: Channel[];
  close(): Promise<void>;
}

/** Each channel through its provider when configured, into DATA_DIR/mailbox otherwise. */
export function chooseSenders(options: SenderOptions): Senders {
  const mailbox = new LocalMailbox(mailboxDir(options.dataDir), options.clock);
  const { timeoutMs } = options;
  const smtp = options.smtp ? new SmtpMailer({ ...options.smtp, timeoutMs }) : undefined;
  const local: Channel[] = [];
  if (!options.smtp) local.push('email');
  if (!options.whatsapp) local.push('whatsapp');
  if (!options.sms) local.push('sms');
  return {
    mailer: smtp ?? mailbox.mailer,
    whatsapp: options.whatsapp ? new WhatsAppCloudSender({ ...options.whatsapp, timeoutMs, blobs: options.blobs }) : mailbox.whatsapp,
    sms: options.sms ? new TwilioSmsSender({ ...options.sms, timeoutMs }) : mailbox.sms,
    local,
    async close() {
      smtp?.close();
    },
  };
}
