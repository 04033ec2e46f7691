import type { TransportSingleOptions } from 'pino';

/**
 * Where log lines go: one JSON object a line, for collectors, unless a person watches the
 * terminal, who gets them pretty-printed (pino-pretty in a worker thread, pino's own way). Piping
 * the output anywhere (`npm start | cat`, a container's log driver) keeps JSON.
 */
export function logTransport(stdout: { isTTY?: boolean } = process.stdout): { transport?: TransportSingleOptions } {
  if (!stdout.isTTY) return {};
  return { transport: { target: 'pino-pretty', options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } } };
}
