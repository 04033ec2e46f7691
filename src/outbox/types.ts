import type { ChatPurpose, OutgoingChatContent } from '../whatsapp/message/chat-message.js';
import type { Claim } from './claim.js';

/** What the outbox carries: each kind has one handler that delivers it to the outside world. */
export type OutboxKind = 'webhook' | 'email' | 'whatsapp' | 'sms' | 'job';

export interface EmailPayload {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Names the message template it was rendered from, for the operator's listing. */
  template?: string;
  /** Files sent with the message, read from the blob store as it is sent: the outbox keeps their keys, never their bytes. */
  attachments?: EmailAttachment[];
}

export interface EmailAttachment {
  filename: string;
  /** The file's key in the blob store. */
  key: string;
  contentType: 'application/pdf';
}

/** A WhatsApp Business Cloud API message: free text inside the 24-hour window, or an approved template. */
export interface WhatsAppPayload {
  to: string;
  /** A message of the WhatsApp conversation (src/whatsapp): what it is, why, and whose flow it belongs to. */
  chat?: ChatPayload;
  /** Whom and why a message outside the conversation (text or template) is for: its record says so (src/whatsapp/records). */
  about?: WhatsAppAbout;
  text?: string;
  template?: {
    name: string;
    language: string;
    /** Body parameters, in order, as the approved template expects them. */
    parameters: string[];
  };
}

/** Why a WhatsApp message outside the conversation was sent, and for whose flow. */
export interface WhatsAppAbout {
  purpose: 'invitation' | 'reminder' | 'code' | 'link';
  processId?: string;
  participantId?: string;
  verifaceId?: string;
}

export interface ChatPayload {
  content: OutgoingChatContent;
  purpose: ChatPurpose;
  /** The process (its row id) the participant belongs to: a failed invitation is told in its roadmap. */
  processId?: string;
  participantId?: string;
  verifaceId?: string;
}

export interface SmsPayload {
  to: string;
  text: string;
}

/** Scheduled work: a named job with its data; `everyMs` makes it recurring. */
export interface JobPayload {
  name: string;
  data?: Record<string, unknown>;
  everyMs?: number;
}

export interface OutboxMessage<P = unknown> {
  id: string;
  organizationId: string | null;
  kind: OutboxKind;
  payload: P;
  /** Attempts already made before this one. */
  attempts: number;
  createdAt: string;
  /** The worker's hold on the message while it delivers it; absent when handed over outside a worker. */
  claim?: Claim;
}

export interface DeliveryOutcome {
  ok: boolean;
  /** False when retrying cannot help (e.g. a malformed address); the message fails at once. */
  retryable?: boolean;
  statusCode?: number;
  durationMs: number;
  /** A short excerpt of the answer, never a secret or a one-time code. */
  response?: string;
  error?: string;
  /** For recurring jobs: delivered, and due again at this instant. */
  repeatAt?: Date;
  /**
   * Not attempted: an earlier message to the same recipient failed in this round. It stays due with
   * its attempts untouched, and the claim holds it back until the earlier one is sent or given up.
   */
  deferred?: true;
}

export interface OutboxHandler<P = unknown> {
  deliver(message: OutboxMessage<P>): Promise<DeliveryOutcome>;
  /**
   * Delivers a round's messages of this kind together (one lookup for all): one outcome per message,
   * in the same order, each settling as that message's delivery ends.
   */
  deliverAll?(messages: OutboxMessage<P>[]): Promise<DeliveryOutcome>[];
}
