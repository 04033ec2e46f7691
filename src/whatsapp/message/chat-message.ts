/*
 * The WhatsApp conversation's two halves meet here. The transport (src/whatsapp/inbound/…: Meta's
 * signed webhook, the durable inbox, media lookups, statuses) turns each message a person sends into
 * an InboundChatMessage and hands it to the conversation (src/whatsapp/conversation/…), which
 * answers with OutgoingChatContent through queueChatMessage (src/whatsapp/queue-chat.ts).
 */

/** A message a person sent to the business number, normalised from Meta's `messages[]` entry. */
export interface InboundChatMessage {
  /** Meta's message id (`wamid.…`): a message delivered twice is handled once. */
  id: string;
  /** The sender's number as Meta gives it: digits only, with the country code (`573001234567`). */
  from: string;
  /** The name the person's WhatsApp profile shows (`contacts[].profile.name`), when Meta sent it. */
  profileName?: string;
  /** When the person sent it (Meta's `timestamp`), ISO 8601. */
  sentAt: string;
  /** The id of the business message this one answers (`context.id`: a button reply, a quoted message). */
  contextId?: string;
  content:
    | { kind: 'text'; text: string }
    /** An interactive `button_reply` (id, title) or a template quick reply (`button.payload`, `button.text`). */
    | { kind: 'button'; id: string; title: string }
    /** A photo sent as an image, or as a document (uncompressed) whatever its type: the conversation checks it. */
    | { kind: 'image' | 'document'; mediaId: string; mimeType: string; caption?: string; filename?: string }
    /** Anything else (audio, sticker, location, …): answered with the current step again. */
    | { kind: 'unsupported'; type: string };
}

/** Meta's limits on an interactive reply-button message. */
export const MAX_BUTTONS = 3;
export const MAX_BUTTON_TITLE = 20;

/** What the business sends in the conversation. */
export type OutgoingChatContent =
  | { kind: 'text'; text: string }
  /** An interactive message with 1–3 reply buttons; each button's id comes back in the reply. */
  | { kind: 'buttons'; text: string; buttons: { id: string; title: string }[] }
  /** A file of the blob store, uploaded to the Cloud API and sent by media id: never by public URL. */
  | { kind: 'document'; blobKey: string; filename: string; mimeType: string; caption?: string }
  /**
   * An approved template (Meta refuses free text to someone who has not written in 24 hours), its
   * body parameters in order; `quickReplies` are the payloads of its quick-reply buttons, in order.
   */
  | { kind: 'template'; name: string; language: string; parameters: string[]; quickReplies?: string[] };

/** Why a message was sent: a failed `invitation` or `reminder` is reported to the integrator (NOTIFICATION_FAILED_SIGN). */
export type ChatPurpose = 'invitation' | 'reminder' | 'code' | 'step' | 'document' | 'outcome' | 'help';

/** The bytes of a photo or document a person sent, fetched where the provider keeps them. */
export interface ChatMedia {
  /** Refuses (ChatMediaError) media larger than `maxBytes` without reading it all. */
  download(mediaId: string, options: { maxBytes: number }): Promise<{ bytes: Buffer; mimeType: string }>;
  /**
   * Lets go of a handled message's media the conversation did not download (a photo sent with
   * nothing open, or at a step that takes none), where the service keeps it: the local chat page's
   * copy. Meta keeps the media people send for 30 days and deletes it itself.
   */
  release?(mediaId: string): Promise<void>;
}

export class ChatMediaError extends Error {}
