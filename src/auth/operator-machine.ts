import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';

/** Headers a proxy adds: a request that carries one came through a proxy, whoever connected last. */
const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-real-ip', 'via'] as const;

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
 * Whether a request comes from the service's own machine, which only its operator uses: the socket's
 * peer is a loopback address. What the request says about itself never grants this (a client
 * writes its X-Forwarded-For and Host as it likes); it can only take it away:
 * - a forwarding header means a proxy on this machine relays someone else's request;
 * - a Host that is not a loopback name means a browser was sent here by another site's name
 *   (DNS rebinding: a page of that site would read the answers as its own).
 */
export function isOperatorMachine(request: FastifyRequest): boolean {
  if (!isLoopback(request.raw.socket.remoteAddress ?? '')) return false;
  if (FORWARDING_HEADERS.some((header) => request.headers[header] !== undefined)) return false;
  const host = hostnameOf(request.headers.host);
  return host === 'localhost' || isLoopback(host);
}
