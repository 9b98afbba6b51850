import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggerOptions } from '../../logger';
import { mailOutbox, passwordTokens } from '../../db/schema-mail';
import { createTestApp, uid, type TestApp } from '../../../test/helpers';
import { startSmtpSink, type SmtpSink } from '../../../test/smtp-sink';
import { lastMailTo } from '../../../test/mail-helpers';
import { queueWelcomeMail } from '../identity';
import { MAIL_SEND_JOB, PASSWORD_RESET_JOB, PURGE_EXPIRED_TOKENS_JOB } from '../../jobs/catalogue';
import { queueMail } from './outbox';
import { scrubSecretLinks, storedSecretLinks } from './scrub';
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

describe('withoutSecretLinks [FEAT-ACCOUNT-SECURITY]', () => {
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
    expect(out).toContain('<a href="[one-time link removed]">Choose</a>');
  });

  it('replaces only the links `drop` picks', () => {
    const text = 'A http://h/welcome/u-1/t1 B http://h/welcome/u-2/t2';
    expect(withoutSecretLinks(text, (link) => link.id === 'u-2')).toBe(
      `A http://h/welcome/u-1/t1 B ${REMOVED_LINK}`,
    );
  });
});

describe('one-time links with SMTP configured [FEAT-ACCOUNT-SECURITY]', () => {
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

describe('one-time links without SMTP_URL [FEAT-ACCOUNT-SECURITY]', () => {
  let t: TestApp;
  let log: ReturnType<typeof capturedLogger>;

  beforeAll(async () => {
    log = capturedLogger();
    t = await createTestApp({ logger: log.logger });
  });
  afterAll(() => t.close());

  /** The links of the mail lines logged for this address, oldest first. */
  function loggedLinks(email: string) {
    return log
      .text()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { msg?: string; mail?: { links?: string[]; to?: string[] } })
      .filter((l) => l.mail?.to?.includes(email))
      .flatMap((l) => l.mail?.links ?? [])
      .map((link) => {
        const [, route, uuid, token] = LINK.exec(link)!;
        return { link, route, uuid: uuid!, token: token! };
      });
  }

  async function requestReset(email: string) {
    const res = await t.client().post('/api/auth/password-reset/', { email });
    expect(res.statusCode).toBe(204);
    await t.app.jobs.waitForIdle([PASSWORD_RESET_JOB, MAIL_SEND_JOB]);
    return loggedLinks(email).at(-1)!;
  }

  const validate = (link: { uuid: string; token: string }) =>
    t.client().post('/api/auth/password-reset-validate/', { uuid: link.uuid, token: link.token });

  /** The stored copies of the mails to this address, oldest first. */
  const storedBodies = (email: string) =>
    t.db
      .select()
      .from(mailOutbox)
      .orderBy(mailOutbox.created)
      .then((rows) =>
        rows.filter((r) => r.to.includes(email)).map((r) => `${r.text}\n${r.html ?? ''}`),
      );

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

  it('a logged reset link works once; then it answers 400 and the stored copy keeps no token', async () => {
    const user = await t.createUser({ email: `used_${uid()}@example.test` });
    const logged = await requestReset(user.email);
    expect(logged.route).toBe('passwordreset');
    expect(logged.uuid).toBe(user.id);
    expect((await storedBodies(user.email))[0]).toContain(logged.token);

    const use = await t.client().post('/api/auth/password-reset-confirm/', {
      uuid: logged.uuid,
      token: logged.token,
      new_password: 'a brand new passphrase 31',
    });
    expect(use.statusCode, use.body).toBe(204);

    // The same line of the log, taken again: the link is dead.
    expect(loggedLinks(user.email).at(-1)).toEqual(logged);
    const again = await validate(logged);
    expect(again.statusCode).toBe(400);
    expect(again.json().fields).toHaveProperty('token');
    const reuse = await t.client().post('/api/auth/password-reset-confirm/', {
      uuid: logged.uuid,
      token: logged.token,
      new_password: 'another new passphrase 32',
    });
    expect(reuse.statusCode).toBe(400);

    const [stored] = await storedBodies(user.email);
    expect(stored).not.toContain(logged.token);
    expect(stored).toContain(REMOVED_LINK);
    expect((await lastMailTo(t, user.email))?.subject).toBe('Reset your Coldtrace password');
  });

  it('a newer reset link kills the logged one and clears its stored copy; the new one stays', async () => {
    const user = await t.createUser({ email: `twice_${uid()}@example.test` });
    const first = await requestReset(user.email);
    const second = await requestReset(user.email);
    expect(second.token).not.toBe(first.token);

    expect((await validate(first)).statusCode).toBe(400);
    expect((await validate(second)).statusCode).toBe(204);
    const [older, newer] = await storedBodies(user.email);
    expect(older).not.toContain(first.token);
    expect(older).toContain(REMOVED_LINK);
    expect(newer).toContain(second.link);
  });

  it('signing in kills a logged welcome link and clears its stored copy', async () => {
    const user = await t.createUser({ email: `welcome_${uid()}@example.test` });
    await t.db.transaction((tx) =>
      queueWelcomeMail(t.app, tx, { ...user, firstName: 'Grace', lastName: 'Hopper' }),
    );
    await t.app.jobs.waitForIdle([MAIL_SEND_JOB]);
    const welcome = loggedLinks(user.email).at(-1)!;
    expect(welcome.route).toBe('welcome');
    expect((await validate(welcome)).statusCode).toBe(204);

    expect((await t.client().login(user.username, user.password)).statusCode).toBe(200);
    expect((await validate(welcome)).statusCode).toBe(400);
    const [stored] = await storedBodies(user.email);
    expect(stored).not.toContain(welcome.token);
    expect(stored).toContain(REMOVED_LINK);
  });

  it('an expired logged link answers 400, and the daily purge clears its stored copy', async () => {
    const expiring = await t.createUser({ email: `expired_${uid()}@example.test` });
    const live = await t.createUser({ email: `live_${uid()}@example.test` });
    const gone = await t.createUser({ email: `gone_${uid()}@example.test` });
    const expired = await requestReset(expiring.email);
    const current = await requestReset(live.email);
    const removed = await requestReset(gone.email);
    await t.db
      .update(passwordTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passwordTokens.userId, expiring.id));
    // A token that went without its mail's copy being cleared (as before this was done).
    await t.db.delete(passwordTokens).where(eq(passwordTokens.userId, gone.id));
    expect((await validate(expired)).statusCode).toBe(400);
    expect((await storedBodies(expiring.email))[0]).toContain(expired.token);

    await t.app.jobs.send(PURGE_EXPIRED_TOKENS_JOB, {});
    await t.app.jobs.waitForIdle([PURGE_EXPIRED_TOKENS_JOB]);

    for (const [email, link] of [
      [expiring.email, expired],
      [gone.email, removed],
    ] as const) {
      const [stored] = await storedBodies(email);
      expect(stored).not.toContain(link.token);
      expect(stored).toContain(REMOVED_LINK);
    }
    expect((await storedBodies(live.email))[0]).toContain(current.link);
    expect((await validate(current)).statusCode).toBe(204);
    expect(log.text()).toMatch(/"storedLinks":[1-9]/);
  });
});

