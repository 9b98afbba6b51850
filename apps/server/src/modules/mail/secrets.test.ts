import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggerOptions } from '../../logger';
import { createTestApp, uid, type TestApp } from '../../../test/helpers';
import { startSmtpSink, type SmtpSink } from '../../../test/smtp-sink';
import { lastMailTo } from '../../../test/mail-helpers';
import { queueWelcomeMail } from '../identity';
import { MAIL_SEND_JOB, PASSWORD_RESET_JOB } from '../../jobs/catalogue';
import { REMOVED_LINK, withoutSecretLinks } from './secret-links';

const LINK = /https?:\/\/\S+?\/(passwordreset|welcome)\/([^/\s"]+)\/([A-Za-z0-9_-]+)/;

/** The server's own logger options (serializers, redaction), lines kept as text. */
function capturedLogger() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { logger: pino(loggerOptions('info', false), stream), text: () => lines.join('') };
}

describe('withoutSecretLinks', () => {
  it('replaces reset and welcome links, keeps other links and the confirmation page', () => {
    const text = [
      'Open https://ct.example.com/passwordreset/1b2c-uuid/AbC_d-9 now.',
      '<a href="http://localhost:8000/welcome/u-1/tok_EN">Choose</a>',
      'Record: https://ct.example.com/recorddetails/42',
      'Done: https://ct.example.com/welcome/passwordresetconfirm',
      'Prefixed: https://example.com/coldtrace/passwordreset/u/t',
    ].join('\n');
    const out = withoutSecretLinks(text);
    expect(out).not.toMatch(/AbC_d-9|tok_EN|\/u\/t\b/);
    expect(out.split(REMOVED_LINK)).toHaveLength(4);
    expect(out).toContain('https://ct.example.com/recorddetails/42');
    expect(out).toContain('https://ct.example.com/welcome/passwordresetconfirm');
    expect(out).toContain('<a href="[one-time link removed after delivery]">Choose</a>');
  });
});

describe('one-time links with SMTP configured', () => {
  let sink: SmtpSink;
  let t: TestApp;
  let log: ReturnType<typeof capturedLogger>;

  beforeAll(async () => {
    sink = await startSmtpSink();
    log = capturedLogger();
    t = await createTestApp({
      logger: log.logger,
      config: {
        mail: { smtpUrl: sink.url, from: 'Coldtrace <no-reply@ct.test>', retryDelaySeconds: 1 },
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await sink.close();
  });

  it('a reset mails the link, logs no link or token, and the stored body keeps no token', async () => {
    const user = await t.createUser();
    const res = await t.client().post('/api/auth/password-reset/', { email: user.email });
    expect(res.statusCode).toBe(204);
    await t.app.jobs.waitForIdle([PASSWORD_RESET_JOB, MAIL_SEND_JOB]);

    const received = sink.messages.filter((m) => m.envelopeTo.includes(user.email));
    expect(received).toHaveLength(1);
    const match = LINK.exec(received[0]!.text ?? '');
    expect(match?.[1]).toBe('passwordreset');
    const [link, , uuid, token] = match!;
    expect(received[0]!.html).toContain(token);

    const row = await lastMailTo(t, user.email);
    expect(row?.status).toBe('sent');
    expect(row!.text).not.toContain(token!);
    expect(row!.html).not.toContain(token!);
    expect(row!.text).toContain(REMOVED_LINK);
    expect(row!.html).toContain(REMOVED_LINK);

    // The person opens the link (the web page) and the page checks it: still nothing in the log.
    const page = await t.inject({ method: 'GET', url: `/passwordreset/${uuid}/${token}` });
    expect(page.statusCode).toBe(200);
    const check = await t.client().post('/api/auth/password-reset-validate/', { uuid, token });
    expect(check.statusCode).toBeLessThan(300);

    const logged = log.text();
    expect(logged).toContain('request completed'); // the log is captured at all
    expect(logged).toContain(`/passwordreset/${uuid}/[redacted]`);
    expect(logged).not.toContain(token!);
    expect(logged).not.toContain(link!);
  });

  it('a welcome mail is delivered with its link and stored without it', async () => {
    const user = await t.createUser();
    await t.db.transaction((tx) =>
      queueWelcomeMail(t.app, tx, {
        id: user.id,
        email: user.email,
        firstName: 'Ada',
        lastName: 'Lovelace',
        username: user.username,
      }),
    );
    await t.app.jobs.waitForIdle([MAIL_SEND_JOB]);
    const received = sink.messages.find((m) => m.envelopeTo.includes(user.email));
    const token = LINK.exec(received?.text ?? '')?.[3];
    expect(token).toBeDefined();
    const row = await lastMailTo(t, user.email);
    expect(row?.status).toBe('sent');
    expect(`${row!.text}${row!.html}`).not.toContain(token!);
    expect(log.text()).not.toContain(token!);
  });
});

describe('one-time links without SMTP_URL', () => {
  let t: TestApp;
  let log: ReturnType<typeof capturedLogger>;

  beforeAll(async () => {
    log = capturedLogger();
    t = await createTestApp({ logger: log.logger });
  });
  afterAll(() => t.close());

  it('the reset link is printed to the log (the way to sign in without mail)', async () => {
    const user = await t.createUser({ email: `local_${uid()}@example.test` });
    const res = await t.client().post('/api/auth/password-reset/', { email: user.email });
    expect(res.statusCode).toBe(204);
    await t.app.jobs.waitForIdle([PASSWORD_RESET_JOB, MAIL_SEND_JOB]);
    const row = await lastMailTo(t, user.email);
    expect(row?.status).toBe('logged');
    const link = LINK.exec(row!.text)?.[0];
    expect(link).toMatch(/\/passwordreset\//);
    const line = log
      .text()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { msg?: string; mail?: { links?: string[]; to?: string[] } })
      .find((l) => l.mail?.to?.includes(user.email));
    expect(line?.msg).toBe('mail kept in the outbox (no SMTP_URL configured)');
    expect(line?.mail?.links).toEqual([link]);
  });
});
