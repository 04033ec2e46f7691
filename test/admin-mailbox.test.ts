import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.js';
import { LocalMailbox, mailboxDir } from '../src/messages/local-mailbox.js';
import { runAdmin } from './support/admin-command.js';

describe('admin mailbox list shows the local mailbox, newest first', () => {
  let dataDir: string;

  const admin = (...args: string[]) => runAdmin(dataDir, ...args);

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-mailbox-'));
    const clock = new ManualClock(new Date('2026-03-01T10:00:00.000Z'));
    const mailbox = new LocalMailbox(mailboxDir(dataDir), clock);
    await mailbox.mailer.send({ to: 'ana@example.test', subject: 'Welcome', text: 'Hello' });
    clock.advance(1000);
    await mailbox.sms.send({ to: '+573001234567', text: 'Your code is 123456' });
    clock.advance(1000);
    await mailbox.whatsapp.send({ to: '573001234567', text: 'Hi' });
  });

  afterAll(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('every channel, newest first, with channel, to, subject or text, time and file', async () => {
    const { code, stdout } = await admin('mailbox', 'list');
    expect(code).toBe(0);
    const entries: unknown = JSON.parse(stdout);
    expect(entries).toMatchObject([
      { channel: 'whatsapp', to: '573001234567', summary: 'Hi', time: '2026-03-01T10:00:02.000Z' },
      { channel: 'sms', to: '+573001234567', summary: 'Your code is 123456', time: '2026-03-01T10:00:01.000Z' },
      { channel: 'email', to: 'ana@example.test', summary: 'Welcome', time: '2026-03-01T10:00:00.000Z' },
    ]);
  });

  it('--channel and --limit', async () => {
    expect(JSON.parse((await admin('mailbox', 'list', '--channel', 'email')).stdout)).toHaveLength(1);
    expect(JSON.parse((await admin('mailbox', 'list', '--limit', '2')).stdout)).toHaveLength(2);
  });

  it('refuses an unknown channel or a bad limit with exit code 2', async () => {
    const channel = await admin('mailbox', 'list', '--channel', 'fax');
    expect(channel.code).toBe(2);
    expect(channel.stderr).toContain('--channel must be email, whatsapp or sms');
    expect((await admin('mailbox', 'list', '--limit', '0')).code).toBe(2);
  });
});
