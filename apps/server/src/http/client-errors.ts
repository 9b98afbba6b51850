import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { TErrorReply } from '@coldtrace/contract';
import type { FastifyInstance } from 'fastify';

/**
 * A request Node's HTTP parser refused before there was a request to route
 * (Node's `clientError` event, Fastify's `clientErrorHandler`): headers too large
 * (431), a body's chunk extensions too large (413), the headers not received in
 * time (408), anything else unreadable (400: a malformed request line, header or
 * length). The connection cannot go on, so the reply says `Connection: close`
 * before the socket closes: a keep-alive client then knows not to send its next
 * request on it (Fastify's own handler leaves the header out, so the client's
 * next request met a closed socket: ECONNRESET).
 */
interface EarlyAnswer {
  status: number;
  body: TErrorReply;
}

function answerFor(code: string | undefined): EarlyAnswer {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        body: { code: 'BAD_REQUEST', message: 'The request headers are too large' },
      };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return {
        status: 413,
        body: { code: 'PAYLOAD_TOO_LARGE', message: 'The chunk extensions are too large' },
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return {
        status: 408,
        body: { code: 'BAD_REQUEST', message: 'The request did not arrive in time' },
      };
    default:
      return { status: 400, body: { code: 'BAD_REQUEST', message: 'The request is malformed' } };
  }
}

/** The raw HTTP/1.1 reply (there is no response object at this stage). */
export function earlyReply(code: string | undefined): string {
  const { status, body } = answerFor(code);
  const json = JSON.stringify(body);
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    'Connection: close',
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(json)}`,
    'Cache-Control: no-store',
    'X-Content-Type-Options: nosniff',
    '',
    json,
  ].join('\r\n');
}

/**
 * Fastify's `clientErrorHandler` (bound to the instance). As Node's own
 * handler: nothing is written when the peer is gone or a reply on this
 * connection has already begun (writing would corrupt it); the socket is
 * destroyed either way.
 */
export function closeOnClientError(
  this: FastifyInstance,
  err: Error & { code?: string },
  socket: Socket,
): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  this.log.debug({ err: { code: err.code, message: err.message } }, 'unreadable request refused');
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) socket.write(earlyReply(err.code));
  socket.destroy(err);
}
