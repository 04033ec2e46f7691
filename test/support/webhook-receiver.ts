import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedWebhook {
  id: string;
  timestamp: string;
  body: { type: string; timestamp: string; data: Record<string, unknown> };
  /** The same body as a plain record, for flat bodies (the real service's shapes). */
  json: Record<string, unknown>;
  /** Every header of the request, as Node's HTTP server lower-cases them. */
  headers: http.IncomingHttpHeaders;
  verified: boolean;
}

/**
 * A real HTTP receiver on loopback that checks every request with the `standardwebhooks` verifier,
 * as an integrator's endpoint would. `respond` decides each answer, so it can fail on purpose.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  secret = '';
  respond: (hook: ReceivedWebhook, index: number) => { status: number; delayMs?: number } = () => ({ status: 200 });
  private server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const headers = {
        'webhook-id': String(request.headers['webhook-id'] ?? ''),
        'webhook-timestamp': String(request.headers['webhook-timestamp'] ?? ''),
        'webhook-signature': String(request.headers['webhook-signature'] ?? ''),
      };
      const verified = this.verify(raw, headers);
      const hook: ReceivedWebhook = {
        id: headers['webhook-id'],
        timestamp: headers['webhook-timestamp'],
        body: JSON.parse(raw),
        json: JSON.parse(raw),
        headers: request.headers,
        verified,
      };
      this.received.push(hook);
      const answer = verified ? this.respond(hook, this.received.length - 1) : { status: 401 };
      setTimeout(() => {
        response.writeHead(answer.status, { 'content-type': 'text/plain' });
        response.end(answer.status < 300 ? 'thanks' : `failing on purpose with ${answer.status}`);
      }, answer.delayMs ?? 0);
    });
  });

  /**
   * With `now`, the service runs on a test clock that may be hours ahead: the signature is checked
   * with the library against that clock (same 5-minute tolerance) instead of the machine's.
   */
  now: (() => Date) | undefined;

  private verify(raw: string, headers: Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string>): boolean {
    const webhook = new Webhook(this.secret);
    if (!this.now) {
      try {
        webhook.verify(raw, headers);
        return true;
      } catch {
        return false;
      }
    }
    const seconds = Number(headers['webhook-timestamp']);
    if (!Number.isInteger(seconds) || Math.abs(this.now().getTime() / 1000 - seconds) > 5 * 60) return false;
    const expected = webhook.sign(headers['webhook-id'], new Date(seconds * 1000), raw);
    return headers['webhook-signature'].split(' ').includes(expected);
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}/hooks`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
