import { type ListOptions, listMailbox, type MailboxEntry, mailboxDir } from '../../src/messages/local-mailbox.js';
import type { TestService } from './service.js';

/**
 * The newest message of the local mailbox that `matches`, waited for: a served service's own
 * outbox worker may have claimed the message a moment before the test's round, so it can still be
 * on its way.
 */
export async function waitForMail(svc: TestService, options: ListOptions, matches: (entry: MailboxEntry) => boolean): Promise<MailboxEntry> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const found = (await listMailbox(mailboxDir(svc.config.dataDir), options)).find(matches);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('no such message reached the local mailbox in 10 s');
}
