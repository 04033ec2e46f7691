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

/** What every FileHandle's datasync comes from, to watch or fail the mailbox's flushes. */
async function fileHandlePrototype(): Promise<{ datasync(): Promise<void> }> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'mailbox-probe-'));
  folders.push(folder);
  const handle = await fsp.open(path.join(folder, 'probe'), 'w');
  await handle.close();
  return Object.getPrototypeOf(handle);
}

const lines = (file: string): unknown[] =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line): unknown => JSON.parse(line));

describe('The local mailbox keeps each message as one line of JSON in DATA_DIR/mailbox/<channel>/<day>.jsonl', () => {
  it('an e-mail is a line of mailbox/email/<day>.jsonl holding the whole message', async () => {
    const { mailbox, root } = newMailbox();
    const outcome = await emailHandler(mailbox.mailer).deliver(outboxMessage('email', welcome));
    expect(outcome.ok).toBe(true);
    expect(fs.readdirSync(path.join(root, 'email'))).toEqual(['2026-03-01.jsonl']);
    const [stored] = lines(path.join(root, 'email', '2026-03-01.jsonl'));
    expect(stored).toEqual({
      id: expect.stringMatching(/^20260301T100000000Z-\d{6}-[0-9a-f]{8}$/),
      channel: 'email',
      createdAt: '2026-03-01T10:00:00.000Z',
      to: 'ana@example.test',
      summary: 'Welcome',
      message: welcome,
    });
    expect(outcome.response).toBe(`email/${(stored as { id: string }).id} kept in the local mailbox`);
  });

  it('WhatsApp and SMS messages go to mailbox/whatsapp and mailbox/sms', async () => {
    const { mailbox, root } = newMailbox();
    await whatsAppHandler(mailbox.whatsapp).deliver(outboxMessage('whatsapp', { to: '+573001234567', text: 'Hi' }));
    await smsHandler(mailbox.sms).deliver(outboxMessage('sms', { to: '+573001234567', text: 'Hi' }));
    expect(fs.readdirSync(root).sort()).toEqual(['sms', 'whatsapp']);
    expect(lines(path.join(root, 'whatsapp', '2026-03-01.jsonl'))).toHaveLength(1);
    expect(lines(path.join(root, 'sms', '2026-03-01.jsonl'))).toHaveLength(1);
  });

  it('ids sort by time, and each day of messages has its own file', async () => {
    const { mailbox, root, clock } = newMailbox();
    const written: (string | undefined)[] = [];
    for (let i = 0; i < 3; i++) {
      written.push((await mailbox.sms.send({ to: '+1', text: `message ${i}` })).id);
      clock.advance(12 * 60 * 60 * 1000);
    }
    expect([...written].sort()).toEqual(written);
    expect(written[0]).toMatch(/^sms\/20260301T100000000Z-\d{6}-[0-9a-f]{8}$/);
    expect(written[2]).toMatch(/^sms\/20260302T100000000Z-/);
    expect(fs.readdirSync(path.join(root, 'sms')).sort()).toEqual(['2026-03-01.jsonl', '2026-03-02.jsonl']);
  });

  it('messages sent together are appended in one write and flushed once, each told only after that flush', async () => {
    const { mailbox, root } = newMailbox();
    const prototype = await fileHandlePrototype();
    const flushes: number[] = [];
    const datasync = prototype.datasync;
    vi.spyOn(prototype, 'datasync').mockImplementation(async function (this: fsp.FileHandle) {
      await datasync.call(this);
      flushes.push(lines(path.join(root, 'sms', '2026-03-01.jsonl')).length);
    });
    const sent = await Promise.all(Array.from({ length: 20 }, (_, i) => mailbox.sms.send({ to: '+1', text: `message ${i}` })));
    expect(sent).toHaveLength(20);
    expect(flushes).toEqual([20]);
  });
});

describe('The listing shows the newest first, with id, channel, to, subject or text, time, file and the whole message', () => {
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
      expect(entry.file).toBe(path.join(root, entry.channel, '2026-03-01.jsonl'));
      expect(lines(entry.file)).toContainEqual(expect.objectContaining({ id: entry.id, message: entry.message }));
    }
    expect(entries[2]?.message).toEqual(welcome);
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

describe('A line cut off by a crash or a failed write is never listed, and never spoils the next', () => {
  it('a cut-off last line is not listed; the next message starts on a line of its own', async () => {
    const { mailbox, root } = newMailbox();
    await mailbox.mailer.send(welcome);
    const file = path.join(root, 'email', '2026-03-01.jsonl');
    // The process died in the middle of writing a line.
    fs.appendFileSync(file, '{"id":"20260301T100000000Z-000001-00000000","channel":"em');
    expect((await listMailbox(root)).map((e) => e.summary)).toEqual(['Welcome']);

    const restarted = new LocalMailbox(root, new ManualClock(new Date('2026-03-01T11:00:00.000Z')));
    await restarted.mailer.send({ ...welcome, subject: 'Second' });
    expect((await listMailbox(root)).map((e) => e.summary)).toEqual(['Second', 'Welcome']);
    expect(fs.readFileSync(file, 'utf8').endsWith('\n')).toBe(true);
  });

  it('a write whose flush fails fails its messages and takes back what it added', async () => {
    const { mailbox, root } = newMailbox();
    await mailbox.mailer.send(welcome);
    const file = path.join(root, 'email', '2026-03-01.jsonl');
    const before = fs.readFileSync(file, 'utf8');
    const prototype = await fileHandlePrototype();
    vi.spyOn(prototype, 'datasync').mockRejectedValueOnce(Object.assign(new Error('disk full'), { code: 'ENOSPC' }));
    const failed = await Promise.allSettled([mailbox.mailer.send({ ...welcome, subject: 'Lost 1' }), mailbox.mailer.send({ ...welcome, subject: 'Lost 2' })]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(fs.readFileSync(file, 'utf8')).toBe(before);
    // The outbox sends them again: once each, whole.
    await Promise.all([mailbox.mailer.send({ ...welcome, subject: 'Lost 1' }), mailbox.mailer.send({ ...welcome, subject: 'Lost 2' })]);
    expect((await listMailbox(root)).map((e) => e.summary)).toEqual(['Lost 2', 'Lost 1', 'Welcome']);
  });
});
