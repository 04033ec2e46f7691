import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailHandler } from '../../src/messages/handlers.js';
import { renderMessage } from '../../src/messages/message-templates.js';
import { SmtpMailer } from '../../src/messages/smtp-mailer.js';
import type { EmailPayload } from '../../src/outbox/types.js';
import { outboxMessage } from '../support/outbox-message.js';
import { closedPort, portOf } from '../support/ports.js';
import { headersOf, type LocalSmtp, partsOf, startLocalSmtp } from '../support/smtp.js';

/* Against real SMTP servers (smtp-server) on 127.0.0.1: one that accepts, and ones that refuse. */

const FROM = 'Firma <no-reply@firma.test>';

const closers: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

async function server(options: Parameters<typeof startLocalSmtp>[0] = {}): Promise<LocalSmtp> {
  const smtp = await startLocalSmtp(options);
  closers.push(() => smtp.close());
  return smtp;
}

/** A TCP server that accepts connections and never says a word. */
async function silentServerUrl(): Promise<string> {
  const sockets = new Set<net.Socket>();
  const silent = net.createServer((socket) => sockets.add(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', () => resolve()));
  closers.push(() => {
    for (const socket of sockets) socket.destroy();
    return new Promise<void>((resolve) => silent.close(() => resolve()));
  });
  return `smtp://127.0.0.1:${portOf(silent.address())}`;
}

function mailerFor(url: string, timeouts: { timeoutMs?: number; connectTimeoutMs?: number } = {}): SmtpMailer {
  const mailer = new SmtpMailer({ url, from: FROM, ...timeouts });
  closers.push(() => mailer.close());
  return mailer;
}

const invitation: EmailPayload = {
  to: 'ana@example.test',
  template: 'signing-invitation',
  ...renderMessage(
    'signing-invitation',
    {
      subject: 'Please sign',
      signerName: 'Ana',
      processName: 'Purchase agreement',
      message: 'Please sign before Friday.',
      link: 'https://firma.test/sign/Xr3kT9',
    },
    'es',
  ),
};

describe('An e-mail goes out through the SMTP server of SMTP_URL, from MAIL_FROM', () => {
  let smtp: LocalSmtp;
  let mailer: SmtpMailer;

  beforeAll(async () => {
    smtp = await server();
    mailer = mailerFor(smtp.url);
  });

  it('arrives from MAIL_FROM, to the recipient, with its subject', async () => {
    const outcome = await emailHandler(mailer).deliver(outboxMessage('email', invitation));
    expect(outcome.ok).toBe(true);
    const mail = smtp.received.at(-1);
    expect(mail?.from).toBe('no-reply@firma.test');
    expect(mail?.to).toEqual(['ana@example.test']);
    const headers = headersOf(mail?.raw ?? '');
    expect(headers.get('from')).toBe(FROM);
    expect(headers.get('to')).toBe('ana@example.test');
    expect(headers.get('subject')).toBe('Please sign');
  });

  it('with html, is multipart/alternative: the plain text and the HTML both arrive', async () => {
    await mailer.send(invitation);
    const raw = smtp.received.at(-1)?.raw ?? '';
    expect(headersOf(raw).get('content-type')).toMatch(/^multipart\/alternative;/);
    const parts = partsOf(raw);
    expect(parts.map((p) => p.contentType.split(';')[0])).toEqual(['text/plain', 'text/html']);
    expect(parts[0]?.body).toBe(invitation.text.replace(/\n/g, '\r\n'));
    expect(parts[1]?.body).toContain('<a href="https://firma.test/sign/Xr3kT9">Leer y firmar</a>');
  });

  it('without html, is plain text alone', async () => {
    await mailer.send({ to: 'ana@example.test', subject: 'Plain', text: 'Only text.' });
    const raw = smtp.received.at(-1)?.raw ?? '';
    expect(headersOf(raw).get('content-type')).toMatch(/^text\/plain/);
    expect(raw).toContain('\r\n\r\nOnly text.');
  });

  it('answers with the message id and the server reply, timed', async () => {
    const outcome = await emailHandler(mailer).deliver(outboxMessage('email', invitation));
    expect(outcome).toMatchObject({ ok: true, statusCode: 250 });
    expect(outcome.response).toMatch(/^<[^>]+@[^>]+> 250 Ok: queued as LOCAL1$/);
    expect(outcome.durationMs).toBeGreaterThan(0);
  });

  it('logs in with the user and password of SMTP_URL', async () => {
    const guarded = await server({ credentials: { user: 'mailer@firma.test', pass: 'p@ss:word' } });
    const outcome = await emailHandler(mailerFor(guarded.url)).deliver(outboxMessage('email', invitation));
    expect(outcome.ok).toBe(true);
    expect(guarded.received).toHaveLength(1);

    const wrong = mailerFor(guarded.url.replace('p%40ss', 'wrong'));
    expect(await emailHandler(wrong).deliver(outboxMessage('email', invitation))).toMatchObject({ ok: false, statusCode: 535 });
  });
});

describe('An SMTP refusal is retried only when the server says later may work', () => {
  it('550 to the recipient (unknown mailbox) is permanent: not retryable, with the reply', async () => {
    const smtp = await server({ refuseRecipient: { code: 550, message: '5.1.1 Unknown mailbox' } });
    const outcome = await emailHandler(mailerFor(smtp.url)).deliver(outboxMessage('email', invitation));
    expect(outcome).toMatchObject({ ok: false, retryable: false, statusCode: 550 });
    expect(outcome.error).toContain('550 5.1.1 Unknown mailbox');
  });

  it('451 to the recipient (try again later) is retryable', async () => {
    const smtp = await server({ refuseRecipient: { code: 451, message: '4.7.1 Greylisted, try again later' } });
    const outcome = await emailHandler(mailerFor(smtp.url)).deliver(outboxMessage('email', invitation));
    expect(outcome).toMatchObject({ ok: false, retryable: true, statusCode: 451 });
    expect(outcome.error).toContain('Greylisted');
  });

  it('an e-mail without a recipient is refused before any server is asked: not retryable', async () => {
    const smtp = await server();
    const outcome = await emailHandler(mailerFor(smtp.url)).deliver(outboxMessage('email', { ...invitation, to: '' }));
    expect(outcome).toMatchObject({ ok: false, retryable: false, error: 'No recipients defined' });
    expect(smtp.received).toHaveLength(0);
  });

  it('a server that is down is retryable', async () => {
    const mailer = mailerFor(`smtp://127.0.0.1:${await closedPort()}`);
    const outcome = await emailHandler(mailer).deliver(outboxMessage('email', invitation));
    expect(outcome).toMatchObject({ ok: false, retryable: true });
    expect(outcome.statusCode).toBeUndefined();
    expect(outcome.error).toMatch(/ECONNREFUSED/);
  });

  it('a server that never greets is retryable once the connection timeout passes', async () => {
    const mailer = mailerFor(await silentServerUrl(), { connectTimeoutMs: 200 });
    const outcome = await emailHandler(mailer).deliver(outboxMessage('email', invitation));
    expect(outcome).toMatchObject({ ok: false, retryable: true, error: 'Greeting never received' });
    expect(outcome.durationMs).toBeLessThan(5_000);
  });

  it('a send that outlasts its own timeout is abandoned, and retryable', async () => {
    const mailer = mailerFor(await silentServerUrl(), { timeoutMs: 300 });
    const outcome = await emailHandler(mailer).deliver(outboxMessage('email', invitation));
    expect(outcome).toMatchObject({ ok: false, retryable: true, error: 'not sent within 300 ms' });
    expect(outcome.durationMs).toBeLessThan(5_000);
  });
});
