import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/helpers';
import { users } from './db/schema';
import { loggerOptions, redactUrl } from './logger';

function capture(level: 'info' | 'debug' = 'info') {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { log: pino(loggerOptions(level, false), sink), text: () => lines.join('') };
}

describe('logger [FEAT-OBSERVABILITY]', () => {
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

describe('logged errors of failed queries [FEAT-OBSERVABILITY]', () => {
  const EMAIL = 'ada.secret@example.test';
  const PASSWORD = 'hunter2-long-password';
  let t: TestApp;
  let logs: ReturnType<typeof capture>;

  beforeAll(async () => {
    logs = capture();
    t = await createTestApp({
      logger: logs.log,
      register: (app) => {
        // A query that fails with the e-mail in its parameters and in PostgreSQL's message.
        app.get('/api/test/failing-cast/', async () => {
          await app.db.execute(sql`SELECT ${EMAIL}::integer AS n, ${PASSWORD}::text AS p`);
          return {};
        });
        // A unique violation: PostgreSQL's detail names the e-mail.
        app.get('/api/test/duplicate/', async () => {
          const [row] = await app.db.select().from(users).limit(1);
          await app.db.insert(users).values({ ...row!, id: undefined as never });
          return {};
        });
      },
    });
    await t.db.execute(
      sql`UPDATE users SET email = ${EMAIL} WHERE id = (${(await t.createUser()).id})`,
    );
  });
  afterAll(() => t.close());

  it('keep the SQL text and code but no parameter values', async () => {
    const cast = await t.inject({ method: 'GET', url: '/api/test/failing-cast/' });
    expect(cast.statusCode).toBe(500);
    expect(cast.body).not.toContain(EMAIL);
    const dup = await t.inject({ method: 'GET', url: '/api/test/duplicate/' });
    expect(dup.statusCode).toBe(500);

    const text = logs.text();
    const errors = text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { msg: string; err?: Record<string, unknown> })
      .filter((l) => l.msg === 'unhandled error');
    expect(errors).toHaveLength(2);
    expect(String(errors[0]!.err!.message)).toContain('Failed query: SELECT $1::integer');
    expect(errors[0]!.err!.query).toMatch(/SELECT \$1::integer AS n, \$2::text AS p/);
    expect(String(errors[1]!.err!.message)).toMatch(/insert into "users"/);
    expect(String(errors[1]!.err!.stack)).toContain('duplicate key value');
    expect(errors[1]!.err!.pg).toMatchObject({ code: '23505', table: 'users' });
    expect(errors[0]!.err!.pg).toMatchObject({ code: '22P02' });
    expect(text).not.toContain(EMAIL);
    expect(text).not.toContain(PASSWORD);
  });

  it('a PostgreSQL error logged directly loses its detail', () => {
    const out = capture();
    const pgError = Object.assign(new Error('duplicate key value violates unique constraint'), {
      code: '23505',
      constraint: 'users_email_unique',
      detail: `Key (lower(email))=(${EMAIL}) already exists.`,
    });
    out.log.error({ err: pgError }, 'failed');
    const line = JSON.parse(out.text()) as { err: Record<string, unknown> };
    expect(line.err).toMatchObject({ code: '23505', constraint: 'users_email_unique' });
    expect(out.text()).not.toContain(EMAIL);
  });
});

describe('request log lines [FEAT-OBSERVABILITY]', () => {
  it('hide the token of one-time links, nothing else', () => {
    expect(redactUrl('/passwordreset/0b6e-uuid/s3cr3t-T0ken')).toBe(
      '/passwordreset/0b6e-uuid/[redacted]',
    );
    expect(redactUrl('/welcome/0b6e-uuid/s3cr3t?x=1')).toBe('/welcome/0b6e-uuid/[redacted]?x=1');
    expect(redactUrl('/welcome/passwordresetconfirm')).toBe('/welcome/passwordresetconfirm');
    expect(redactUrl('/recorddetails/42')).toBe('/recorddetails/42');
    expect(redactUrl('/api/auth/password-reset/')).toBe('/api/auth/password-reset/');
  });
});

describe('the request log [FEAT-OBSERVABILITY]', () => {
  let t: TestApp;
  let logs: ReturnType<typeof capture>;

  beforeAll(async () => {
    logs = capture('debug');
    t = await createTestApp({ logger: logs.log });
  });
  afterAll(() => t.close());

  it('one line at info per request, as it completes: method, redacted URL, status and time, no other field and no credential; the incoming line at debug', async () => {
    const link = '/welcome/0b6e-uuid/s3cr3t-T0ken';
    const answers = [
      await t.inject({ method: 'GET', url: '/api/auth/csrf/' }),
      await t.inject({ method: 'GET', url: link }),
      await t.inject({ method: 'POST', url: '/api/auth/login/', payload: {} }),
    ];
    // A request with credentials: the completed line is written without the redaction
    // pass, so it must hold the serializers' few fields and nothing else.
    const credentials = {
      cookie: 'sessionid=c00kie-s3cret; csrftoken=csrf-s3cret',
      authorization: 'Token t0ken-s3cret',
      'x-csrftoken': 'csrf-s3cret',
    };
    const withCredentials = await t.inject({
      method: 'GET',
      url: '/api/auth/csrf/?next=%2Frecords',
      headers: credentials,
    });
    const lines = logs
      .text()
      .split('\n')
      .filter(Boolean)
      .map(
        (l) =>
          JSON.parse(l) as {
            level: number;
            msg: string;
            reqId?: string;
            req?: { method: string; url: string };
            res?: { statusCode: number };
            responseTime?: number;
          },
      )
      .filter((l) => l.reqId !== undefined);
    for (const [i, [method, url]] of [
      ['GET', '/api/auth/csrf/'],
      ['GET', '/welcome/0b6e-uuid/[redacted]'],
      ['POST', '/api/auth/login/'],
    ].entries()) {
      const reqId = answers[i]!.headers['x-request-id'];
      const own = lines.filter((l) => l.reqId === reqId);
      // A refused request also has the line of its error (http/errors.ts), no other.
      const atInfo = own.filter((l) => l.level >= 30 && l.res !== undefined);
      expect(atInfo, url).toHaveLength(1);
      expect(own.filter((l) => l.level >= 30).length, url).toBe(
        answers[i]!.statusCode >= 400 ? 2 : 1,
      );
      expect(atInfo[0], url).toMatchObject({
        msg: 'request completed',
        req: { method, url },
        res: { statusCode: answers[i]!.statusCode },
      });
      expect(atInfo[0]!.responseTime, url).toBeGreaterThan(0);
      expect(
        own.filter((l) => l.level === 20).map((l) => l.msg),
        url,
      ).toEqual(['incoming request']);
    }
    expect(Math.floor(answers[2]!.statusCode / 100)).toBe(4); // refused (no CSRF token)
    expect(logs.text()).not.toContain('s3cr3t-T0ken');

    const completed = lines.filter(
      (l) => l.reqId === withCredentials.headers['x-request-id'] && l.level === 30,
    );
    expect(completed).toHaveLength(1);
    const {
      level: _level,
      time,
      pid,
      hostname,
      ...fields
    } = completed[0] as (typeof completed)[0] & {
      time: number;
      pid: number;
      hostname: string;
    };
    expect([typeof time, typeof pid, typeof hostname]).toEqual(['number', 'number', 'string']);
    expect(fields).toEqual({
      reqId: withCredentials.headers['x-request-id'],
      req: {
        method: 'GET',
        url: '/api/auth/csrf/?next=%2Frecords',
        host: 'localhost:80',
        remoteAddress: '127.0.0.1',
        remotePort: undefined,
      },
      res: { statusCode: 200 },
      responseTime: fields.responseTime,
      msg: 'request completed',
    });
    expect(logs.text()).not.toMatch(/c00kie-s3cret|t0ken-s3cret|csrf-s3cret/);
  });
});
