import crypto from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Clock } from '../clock.js';
import { isRecord } from '../is-record.js';
import type { EmailPayload, SmsPayload, WhatsAppPayload } from '../outbox/types.js';
import { GroupedAppender } from './grouped-appender.js';
import type { Mailer } from './mailer.js';
import type { SendResult } from './send-result.js';
import type { SmsSender } from './sms.js';
import type { WhatsAppSender } from './whatsapp.js';

export const CHANNELS = ['email', 'whatsapp', 'sms'] as const;
export type Channel = (typeof CHANNELS)[number];

export function isChannel(value: string): value is Channel {
  return CHANNELS.some((channel) => channel === value);
}

/** Where the local mailbox lives: one folder per channel under it. */
export function mailboxDir(dataDir: string): string {
  return path.join(dataDir, 'mailbox');
}

/** One line of the mailbox: what the listing shows, then the message exactly as it would have gone out. */
interface MailboxLine {
  id: string;
  channel: Channel;
  createdAt: string;
  to: string;
  summary: string;
  message: EmailPayload | WhatsAppPayload | SmsPayload;
}

export interface MailboxEntry {
  /** The message's id, as its delivery records it: sortable by time. */
  id: string;
  channel: Channel;
  to: string;
  /** The e-mail's subject, or the start of the text. */
  summary: string;
  time: string;
  /** The file holding it: one line of JSON among that day's messages of the channel. */
  file: string;
  /** The message as it would have gone out: subject, text and HTML of an e-mail, the text or template of the others. */
  message: Record<string, unknown>;
}

export interface ListOptions {
  channel?: Channel;
  /** Newest first, this many at most (default 20). */
  limit?: number;
}

/** A day's file of one channel: the date (UTC) first, so that name order is time order. */
const DAY_FILE = /^\d{4}-\d{2}-\d{2}\.jsonl$/;
const SUMMARY_LENGTH = 80;

let sequence = 0;

/** Sortable by time, and in order of writing within one millisecond of this process; its first characters name its day. */
export function mailboxLineId(now: Date): string {
  const stamp = now.toISOString().replace(/[-:.]/g, '');
  sequence = (sequence + 1) % 1_000_000;
  return `${stamp}-${String(sequence).padStart(6, '0')}-${crypto.randomBytes(4).toString('hex')}`;
}

function shorten(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > SUMMARY_LENGTH ? `${flat.slice(0, SUMMARY_LENGTH - 1)}…` : flat;
}

/** The start of what the person would read; a message of the conversation by its kind (the whole of it is in the line). */
function whatsAppSummary(message: WhatsAppPayload): string {
  const content = message.chat?.content;
  if (content?.kind === 'text') return shorten(content.text);
  if (content?.kind === 'buttons') return shorten(`${content.text} [${content.buttons.map((button) => button.title).join(' | ')}]`);
  if (content?.kind === 'document') return shorten(`[${content.filename}] ${content.caption ?? ''}`);
  if (content?.kind === 'template') return shorten(`[${content.name}] ${content.parameters.join(' | ')}`);
  if (message.template) return shorten(`[${message.template.name}] ${message.template.parameters.join(' | ')}`);
  return shorten(message.text ?? '');
}

/**
 * The default when no provider is configured: every message is one line of JSON in
 * DATA_DIR/mailbox/<channel>/<day>.jsonl (the day in UTC), for developers and tests to read instead
 * of a real inbox or phone (`tail -f` it, or `admin mailbox list`). A message is reported sent
 * once its line is on disk. Messages sent together are appended in one write and one flush
 * (src/messages/grouped-appender.ts), as a provider takes many in one request: a stand-in must not
 * cost the service a flushed file per message, three for every process created.
 */
export class LocalMailbox {
  readonly mailer: Mailer = { send: (mail) => this.write('email', mail.to, mail.subject, mail) };
  readonly whatsapp: WhatsAppSender = { send: (message) => this.write('whatsapp', message.to, whatsAppSummary(message), message) };
  readonly sms: SmsSender = { send: (message) => this.write('sms', message.to, shorten(message.text), message) };
  private readonly appenders = new Map<string, GroupedAppender>();

  constructor(
    private readonly root: string,
    private readonly clock: Clock,
  ) {}