describe('scrubSecretLinks [FEAT-ACCOUNT-SECURITY]', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ jobs: { runWorkers: false } });
  });
  afterAll(() => t.close());

  /** A stored mail with these lines as its text and, as links, its html; answers its id. */
  async function storedMail(lines: string[]): Promise<string> {
    const subject = `Links ${uid()}`;
    await t.db.transaction((tx) =>
      queueMail(t.app, tx, {
        to: ['links@example.test'],
        subject,
        text: lines.join('\n'),
        html: lines.map((l) => `<a href="${l}">x</a>`).join(''),
      }),
    );
    const [row] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.subject, subject));
    return row!.id;
  }
  const body = async (id: string) => {
    const [row] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
    return `${row!.text}\n${row!.html}`;
  };

  it('clears the links the filter names (route, id, token, row), and nothing else', async () => {
    const [a, b] = [uid(), uid()];
    const first = await storedMail([
      `http://h/passwordreset/${a}/tokA1`,
      `http://h/welcome/${a}/tokA2`,
      `http://h/passwordreset/${b}/tokB1`,
      'http://h/recorddetails/7',
    ]);
    const second = await storedMail([`http://h/passwordreset/${a}/tokA3`]);

    expect(await scrubSecretLinks(t.db, { routes: ['passwordreset'], token: 'tokA1' })).toBe(1);
    expect(await body(first)).not.toContain('tokA1');
    expect(await body(first)).toContain(`/welcome/${a}/tokA2`);

    // A user's links of one route, in every stored mail.
    expect(await scrubSecretLinks(t.db, { routes: ['passwordreset'], id: a })).toBe(1);
    expect(await body(second)).not.toContain('tokA3');
    expect(await body(first)).toContain(`/welcome/${a}/tokA2`);
    expect(await body(first)).toContain(`/passwordreset/${b}/tokB1`);

    // One row, every route.
    expect(await scrubSecretLinks(t.db, { outboxId: first })).toBe(1);
    const left = await body(first);
    expect(left).not.toMatch(/tokA2|tokB1/);
    expect(left).toContain('http://h/recorddetails/7');
    expect(left.split(REMOVED_LINK)).toHaveLength(7); // three links, in the text and the html
    expect(await scrubSecretLinks(t.db, { outboxId: first })).toBe(0);
  });

  it('storedSecretLinks lists each link of a stored mail once, with its mail', async () => {
    const id = uid();
    const mail = await storedMail([
      `http://h/welcome/${id}/tokW`,
      `http://h/passwordreset/${id}/tokR`,
    ]);
    expect(await storedSecretLinks(t.db, { id })).toEqual([
      { outboxId: mail, route: 'welcome', id, token: 'tokW' },
      { outboxId: mail, route: 'passwordreset', id, token: 'tokR' },
    ]);
    expect(await storedSecretLinks(t.db, { id, routes: ['passwordreset'] })).toEqual([
      { outboxId: mail, route: 'passwordreset', id, token: 'tokR' },
    ]);
  });
});
