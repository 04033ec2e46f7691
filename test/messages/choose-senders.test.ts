import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { chooseSenders, type SenderOptions } from '../../src/messages/choose-senders.js';
import { listMailbox, mailboxDir } from '../../src/messages/local-mailbox.js';
import { type HttpReceiver, startHttpReceiver } from '../support/http-receiver.js';
import { type LocalSmtp, startLocalSmtp } from '../support/smtp.js';

let dataDir: string;
let smtp: LocalSmtp;
let api: HttpReceiver;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'senders-test-'));
  smtp = await startLocalSmtp();
  api = await startHttpReceiver();
  api.answer((request) => ({ status: request.path.includes('/Messages.json') ? 201 : 200, json: { sid: 'SM1', messages: [{ id: 'wamid.1' }] } }));
});

afterAll(async () => {
  await smtp.close();
  await api.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const base = (): SenderOptions => ({ dataDir, clock: new ManualClock() });

describe('Without providers configured, every channel writes to the local mailbox', () => {
  it('e-mail, WhatsApp and SMS land in DATA_DIR/mailbox', async () => {
    const senders = chooseSenders(base());
    expect(senders.local).toEqual(['email', 'whatsapp', 'sms']);
    await senders.mailer.send({ to: 'ana@example.test', subject: 'Hi', text: 'Hello' });
    await senders.whatsapp.send({ to: '573001234567', text: 'Hello' });
    await senders.sms.send({ to: '+573001234567', text: 'Hello' });
    expect((await listMailbox(mailboxDir(dataDir))).map((e) => e.channel).sort()).toEqual(['email', 'sms', 'whatsapp']);
    await senders.close();
  });
});

describe('A configured provider is used for its channel', () => {
  it('SMTP, the WhatsApp Cloud API and the SMS provider, and nothing in the mailbox', async () => {
    fs.rmSync(mailboxDir(dataDir), { recursive: true, force: true });
    const senders = chooseSenders({
      ...base(),
      smtp: { url: smtp.url, from: 'no-reply@firma.test' },
      whatsapp: { token: 't', phoneNumberId: '42', baseUrl: api.url },
      sms: { baseUrl: api.url, accountSid: 'AC1', authToken: 't', from: '+1' },
    });
    expect(senders.local).toEqual([]);
    expect(await senders.mailer.send({ to: 'ana@example.test', subject: 'Hi', text: 'Hello' })).toMatchObject({ statusCode: 250 });
    expect(await senders.whatsapp.send({ to: '573001234567', text: 'Hello' })).toEqual({ id: 'wamid.1', statusCode: 200 });
    expect(await senders.sms.send({ to: '+573001234567', text: 'Hello' })).toEqual({ id: 'SM1', statusCode: 201 });
    expect(smtp.received).toHaveLength(1);
    expect(api.received.map((r) => r.path)).toEqual(['/42/messages', '/2010-04-01/Accounts/AC1/Messages.json']);
    expect(await listMailbox(mailboxDir(dataDir))).toEqual([]);
    await senders.close();
  });
});
