import path from 'node:path';
import type { Clock } from '../../clock.js';
import { isRecord } from '../../is-record.js';
import { GroupedAppender } from '../../messages/grouped-appender.js';
import { mailboxLineId, mailboxLinesById } from '../../messages/local-mailbox.js';

/**
 * What the operator sent as a person on the local chat page, as the page shows it again. The
 * inbox wipes a message's content once handled (it may hold a code), so the page keeps its own copy
 * in the local mailbox, the operator's own store, which holds the codes sent already.
 */
export type PageMessageContent = { kind: 'text'; text: string } | { kind: 'button'; title: string } | { kind: 'photo'; filename: string; asDocument: boolean };

/** The mailbox's folder for these: beside the channels' folders, outside `admin mailbox list`. */
const FOLDER = 'whatsapp-in';
/** The wamid of a message written on the page: its line's id after this, so its line is found by it. */
const WAMID_PREFIX = 'wamid.local.';

function isPageContent(value: unknown): value is PageMessageContent {
  if (!isRecord(value)) return false;
  if (value.kind === 'text') return typeof value.text === 'string';
  if (value.kind === 'button') return typeof value.title === 'string';
  if (value.kind === 'photo') return typeof value.filename === 'string' && typeof value.asDocument === 'boolean';
  return false;
}

/** DATA_DIR/mailbox/whatsapp-in/<day>.jsonl: one line per message written on the page. */
export class PageMessageLog {
  private readonly folder: string;
  private readonly appenders = new Map<string, GroupedAppender>();

  constructor(
    mailboxRoot: string,
    private readonly clock: Clock,
  ) {
    this.folder = path.join(mailboxRoot, FOLDER);
  }

  /** Keeps the message and answers the wamid it is to be sent with. */
  async write(options: { from: string; content: PageMessageContent }): Promise<string> {
    const now = this.clock.now();
    const id = mailboxLineId(now);
    const line = { id, channel: FOLDER, createdAt: now.toISOString(), from: options.from, content: options.content };
    const file = path.join(this.folder, `${now.toISOString().slice(0, 10)}.jsonl`);
    let appender = this.appenders.get(file);
    if (!appender) {
      appender = new GroupedAppender(file);
      this.appenders.set(file, appender);
    }
    await appender.append(`${JSON.stringify(line)}\n`);
    return `${WAMID_PREFIX}${id}`;
  }

  /** The contents of the messages written on the page among `wamids`, by wamid. */
  async contents(wamids: readonly string[]): Promise<Map<string, PageMessageContent>> {
    const ids = wamids.filter((wamid) => wamid.startsWith(WAMID_PREFIX)).map((wamid) => wamid.slice(WAMID_PREFIX.length));
    const lines = await mailboxLinesById(this.folder, ids);
    const found = new Map<string, PageMessageContent>();
    for (const [id, line] of lines) if (isPageContent(line.content)) found.set(`${WAMID_PREFIX}${id}`, line.content);
    return found;
  }
}
