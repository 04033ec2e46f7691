import { text } from 'node:stream/consumers';
import { SMTPServer } from 'smtp-server';
import { portOf } from './ports.js';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The DATA exactly as it arrived: headers, blank line, MIME body. */
  raw: string;
}

export interface SmtpRefusal {
  code: number;
  message: string;
}

export interface LocalSmtpOptions {
  /** Refuse every RCPT TO with this reply. */
  refuseRecipient?: SmtpRefusal;
  /** Refuse the DATA with this reply; `message` may quote the message received. */
  refuseData?: (raw: string) => SmtpRefusal;
  /** The text of the 250 reply to an accepted DATA; it may quote the message received. */
  acceptReply?: (raw: string) => string;
  /** Require AUTH PLAIN/LOGIN with these credentials. */
  credentials?: { user: string; pass: string };
}

export interface LocalSmtp {
  url: string;
  port: number;
  received: ReceivedMail[];
  close(): Promise<void>;
}

function refusal({ code, message }: SmtpRefusal): Error {
  return Object.assign(new Error(message), { responseCode: code });
}

/** A real SMTP server on 127.0.0.1 and a free port: plain text, no STARTTLS, AUTH only when asked. */
export async function startLocalSmtp(options: LocalSmtpOptions = {}): Promise<LocalSmtp> {
  const received: ReceivedMail[] = [];
  const { credentials } = options;
  const server = new SMTPServer({
    logger: false,
    secure: false,
    disabledCommands: credentials ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    authOptional: !credentials,
    allowInsecureAuth: true,
    closeTimeout: 100,
    onAuth(auth, _session, callback) {
      if (credentials && auth.username === credentials.user && auth.password === credentials.pass) callback(null, { user: auth.username });
      else callback(refusal({ code: 535, message: 'Authentication failed' }));
    },
    onRcptTo(_address, _session, callback) {
      callback(options.refuseRecipient ? refusal(options.refuseRecipient) : null);
    },
    onData(stream, session, callback) {
      text(stream).then((raw) => {
        if (options.refuseData) return callback(refusal(options.refuseData(raw)));
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        received.push({ from, to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback(null, options.acceptReply ? options.acceptReply(raw) : 'Ok: queued as LOCAL1');
      }, callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = portOf(server.server.address());
  return {
    url: credentials ? `smtp://${encodeURIComponent(credentials.user)}:${encodeURIComponent(credentials.pass)}@127.0.0.1:${port}` : `smtp://127.0.0.1:${port}`,
    port,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The header block of a raw message, unfolded, as name (lower case) → value. */
export function headersOf(raw: string): Map<string, string> {
  const block = raw.slice(0, raw.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ');
  const headers = new Map<string, string>();
  for (const line of block.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

export interface MimePart {
  contentType: string;
  body: string;
}

/** The parts of a multipart message, one level deep, their bodies decoded from quoted-printable. */
export function partsOf(raw: string): MimePart[] {
  const boundary = /boundary="?([^";\r\n]+)"?/.exec(headersOf(raw).get('content-type') ?? '')?.[1];
  if (!boundary) return [];
  return raw
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((chunk) => {
      const part = chunk.replace(/^\r\n/, '');
      const headers = headersOf(part);
      const body = part.slice(part.indexOf('\r\n\r\n') + 4).replace(/\r\n$/, '');
      const quoted = headers.get('content-transfer-encoding') === 'quoted-printable';
      return { contentType: headers.get('content-type') ?? '', body: quoted ? decodeQuotedPrintable(body) : body };
    });
}

function decodeQuotedPrintable(body: string): string {
  const bytes = body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}
