import type { ServiceContext } from '../../context.js';
import type { WhatsAppMessageRow } from '../../db/schema.js';
import { fail } from '../../domain-error.js';
import { mailboxLinesById } from '../../messages/local-mailbox.js';
import { isWhatsAppPayload } from '../../messages/payloads.js';
import type { WhatsAppPayload } from '../../outbox/types.js';
import type { PageMessageContent, PageMessageLog } from './page-log.js';
import { latestMessagesOf, listConversations, namesOfNumbers } from './queries.js';

/** What the local chat reads: the database, the mailbox of WhatsApp messages sent, and the page's own. */
export interface LocalChatStores extends Pick<ServiceContext, 'db' | 'blobs' | 'clock'> {
  /** DATA_DIR/mailbox/whatsapp, where the local mailbox writes the messages sent. */
  sentFolder: string;
  pageLog: PageMessageLog;
}

/** Whose conversations: one organization's (its private key), or every one (`null`: the operator at the machine). */
export type Viewer = { organizationId: string | null };

export const MAX_CONVERSATIONS = 100;
export const MAX_MESSAGES = 200;

/** A message the service sent, as the person's WhatsApp would show it. */
export type SentContent =
  | { kind: 'text'; text: string }
  | { kind: 'buttons'; text: string; buttons: { id: string; title: string }[] }
  /** An approved template: its parameters' text, and the payloads of its quick-reply buttons. */
  | { kind: 'template'; name: string; parameters: string[]; quickReplies: string[] }
  | { kind: 'document'; filename: string; caption?: string };

export interface ChatMessageView {
  /** The wamid: what a button's answer names as the message it answers, and how a document is opened. */
  id: string;
  direction: 'in' | 'out';
  at: string;
  status: string;
  content: SentContent | PageMessageContent;
}

const SENT_PREFIX = 'whatsapp/';

/** The text a person reads of a message sent; a message the page cannot draw yet is left out. */
export function sentContent(payload: WhatsAppPayload): SentContent | undefined {
  const content = payload.chat?.content;
  if (content?.kind === 'text' || content?.kind === 'buttons') return content;
  if (content?.kind === 'document')
    return { kind: 'document', filename: content.filename, ...(content.caption === undefined ? {} : { caption: content.caption }) };
  if (content?.kind === 'template') return { kind: 'template', name: content.name, parameters: content.parameters, quickReplies: content.quickReplies ?? [] };
  if (payload.template) return { kind: 'template', name: payload.template.name, parameters: payload.template.parameters, quickReplies: [] };
  return payload.text === undefined ? undefined : { kind: 'text', text: payload.text };
}

/** The messages the local mailbox wrote for these records, by wamid (the mailbox's answer: `whatsapp/<line id>`). */
export async function sentPayloads(stores: LocalChatStores, rows: readonly WhatsAppMessageRow[]): Promise<Map<string, WhatsAppPayload>> {
  const ids = rows.flatMap((row) => (row.direction === 'out' && row.wamid?.startsWith(SENT_PREFIX) ? [row.wamid.slice(SENT_PREFIX.length)] : []));
  const lines = await mailboxLinesById(stores.sentFolder, ids);
  const found = new Map<string, WhatsAppPayload>();
  for (const [id, line] of lines) if (isWhatsAppPayload(line.message)) found.set(`${SENT_PREFIX}${id}`, line.message);
  return found;
}

/** The conversations the viewer may see, the most recently active first, with the person's name when known. */
export async function readConversations(stores: LocalChatStores, viewer: Viewer) {
  const conversations = await listConversations(stores.db, { organizationId: viewer.organizationId, limit: MAX_CONVERSATIONS });
  const names = await namesOfNumbers(stores.db, { phones: conversations.map((c) => `+${c.phone}`), organizationId: viewer.organizationId });
  return {
    everyOrganization: viewer.organizationId === null,
    conversations: conversations.map((conversation) => {
      const name = names.find((known) => known.phone === `+${conversation.phone}`)?.name;
      return { ...conversation, ...(name === undefined ? {} : { name }) };
    }),
  };
}

/**
 * One conversation as a chat, oldest first: the messages the service sent, as the local mailbox
 * wrote them, and those written on the page. Messages not written yet (queued), and those that
 * reached the webhook some other way, whose words nobody kept, are left out.
 */
export async function readConversation(stores: LocalChatStores, viewer: Viewer, phone: string) {
  const rows = await latestMessagesOf(stores.db, { phone, organizationId: viewer.organizationId, limit: MAX_MESSAGES });
  if (rows.length === 0) throw fail('LOCAL_CHAT_NUMBER_NOT_FOUND');
  const wamids = rows.flatMap((row) => (row.wamid === null ? [] : [row.wamid]));
  const [sent, written, names] = await Promise.all([
    sentPayloads(stores, rows),
    stores.pageLog.contents(wamids),
    namesOfNumbers(stores.db, { phones: [`+${phone}`], organizationId: viewer.organizationId }),
  ]);
  const messages = rows.flatMap((row): ChatMessageView[] => {
    if (row.wamid === null) return [];
    const payload = sent.get(row.wamid);
    const content = row.direction === 'out' ? payload && sentContent(payload) : written.get(row.wamid);
    return content ? [{ id: row.wamid, direction: row.direction, at: row.created_at, status: row.status, content }] : [];
  });
  const name = names[0]?.name;
  return { phone, ...(name === undefined ? {} : { name }), messages };
}

/** A document the service sent in the conversation, as its blob (a PDF of the blob store, never by public URL). */
export async function readSentDocument(stores: LocalChatStores, row: WhatsAppMessageRow): Promise<{ blobKey: string; filename: string }> {
  const payload = (await sentPayloads(stores, [row])).get(row.wamid ?? '');
  const content = payload?.chat?.content;
  if (content?.kind !== 'document') throw fail('LOCAL_CHAT_MESSAGE_NOT_FOUND');
  return { blobKey: content.blobKey, filename: content.filename };
}