  list(options: ListOptions = {}): Promise<MailboxEntry[]> {
    return listMailbox(this.root, options);
  }

  private async write(channel: Channel, to: string, summary: string, message: MailboxLine['message']): Promise<SendResult> {
    const now = this.clock.now();
    const line: MailboxLine = { id: mailboxLineId(now), channel, createdAt: now.toISOString(), to, summary, message };
    await this.appenderOf(path.join(this.root, channel, `${now.toISOString().slice(0, 10)}.jsonl`)).append(`${JSON.stringify(line)}\n`);
    return { id: `${channel}/${line.id}`, response: 'kept in the local mailbox' };
  }

  /** One appender per file, so that messages to the same file share its writes. */
  private appenderOf(file: string): GroupedAppender {
    let appender = this.appenders.get(file);
    if (!appender) {
      appender = new GroupedAppender(file);
      this.appenders.set(file, appender);
    }
    return appender;
  }
}

/** The mailbox's messages, newest first, optionally of one channel. */
export async function listMailbox(root: string, options: ListOptions = {}): Promise<MailboxEntry[]> {
  const limit = options.limit ?? 20;
  const channels = options.channel ? [options.channel] : CHANNELS;
  const found = await Promise.all(channels.map((channel) => newestOf(path.join(root, channel), channel, limit)));
  return found
    .flat()
    .sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
    .slice(0, limit);
}

/** At least the newest `limit` messages of a channel (whole days of them), from its newest day back. */
async function newestOf(folder: string, channel: Channel, limit: number): Promise<MailboxEntry[]> {
  const days = (await dayFiles(folder)).sort().reverse();
  const entries: MailboxEntry[] = [];
  for (const day of days) {
    const file = path.join(folder, day);
    for (const line of (await fsp.readFile(file, 'utf8')).split('\n')) {
      const entry = entryOf(line, channel, file);
      if (entry) entries.push(entry);
    }
    if (entries.length >= limit) break;
  }
  return entries;
}

async function dayFiles(folder: string): Promise<string[]> {
  try {
    return (await fsp.readdir(folder)).filter((name) => DAY_FILE.test(name));
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return [];
    throw error;
  }
}

/** A whole line of the mailbox as the listing shows it; undefined for an empty line or one a crash cut off. */
function entryOf(line: string, channel: Channel, file: string): MailboxEntry | undefined {
  const parsed = parsedLine(line);
  if (!parsed || !isRecord(parsed.message)) return undefined;
  const { id, to, summary, createdAt, message } = parsed;
  if (typeof id !== 'string' || typeof to !== 'string' || typeof summary !== 'string' || typeof createdAt !== 'string') return undefined;
  return { id, channel, to, summary, time: createdAt, file, message };
}

const LINE_ID = /^(\d{4})(\d{2})(\d{2})T\d{9}Z-\d{6}-[0-9a-f]{8}$/;

/**
 * Lines of one folder of the mailbox by their ids, each read from the file of the day its id names
 * (each file once): the lines found, as JSON, by id. An id of another form finds nothing, so no
 * name given from outside reaches another file.
 */
export async function mailboxLinesById(folder: string, ids: readonly string[]): Promise<Map<string, Record<string, unknown>>> {
  const days = new Map<string, Set<string>>();
  for (const id of ids) {
    const match = LINE_ID.exec(id);
    if (!match) continue;
    const day = `${match[1]}-${match[2]}-${match[3]}`;
    days.set(day, (days.get(day) ?? new Set()).add(id));
  }
  const found = new Map<string, Record<string, unknown>>();
  for (const [day, wanted] of days) {
    for (const line of (await dayLines(path.join(folder, `${day}.jsonl`))).split('\n')) {
      const parsed = parsedLine(line);
      if (parsed && typeof parsed.id === 'string' && wanted.has(parsed.id)) found.set(parsed.id, parsed);
    }
  }
  return found;
}

async function dayLines(file: string): Promise<string> {
  try {
    return await fsp.readFile(file, 'utf8');
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return '';
    throw error;
  }
}

/** A whole line as JSON; undefined for an empty line or one a crash cut off. */
function parsedLine(line: string): Record<string, unknown> | undefined {
  if (line === '') return undefined;
  try {
    const parsed: unknown = JSON.parse(line);
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}
