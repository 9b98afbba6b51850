import net from 'node:net';
import { ZErrorReply } from '@coldtrace/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers';

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * One keep-alive TCP connection to the listening server, read raw: replies are
 * taken one at a time (by Content-Length, or up to the close when there is none).
 */
class RawConnection {
  private buffer = Buffer.alloc(0);
  private wake: () => void = () => undefined;
  private ended = false;
  readonly closed: Promise<void>;
  /** The CSRF token the connection's first reply set. */
  csrf = '';

  constructor(readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.wake();
    });
    // The server may reset the connection once it has answered; what arrived is kept.
    socket.on('error', () => undefined);
    this.closed = new Promise((resolve) =>
      socket.once('close', () => {
        this.ended = true;
        this.wake();
        resolve();
      }),
    );
  }

  static async open(port: number): Promise<RawConnection> {
    const socket = net.connect(port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    return new RawConnection(socket);
  }

  send(data: string): void {
    this.socket.write(data);
  }

  /** The next whole reply on the connection; fails when none comes within 5 s. */
  async response(): Promise<RawResponse> {
    const deadline = Date.now() + 5_000;
    for (;;) {
      const parsed = this.take();
      if (parsed) return parsed;
      if (this.ended) throw new Error(`connection closed, unanswered: ${this.buffer.toString()}`);
      if (Date.now() > deadline) throw new Error('no reply within 5 s');
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        setTimeout(resolve, 100);
      });
    }
  }

  private take(): RawResponse | undefined {
    const end = this.buffer.indexOf('\r\n\r\n');
    if (end < 0) return undefined;
    const [statusLine, ...lines] = this.buffer.subarray(0, end).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = headers['content-length'];
    const bodyStart = end + 4;
    if (length === undefined && !this.ended) return undefined;
    const bodyEnd = length === undefined ? this.buffer.length : bodyStart + Number(length);
    if (this.buffer.length < bodyEnd) return undefined;
    const body = this.buffer.subarray(bodyStart, bodyEnd).toString();
    this.buffer = this.buffer.subarray(bodyEnd);
    return { status: Number(statusLine!.split(' ')[1]), headers, body };
  }

  close(): void {
    this.socket.destroy();
  }
}

const GOOD_REQUEST =
  'GET /api/auth/csrf/ HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n';

/**
 * Replies Node's HTTP parser makes before routing (a request it cannot read)
 * tell a keep-alive client, with `Connection: close`, that the connection ends;
 * then it does. Through a real socket: `inject` has no connection.
 */
describe('early rejections close the connection and say so [FEAT-INPUT-SAFETY]', () => {
  let t: TestApp;
  let port: number;
  const open: RawConnection[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    port = typeof address === 'object' && address ? address.port : 0;
  });
  afterAll(async () => {
    for (const connection of open) connection.close();
    await t.close();
  });

  /** A keep-alive connection that has already carried one request (it fetched the CSRF cookie). */
  async function usedConnection(): Promise<RawConnection> {
    const connection = await RawConnection.open(port);
    open.push(connection);
    connection.send(GOOD_REQUEST);
    const first = await connection.response();
    expect(first.status).toBe(200);
    expect(first.headers.connection).toBe('keep-alive');
    connection.csrf = /csrftoken=([^;]+)/.exec(first.headers['set-cookie'] ?? '')?.[1] ?? '';
    return connection;
  }

  async function expectClosingReply(connection: RawConnection, status: number, code: string) {
    const reply = await connection.response();
    expect(reply.status, reply.body).toBe(status);
    expect(reply.headers.connection).toBe('close');
    expect(ZErrorReply.parse(JSON.parse(reply.body)).code).toBe(code);
    await connection.closed;
  }

  it('headers too large: 431 with Connection: close, then the connection closes', async () => {
    const connection = await usedConnection();
    connection.send(
      `GET /api/auth/csrf/ HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`,
    );
    await expectClosingReply(connection, 431, 'BAD_REQUEST');
  });

  it.each([
    ['a malformed request line', 'HELLO /api/auth/csrf/ HTTP/1.1\r\nHost: localhost\r\n\r\n'],
    ['a malformed header', 'GET /api/auth/csrf/ HTTP/1.1\r\nHost: localhost\r\nBad Header\r\n\r\n'],
    [
      'an unreadable Content-Length',
      'POST /api/auth/login/ HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1x\r\n\r\n',
    ],
  ])('%s: 400 with Connection: close, then the connection closes', async (_what, request) => {
    const connection = await usedConnection();
    connection.send(request);
    await expectClosingReply(connection, 400, 'BAD_REQUEST');
  });

  it('a body over the limit: 413 with Connection: close, then the connection closes', async () => {
    const connection = await usedConnection();
    connection.send(
      'POST /api/auth/login/ HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
        `Cookie: csrftoken=${connection.csrf}\r\nX-CSRFToken: ${connection.csrf}\r\n` +
        `Content-Length: ${t.config.bodyLimitBytes + 1}\r\n\r\n{"email_or_username":"`,
    );
    await expectClosingReply(connection, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('headers not received in time (Node: ERR_HTTP_REQUEST_TIMEOUT): 408, then closed', async () => {
    // Node checks the headers timeout every 30 s at the earliest: its error is raised directly.
    const serverSide = new Promise<net.Socket>((resolve) =>
      t.app.server.once('connection', resolve),
    );
    const connection = await RawConnection.open(port);
    open.push(connection);
    connection.send('GET /api/auth/csrf/ HTTP/1.1\r\nHost: local');
    const timeout = Object.assign(new Error('Request timeout'), {
      code: 'ERR_HTTP_REQUEST_TIMEOUT',
    });
    t.app.server.emit('clientError', timeout, await serverSide);
    await expectClosingReply(connection, 408, 'BAD_REQUEST');
  });

  it('a well-formed request keeps its connection open for the next one', async () => {
    const connection = await usedConnection();
    connection.send(GOOD_REQUEST);
    expect((await connection.response()).status).toBe(200);
  });
});
