import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CodeMessage } from '../error-catalogue.js';
import { REQUEST_ID_HEADER } from './request-id.js';

/**
 * Requests that never became HTTP requests (headers too large, malformed framing, too slow) are
 * answered on the socket itself, in the same `{message}` shape as every other error, and the
 * connection is closed saying so.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, message]: [number, CodeMessage] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'HEADERS_TOO_LARGE: the request headers are too large']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'REQUEST_TIMEOUT: the request took too long to arrive']
        : [400, 'BAD_REQUEST: the request is not valid HTTP'];
  const body = JSON.stringify({ message });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

/** Fastify's own errors before routing (a URL it cannot decode), in the same shape. */
export function answerFrameworkError(_error: Error, request: FastifyRequest, reply: FastifyReply): void {
  void reply.code(400).header(REQUEST_ID_HEADER, request.id).send({ message: 'BAD_REQUEST: the URL is not valid' });
}
