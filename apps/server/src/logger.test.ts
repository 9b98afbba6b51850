import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { loggerOptions } from './logger';

describe('logger', () => {
  it('redacts passwords, cookies and authorization headers', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const log = pino(loggerOptions('info', false), sink);
    log.info(
      {
        req: { headers: { cookie: 'sessionid=abc', authorization: 'Token t0ken' } },
        res: { headers: { 'set-cookie': 'sessionid=abc' } },
        body: { password: 'hunter2', email_or_username: 'me' },
      },
      'request',
    );
    const out = lines.join('');
    expect(out).not.toMatch(/abc|t0ken|hunter2/);
    expect(out).toContain('[redacted]');
    expect(out).toContain('"email_or_username":"me"');
  });
});
