import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config';
import { mailOutbox } from '../../db/schema-mail';
import { createTestApp, uid, type TestApp } from '../../../test/helpers';
import { eventually, freePort, startSmtpSink, type SmtpSink } from '../../../test/smtp-sink';
import { MAIL_SEND_JOB } from '../../jobs/catalogue';
import { queueMail } from './outbox';
import { messageIdOf } from './worker';

async function outboxRow(t: TestApp, subject: string) {
  const [row] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.subject, subject));
  return row;
}

describe('mail through SMTP [RULE-NOTIFY-4]', () => {
  let sink: SmtpSink;
  let t: TestApp;

  beforeAll(async () => {
    sink = await startSmtpSink();
    t = await createTestApp({
      config: {
        mail: { smtpUrl: sink.url, from: 'Coldtrace <no-reply@ct.test>', retryDelaySeconds: 1 },
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await sink.close();
  });

  it('delivers a queued message exactly once, with a deterministic Message-ID', async () => {
    const subject = `Hello ${uid()}`;
    await t.db.transaction((tx) =>
      queueMail(t.app, tx, {
        to: ['a@example.test'],
        cc: ['c@example.test'],
        bcc: ['b@example.test'],
        subject,
        text: 'Plain body',
        html: '<p>HTML body</p>',
      }),
    );
    await t.app.jobs.waitForIdle([MAIL_SEND_JOB]);
    const received = sink.messages.filter((m) => m.subject === subject);
    expect(received).toHaveLength(1);
    const row = await outboxRow(t, subject);
    expect(row).toMatchObject({ status: 'sent', attempts: 1, lastError: null });
    expect(row!.sentAt).toBeInstanceOf(Date);
    expect(received[0]!.messageId).toBe(messageIdOf(row!.id, 'Coldtrace <no-reply@ct.test>'));
    expect(received[0]!.text?.trim()).toBe('Plain body');
    expect(received[0]!.html).toContain('HTML body');
    expect(received[0]!.from?.address).toBe('no-reply@ct.test');
    expect(received[0]!.envelopeTo.sort()).toEqual(
      ['a@example.test', 'b@example.test', 'c@example.test'].sort(),
    );
  });

  it('a message queued in a rolled-back transaction is never sent', async () => {
    const subject = `Rolled back ${uid()}`;
    await expect(
      t.db.transaction(async (tx) => {
        await queueMail(t.app, tx, { to: ['x@example.test'], subject, text: 'x' });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    await t.app.jobs.waitForIdle([MAIL_SEND_JOB]);
    expect(await outboxRow(t, subject)).toBeUndefined();
    expect(sink.messages.some((m) => m.subject === subject)).toBe(false);
  });

  it('the same dedupe key queues one message only', async () => {
    const subject = `Dedupe ${uid()}`;
    const dedupeKey = `test:${uid()}`;
    for (let i = 0; i < 3; i++) {
      await t.db.transaction((tx) =>
        queueMail(t.app, tx, { to: ['d@example.test'], subject, text: 'once', dedupeKey }),
      );
    }
    await t.app.jobs.waitForIdle([MAIL_SEND_JOB]);
    expect(sink.messages.filter((m) => m.subject === subject)).toHaveLength(1);
  });

  it('a re-run job (as after a crash) does not send an already sent message again', async () => {
    const subject = `Rerun ${uid()}`;
    await t.db.transaction((tx) =>
      queueMail(t.app, tx, { to: ['r@example.test'], subject, text: 'once' }),
    );
    await t.app.jobs.waitForIdle([MAIL_SEND_JOB]);
    const row = await outboxRow(t, subject);
    await t.app.jobs.send(MAIL_SEND_JOB, { outboxId: row!.id });
    await t.app.jobs.waitForIdle([MAIL_SEND_JOB]);
    expect(sink.messages.filter((m) => m.subject === subject)).toHaveLength(1);
    expect((await outboxRow(t, subject))!.attempts).toBe(1);
  });
});

describe('mail while the SMTP server is down [RULE-NOTIFY-4]', () => {
  let port: number;
  let t: TestApp;
  let sink: SmtpSink | undefined;

  beforeAll(async () => {
    port = await freePort();
    t = await createTestApp({
      config: {
        mail: {
          smtpUrl: `smtp://127.0.0.1:${port}`,
          from: 'Coldtrace <no-reply@ct.test>',
          retryDelaySeconds: 1,
        },
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await sink?.close();
  });

  it('keeps the message queued, records the failure, and delivers it once when the server is back', async () => {
    const subject = `Delayed ${uid()}`;
    await t.db.transaction((tx) =>
      queueMail(t.app, tx, { to: ['late@example.test'], subject, text: 'eventually' }),
    );
    const failed = await eventually(
      () => outboxRow(t, subject),
      (row) => (row?.attempts ?? 0) >= 1,
    );
    expect(failed).toMatchObject({ status: 'queued' });
    expect(failed!.lastError).toMatch(/ECONNREFUSED|connect/i);

    sink = await startSmtpSink(port);
    await eventually(
      () => outboxRow(t, subject),
      (row) => row?.status === 'sent',
      30_000,
    );
    await t.app.jobs.waitForIdle([MAIL_SEND_JOB]);
    expect(sink.messages.filter((m) => m.subject === subject)).toHaveLength(1);
  }, 45_000);
});

describe('mail without SMTP_URL [RULE-NOTIFY-4]', () => {
  const lines: Record<string, unknown>[] = [];
  let t: TestApp;

  beforeAll(async () => {
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean))
          lines.push(JSON.parse(line));
        done();
      },
    });
    t = await createTestApp({ logger: pino({ level: 'info' }, stream) });
  });
  afterAll(() => t.close());
  afterEach(() => {
    lines.length = 0;
  });

  it('keeps the message in the outbox and prints subject, recipient and link to the log', async () => {
    const subject = `Local ${uid()}`;
    await t.db.transaction((tx) =>
      queueMail(t.app, tx, {
        to: ['local@example.test'],
        subject,
        text: 'Open http://localhost:8000/passwordreset/abc/def to continue.',
      }),
    );
    await t.app.jobs.waitForIdle([MAIL_SEND_JOB]);
    const row = await outboxRow(t, subject);
    expect(row).toMatchObject({ status: 'logged', attempts: 1, to: ['local@example.test'] });
    const line = lines.find(
      (l) => (l.mail as { subject?: string } | undefined)?.subject === subject,
    );
    expect(line).toMatchObject({
      msg: 'mail kept in the outbox (no SMTP_URL configured)',
      mail: { to: ['local@example.test'], links: ['http://localhost:8000/passwordreset/abc/def'] },
    });
  });
});

describe('mail configuration [RULE-NOTIFY-4]', () => {
  it('defaults: no SMTP, the documented sender, 72-hour links', () => {
    const c = loadConfig({});
    expect(c.mail).toEqual({
      smtpUrl: undefined,
      from: 'Coldtrace <no-reply@coldtrace.local>',
      retryDelaySeconds: 15,
    });
    expect(c.passwordResetTtlHours).toBe(72);
  });

  it('reads SMTP_URL, MAIL_FROM, MAIL_RETRY_DELAY_SECONDS and PASSWORD_RESET_TTL_HOURS', () => {
    const c = loadConfig({
      SMTP_URL: 'smtps://user:pass@mail.example.com:465',
      MAIL_FROM: 'Cold <cold@example.com>',
      MAIL_RETRY_DELAY_SECONDS: '30',
      PASSWORD_RESET_TTL_HOURS: '24',
    });
    expect(c.mail).toEqual({
      smtpUrl: 'smtps://user:pass@mail.example.com:465',
      from: 'Cold <cold@example.com>',
      retryDelaySeconds: 30,
    });
    expect(c.passwordResetTtlHours).toBe(24);
  });

  it('refuses a non-SMTP URL and a zero lifetime, naming the variables', () => {
    let error: unknown;
    try {
      loadConfig({ SMTP_URL: 'http://mail', PASSWORD_RESET_TTL_HOURS: '0' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    expect(problems).toContain('SMTP_URL must be an smtp:// or smtps:// URL');
    expect(problems).toContain('PASSWORD_RESET_TTL_HOURS must be an integer from 1 to');
  });

  it('the Message-ID uses the sender domain and is the same on every attempt', () => {
    expect(messageIdOf('abc', 'Coldtrace <no-reply@ct.test>')).toBe('<abc@ct.test>');
    expect(messageIdOf('abc', 'plain@example.com')).toBe('<abc@example.com>');
  });
});
