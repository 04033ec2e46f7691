import http from 'node:http';
import type { Socket } from 'node:net';
import { isIP } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Headers a proxy adds: a request that carries one came through a proxy, whoever connected last. */
const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-real-ip', 'via'] as const;

/** The connections the operator's own listener accepted; only a request on one of them can be the operator's. */
const operatorSockets = new WeakSet<Socket>();

function isLoopback(address: string): boolean {
  const bare = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  if (bare === '::1') return true;
  return isIP(bare) === 4 && bare.startsWith('127.');
}

/** The host a Host header names, without its port: `[::1]:3000` → `::1`. */
function hostnameOf(host: string | undefined): string {
  if (host === undefined) return '';
  if (host.startsWith('[')) return host.slice(1, host.indexOf(']'));
  return host.split(':')[0] ?? '';
}

/**
 * Whether a request comes from the service's operator at its own machine: it arrived on the
 * operator's listener (bound to 127.0.0.1 on a port of its own, `LOCAL_CHAT_PORT`) and its socket's
 * peer is a loopback address. The service's own port never grants it, even from loopback: a reverse
 * proxy on the same machine (`proxy_pass http://127.0.0.1:3000`) relays the internet from there,
 * with a loopback Host and no forwarding header. What the request says about itself never grants
 * this either (a client writes its X-Forwarded-For and Host as it likes); it can only take it away:
 * - a forwarding header means a proxy relays someone else's request;
 * - a Host that is not a loopback name means a browser was sent here by another site's name
 *   (DNS rebinding: a page of that site would read the answers as its own).
 */
export function isOperatorMachine(request: FastifyRequest): boolean {
  const socket = request.raw.socket;
  if (!operatorSockets.has(socket) || !isLoopback(socket.remoteAddress ?? '')) return false;
  if (FORWARDING_HEADERS.some((header) => request.headers[header] !== undefined)) return false;
  const host = hostnameOf(request.headers.host);
  return host === 'localhost' || isLoopback(host);
}

export interface OperatorListener {
  port: number;
  close(): Promise<void>;
}

/**
 * The operator's listener: the same routes as the service's port, on 127.0.0.1 only, where the
 * operator routes take no key. Port 0 takes a free port (the tests').
 */
export async function listenForOperator(app: FastifyInstance, port: number): Promise<OperatorListener> {
  const server = http.createServer((req, res) => app.routing(req, res));
  server.on('connection', (socket) => operatorSockets.add(socket));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host: '127.0.0.1' }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the operator listener is not on a TCP port');
  return {
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
