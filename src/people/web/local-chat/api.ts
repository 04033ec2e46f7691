/*
 * The local chat's calls to its JSON routes. The organization's private key, when the operator is
 * not at the service's machine, is held here in memory only: never stored, never in a URL.
 */

import { callJson, messageOf } from '../json-call.js';

export interface Conversation {
  phone: string;
  name?: string;
  lastAt: string;
}

export type MessageContent =
  | { kind: 'text'; text: string }
  | { kind: 'buttons'; text: string; buttons: { id: string; title: string }[] }
  | { kind: 'template'; name: string; parameters: string[]; quickReplies: string[] }
  | { kind: 'document'; filename: string; caption?: string }
  | { kind: 'button'; title: string }
  | { kind: 'photo'; filename: string; asDocument: boolean };

export interface ChatMessage {
  id: string;
  direction: 'in' | 'out';
  at: string;
  status: string;
  content: MessageContent;
}

export interface Conversations {
  everyOrganization: boolean;
  conversations: Conversation[];
}

export interface Chat {
  phone: string;
  name?: string;
  messages: ChatMessage[];
}

/** What the person sends: words, a button tapped (with the message it belongs to), or a photo. */
export type Answer =
  | { text: string }
  | { reply: { id: string; title: string; quickReply: boolean }; contextId: string }
  | { photo: { data: string; filename: string; asDocument: boolean } };

/** Why a call was refused, as the page tells the operator. */
export type Refusal = 'key' | 'public-key' | 'number' | 'file' | 'failed';

export class RefusedError extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal);
  }
}

let key: string | undefined;

export function useKey(value: string): void {
  key = value.trim();
}

export function holdsKey(): boolean {
  return key !== undefined;
}

async function refusalOf(res: Response): Promise<Refusal> {
  const message = await messageOf(res);
  if (res.status === 401) return 'key';
  if (message.startsWith('PRIVATE_KEY_REQUIRED')) return 'public-key';
  if (message.startsWith('LOCAL_CHAT_NUMBER_NOT_FOUND') || message.startsWith('LOCAL_CHAT_MESSAGE_NOT_FOUND')) return 'number';
  if (message.startsWith('LOCAL_CHAT_FILE_INVALID')) return 'file';
  return 'failed';
}

function call(path: string, init: { method?: 'GET' | 'POST'; body?: unknown } = {}): Promise<Response> {
  return callJson(path, { ...init, headers: key === undefined ? {} : { authorization: key } }, async (res) => new RefusedError(await refusalOf(res)));
}

export async function conversations(): Promise<Conversations> {
  return (await call('/whatsapp/local/conversations')).json();
}

export async function chat(phone: string): Promise<Chat> {
  return (await call(`/whatsapp/local/messages?phone=${encodeURIComponent(phone)}`)).json();
}

export async function send(phone: string, answer: Answer): Promise<void> {
  await call('/whatsapp/local/messages', { method: 'POST', body: { phone, ...answer } });
}

export function documentPath(phone: string, id: string): string {
  return `/whatsapp/local/document?phone=${encodeURIComponent(phone)}&id=${encodeURIComponent(id)}`;
}

/** A document fetched with the key (a plain link cannot carry it), as a URL of this page's memory. */
export async function documentUrl(phone: string, id: string): Promise<string> {
  return URL.createObjectURL(await (await call(documentPath(phone, id))).blob());
}

/** A file's bytes in base64, as the JSON body carries them. */
export async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
