import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** The TCP port a listening server got. */
export function portOf(address: string | AddressInfo | null): number {
  if (address === null || typeof address === 'string') throw new Error('Not listening on a TCP port');
  return address.port;
}

/** A port on 127.0.0.1 where nothing listens: a provider that is down, or a port to start a service on. */
export async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = portOf(server.address());
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
