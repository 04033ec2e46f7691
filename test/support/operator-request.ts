import http from 'node:http';
import type { LightMyRequestResponse } from 'fastify';

/** What the tests read of an injected answer, so that one helper can answer either. */
export type PlainResponse = Pick<LightMyRequestResponse, 'statusCode' | 'headers' | 'body' | 'rawPayload' | 'json'>;

/**
 * A request over a real socket to a port on 127.0.0.1, with the headers it is given (Host
 * included, which fetch would not let a test write): for the operator's listener, which only a
 * real connection reaches.
 */
export function loopbackRequest(
  port: number,
  method: 'GET' | 'POST',
  url: string,
  options: { headers?: Record<string, string>; query?: Record<string, string>; body?: unknown } = {},
): Promise<PlainResponse> {
  const search = options.query ? `?${new URLSearchParams(options.query).toString()}` : '';
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: url + search,
        headers: { ...(payload === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const rawPayload = Buffer.concat(chunks);
          const body = rawPayload.toString('utf8');
          resolve({ statusCode: response.statusCode ?? 0, headers: response.headers, body, rawPayload, json: () => JSON.parse(body) });
        });
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}
