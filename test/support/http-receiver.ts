import http from 'node:http';
import { text } from 'node:stream/consumers';
import { portOf } from './ports.js';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export type Reply = { status: number; json?: unknown; text?: string } | 'no answer';

export interface HttpReceiver {
  url: string;
  received: ReceivedRequest[];
  /** How the next requests are answered; 'no answer' keeps the request open until close(). */
  answer(reply: (request: ReceivedRequest) => Reply): void;
  close(): Promise<void>;
}

/** A local HTTP server on 127.0.0.1 and a free port standing in for a provider's API. */
export async function startHttpReceiver(): Promise<HttpReceiver> {
  const received: ReceivedRequest[] = [];
  let reply: (request: ReceivedRequest) => Reply = () => ({ status: 200, json: {} });
  const server = http.createServer((req, res) => {
    text(req).then(
      (body) => {
        const request = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
        received.push(request);
        const chosen = reply(request);
        if (chosen === 'no answer') return;
        if (chosen.json !== undefined) {
          res.writeHead(chosen.status, { 'content-type': 'application/json' }).end(JSON.stringify(chosen.json));
        } else {
          res.writeHead(chosen.status, { 'content-type': 'text/plain' }).end(chosen.text ?? '');
        }
      },
      () => res.destroy(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = portOf(server.address());
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    answer(next) {
      reply = next;
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}
