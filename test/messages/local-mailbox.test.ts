import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { emailHandler, smsHandler, whatsAppHandler } from '../../src/messages/handlers.js';
import { LocalMailbox, listMailbox, mailboxDir } from '../../src/messages/local-mailbox.js';
import type { EmailPayload } from '../../src/outbox/types.js';
import { outboxMessage } from '../support/outbox-message.js';

const folders: string[] = [];

afterEach(() => {
  vi.restoreAllMocks();
});

afterAll(() => {
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

function newMailbox(): { mailbox: LocalMailbox; root: string; clock: ManualClock } {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailbox-test-'));
  folders.push(dataDir);
  const clock = new ManualClock(new Date('2026-03-01T10:00:00.000Z'));
  const root = mailboxDir(dataDir);
  return { mailbox: new LocalMailbox(root, clock), root, clock };
}

const welcome: EmailPayload = { to: 'ana@example.test', subject: 'Welcome', text: 'Hello Ana', html: '<p>Hello Ana</p>', template: 'welcome' };

describe('The local mailbox keeps each message as one JSON file under DATA_DIR/mailbox/<channel>/', () => {
  it('an e-mail is a file under mailbox/email holding the whole message', async () => {
    const { mailbox, root } = newMailbox();
    const outcome = await emailHandler(mailbox.mailer).deliver(outboxMessage('email', welcome));
    expect(outcome.ok).toBe(true);
    const files = fs.readdirSync(path.join(root, 'email'));
    expect(files).toHaveLength(1);
    expect(outcome.response).toBe(`email/${files[0]} kept in the local mailbox`);
    const stored: unknown = JSON.parse(fs.readFileSync(path.join(root, 'email', files[0] ?? ''), 'utf8'));
    expect(stored).toEqual({ channel: 'email', createdAt: '2026-03-01T10:00:00.000Z', to: 'ana@example.test', summary: 'Welcome', message: welcome });
  });

  it('WhatsApp and SMS messages go to mailbox/whatsapp and mailbox/sms', async () => {
    const { mailbox, root } = newMailbox();
    await whatsAppHandler(mailbox.whatsapp).deliver(outboxMessage('whatsapp', { to: '+573001234567', text: 'Hi' }));
    await smsHandler(mailbox.sms).deliver(outboxMessage('sms', { to: '+573001234567', text: 'Hi' }));
    expect(fs.readdirSync(root).sort()).toEqual(['sms', 'whatsapp']);
    expect(fs.readdirSync(path.join(root, 'whatsapp'))).toHaveLength(1);
    expect(fs.readdirSync(path.join(root, 'sms'))).toHaveLength(1);
  });

  it('file names sort by time', async () => {
    const { mailbox, root, clock } = newMailbox();
    const written: (string | undefined)[] = [];
    for (let i = 0; i < 3; i++) {
      written.push((await mailbox.sms.send({ to: '+1', text: `message ${i}` })).id);
      clock.advance(1_000);
    }
    expect(
      fs
        .readdirSync(path.join(root, 'sms'))
        .sort()
        .map((name) => `sms/${name}`),
    ).toEqual(written);
    expect(written[0]).toMatch(/^sms\/20260301T100000000Z-\d{6}-[0-9a-f]{8}\.json$/);
    expect(written[2]).toMatch(/^sms\/20260301T100002000Z-/);
  });
});

describe('The listing shows the newest first, with channel, to, subject or text, time and file', () => {
  it('newest first across channels: subject for e-mail, the start of the text otherwise', async () => {
    const { mailbox, root, clock } = newMailbox();
    await mailbox.mailer.send(welcome);
    clock.advance(1_000);
    await mailbox.whatsapp.send({ to: '573001234567', template: { name: 'otp', language: 'es', parameters: ['Ana'] } });
    clock.advance(1_000);
    await mailbox.sms.send({ to: '+573001234567', text: `Your   verification\ncode. ${'x'.repeat(100)}` });

    const entries = await mailbox.list();
    expect(entries.map((e) => [e.channel, e.to, e.time])).toEqual([
      ['sms', '+573001234567', '2026-03-01T10:00:02.000Z'],
      ['whatsapp', '573001234567', '2026-03-01T10:00:01.000Z'],
      ['email', 'ana@example.test', '2026-03-01T10:00:00.000Z'],
    ]);
    expect(entries[2]?.summary).toBe('Welcome');
    expect(entries[1]?.summary).toBe('[otp] Ana');
    expect(entries[0]?.summary).toMatch(/^Your verification code\. x+…$/);
    expect(entries[0]?.summary).toHaveLength(80);
    for (const entry of entries) {
      expect(path.dirname(entry.file)).toBe(path.join(root, entry.channel));
      expect(fs.existsSync(entry.file)).toBe(true);
    }
  });

  it('--channel shows one channel only', async () => {
    const { mailbox } = newMailbox();
    await mailbox.mailer.send(welcome);
    await mailbox.sms.send({ to: '+1', text: 'one' });
    expect((await mailbox.list({ channel: 'email' })).map((e) => e.channel)).toEqual(['email']);
    expect((await mailbox.list({ channel: 'whatsapp' })).map((e) => e.channel)).toEqual([]);
  });

  it('--limit keeps the newest N', async () => {
    const { mailbox, root, clock } = newMailbox();
    for (let i = 0; i < 5; i++) {
      await mailbox.sms.send({ to: '+1', text: `message ${i}` });
      clock.advance(10);
    }
    expect((await listMailbox(root, { limit: 2 })).map((e) => e.summary)).toEqual(['message 4', 'message 3']);
  });

  it('messages of the same millisecond list in reverse order of writing', async () => {
    const { mailbox } = newMailbox();
    for (let i = 0; i < 3; i++) await mailbox.sms.send({ to: '+1', text: `message ${i}` });
    expect((await mailbox.list()).map((e) => e.summary)).toEqual(['message 2', 'message 1', 'message 0']);
  });

  it('an empty or missing mailbox lists nothing', async () => {
    const { mailbox } = newMailbox();
    expect(await mailbox.list()).toEqual([]);
  });
});

describe('A crash mid-write leaves no partial file visible to the listing', () => {
  it('a message being written is not listed until it is complete', async () => {
    const { mailbox, root } = newMailbox();
    const rename = fsp.rename;
    let seenMidWrite: { files: string[]; listed: number } | undefined;
    vi.spyOn(fsp, 'rename').mockImplementation(async (from, to) => {
      seenMidWrite = { files: fs.readdirSync(path.join(root, 'email')), listed: (await mailbox.list()).length };
      return rename(from, to);
    });
    await mailbox.mailer.send(welcome);
    expect(seenMidWrite?.files).toHaveLength(1);
    expect(seenMidWrite?.listed).toBe(0);
    expect(await mailbox.list()).toHaveLength(1);
  });

  it('what a crash leaves behind, whole or cut off, is never listed', async () => {
    const { mailbox, root } = newMailbox();
    await mailbox.mailer.send(welcome);
    // The process dies before the rename, and so cleans up nothing.
    vi.spyOn(fsp, 'rename').mockRejectedValue(new Error('killed'));
    vi.spyOn(fsp, 'rm').mockResolvedValue(undefined);
    await expect(mailbox.mailer.send({ ...welcome, subject: 'Second' })).rejects.toThrow('killed');
    vi.restoreAllMocks();
    const leftover = fs.readdirSync(path.join(root, 'email')).find((name) => name.endsWith('.part'));
    expect(leftover).toBeDefined();
    expect((await mailbox.list()).map((e) => e.summary)).toEqual(['Welcome']);
    // Or it dies in the middle of writing the temporary file.
    fs.writeFileSync(path.join(root, 'email', leftover ?? ''), '{"channel":"em');

    expect((await mailbox.list()).map((e) => e.summary)).toEqual(['Welcome']);
  });

  it('a failed write removes its temporary file', async () => {
    const { mailbox, root } = newMailbox();
    vi.spyOn(fsp, 'rename').mockRejectedValue(Object.assign(new Error('disk full'), { code: 'ENOSPC' }));
    await expect(mailbox.mailer.send(welcome)).rejects.toThrow('disk full');
    expect(fs.readdirSync(path.join(root, 'email'))).toEqual([]);
  });
});
