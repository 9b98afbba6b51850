import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One POST a test receiver got. */
export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** When the whole request had arrived (ms since the epoch). */
  at: number;
  /** Set once a 2xx answer was written out in full: the sender got it. */
  acknowledgedAt?: number;
}

/** `answer`'s reply: a status, one with a Location header, or `stall`: the request is never answered. */
export type Answer = number | { status: number; location?: string } | 'stall';

/**
 * A webhook receiver on 127.0.0.1 (tests run with WEBHOOK_ALLOW_PRIVATE=true):
 * records every request; `answer` decides each status (default 200).
 */
export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  answer: (req: Received) => Answer;
  close(): Promise<void>;
}

export async function startReceiver(port = 0): Promise<Receiver> {
  const receiver: Receiver = {
    url: '',
    port: 0,
    received: [],
    answer: () => 200,
    close: async () => undefined,
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const got: Received = {
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      receiver.received.push(got);
      const answer = receiver.answer(got);
      if (answer === 'stall') return;
      const { status, location } = typeof answer === 'number' ? { status: answer } : answer;
      res.writeHead(status, location ? { location } : {});
      if (status >= 200 && status < 300) res.on('finish', () => (got.acknowledgedAt = Date.now()));
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}/hook`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}

/** How a receiver checks `X-Coldtrace-Signature` (the docs/api.md example). */
export function validSignature(secret: string, body: string, header: string | undefined): boolean {
  const expected = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
  const given = Buffer.from(header ?? '');
  return given.length === expected.length && timingSafeEqual(given, Buffer.from(expected));
}
