import crypto from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Clock } from '../clock.js';
import type { EmailPayload, SmsPayload, WhatsAppPayload } from '../outbox/types.js';
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

/** One file of the mailbox: what the listing shows, then the message exactly as it would have gone out. */
interface MailboxFile {
  channel: Channel;
  createdAt: string;
  to: string;
  summary: string;
  message: EmailPayload | WhatsAppPayload | SmsPayload;
}

export interface MailboxEntry {
  channel: Channel;
  to: string;
  /** The e-mail's subject, or the start of the text. */
  summary: string;
  time: string;
  file: string;
}

export interface ListOptions {
  channel?: Channel;
  /** Newest first, this many at most (default 20). */
  limit?: number;
}

// Final names only: the time first, so that name order is time order. Temporary files start with a dot.
const FILE_NAME = /^\d{8}T\d{9}Z-\d{6}-[0-9a-f]{8}\.json$/;
const SUMMARY_LENGTH = 80;

let sequence = 0;

/** Sortable by time, and in order of writing within one millisecond of this process. */
function fileName(now: Date): string {
  const stamp = now.toISOString().replace(/[-:.]/g, '');
  sequence = (sequence + 1) % 1_000_000;
  return `${stamp}-${String(sequence).padStart(6, '0')}-${crypto.randomBytes(4).toString('hex')}.json`;
}

function shorten(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > SUMMARY_LENGTH ? `${flat.slice(0, SUMMARY_LENGTH - 1)}…` : flat;
}

function whatsAppSummary(message: WhatsAppPayload): string {
  if (message.template) return shorten(`[${message.template.name}] ${message.template.parameters.join(' | ')}`);
  return shorten(message.text ?? '');
}

/**
 * The default when no provider is configured: every message becomes one JSON file under
 * DATA_DIR/mailbox/<channel>/, for developers and tests to read instead of a real inbox or phone.
 * Each file is written beside its final name and renamed once complete and flushed, so a reader
 * (or a crash mid-write) never sees part of one.
 */
export class LocalMailbox {
  readonly mailer: Mailer = { send: (mail) => this.write('email', mail.to, mail.subject, mail) };
  readonly whatsapp: WhatsAppSender = { send: (message) => this.write('whatsapp', message.to, whatsAppSummary(message), message) };
  readonly sms: SmsSender = { send: (message) => this.write('sms', message.to, shorten(message.text), message) };

  constructor(
    private readonly root: string,
    private readonly clock: Clock,
  ) {}

  list(options: ListOptions = {}): Promise<MailboxEntry[]> {
    return listMailbox(this.root, options);
  }

  private async write(channel: Channel, to: string, summary: string, message: MailboxFile['message']): Promise<SendResult> {
    const now = this.clock.now();
    const name = fileName(now);
    const folder = path.join(this.root, channel);
    const target = path.join(folder, name);
    const temporary = path.join(folder, `.${name}.part`);
    const file: MailboxFile = { channel, createdAt: now.toISOString(), to, summary, message };
    await fsp.mkdir(folder, { recursive: true });
    try {
      const handle = await fsp.open(temporary, 'wx');
      try {
        await handle.writeFile(`${JSON.stringify(file, null, 2)}\n`);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await fsp.rename(temporary, target);
    } catch (error) {
      await fsp.rm(temporary, { force: true });
      throw error;
    }
    return { id: `${channel}/${name}`, response: 'kept in the local mailbox' };
  }
}

/** The mailbox's messages, newest first, optionally of one channel. */
export async function listMailbox(root: string, options: ListOptions = {}): Promise<MailboxEntry[]> {
  const channels = options.channel ? [options.channel] : CHANNELS;
  const found = await Promise.all(channels.map(async (channel) => (await finishedFiles(path.join(root, channel))).map((name) => ({ channel, name }))));
  const newestFirst = found.flat().sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
  const chosen = newestFirst.slice(0, options.limit ?? 20);
  return Promise.all(chosen.map(({ channel, name }) => readEntry(channel, path.join(root, channel, name))));
}

async function finishedFiles(folder: string): Promise<string[]> {
  try {
    return (await fsp.readdir(folder)).filter((name) => FILE_NAME.test(name));
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return [];
    throw error;
  }
}

async function readEntry(channel: Channel, file: string): Promise<MailboxEntry> {
  const parsed: unknown = JSON.parse(await fsp.readFile(file, 'utf8'));
  if (!isListable(parsed)) throw new Error(`Not a mailbox message: ${file}`);
  return { channel, to: parsed.to, summary: parsed.summary, time: parsed.createdAt, file };
}

function isListable(value: unknown): value is Pick<MailboxFile, 'to' | 'summary' | 'createdAt'> {
  return (
    typeof value === 'object' &&
    value !== null &&
    'to' in value &&
    typeof value.to === 'string' &&
    'summary' in value &&
    typeof value.summary === 'string' &&
    'createdAt' in value &&
    typeof value.createdAt === 'string'
  );
}
