import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../../../db/schema';
import { mailOutbox, passwordTokens } from '../../../db/schema-mail';
import { createTestApp, TEST_PASSWORD, uid, type TestApp } from '../../../../test/helpers';
import { lastMailTo } from '../../../../test/mail-helpers';
import { generatePassword } from '../auth';
import { passwordProblem } from './rules';
import { MAIL_SEND_JOB, PASSWORD_RESET_JOB } from '../../../jobs/catalogue';
import { queueWelcomeMail } from './welcome';

const NEW_PASSWORD = 'a brand new passphrase 42';
const LINK = /http:\/\/localhost:8000\/(passwordreset|welcome)\/([0-9a-f-]{36})\/([A-Za-z0-9_-]+)/;

/** Request a reset through the API and answer the link of the e-mail it produced. */
async function requestResetLink(t: TestApp, email: string) {
  const res = await t.client().post('/api/auth/password-reset/', { email });
  expect(res.statusCode).toBe(204);
  await t.app.jobs.waitForIdle([PASSWORD_RESET_JOB, MAIL_SEND_JOB]);
  const mail = await lastMailTo(t, email);
  const match = LINK.exec(mail?.text ?? '');
  if (!match) throw new Error(`no reset link mailed to ${email}`);
  return { mode: match[1]!, uuid: match[2]!, token: match[3]! };
}

/** A new user (a password unknown to them) and the welcome mail queued for them, as Wendy Welcome. */
async function welcomeNewUser(t: TestApp) {
  const user = await t.createUser({ password: 'unknown to the user 123' });
  const { id, email, username } = user;
  const person = { id, email, username, firstName: 'Wendy', lastName: 'Welcome' };
  await t.db.transaction((tx) => queueWelcomeMail(t.app, tx, person));
  return user;
}

describe('password rules [FEAT-ACCOUNT-SECURITY, SPEC-7.1]', () => {
  it('refuses short, all-digit and common passwords; accepts long passphrases', async () => {
    expect(await passwordProblem('short1!')).toMatch(/at least 8 characters/);
    expect(await passwordProblem('1234567890123')).toBe('This password is entirely numeric.');
    expect(await passwordProblem('Password123')).toBe('This password is too common.');
    expect(await passwordProblem('qwertyuiop')).toBe('This password is too common.');
    expect(await passwordProblem('jsmith_01', { username: 'jsmith_01' })).toMatch(/similar/);
    expect(await passwordProblem('x'.repeat(64) + ' still fine')).toBeUndefined();
    expect(await passwordProblem('correct horse battery staple')).toBeUndefined();
  });

  it('refuses what the strength estimator guesses easily (NIST SP 800-63B)', async () => {
    for (const weak of ['aaaaaaaa', ' '.repeat(8), 'Password2024', 'qwerty2024!', 'abcdefgh12']) {
      expect(await passwordProblem(weak), weak).toMatch(/^This password is too easy to guess\./);
    }
    // The user's own names make a password weak too.
    expect(await passwordProblem('Fenwickstrom42')).toBeUndefined();
    expect(await passwordProblem('Fenwickstrom42', { lastName: 'Fenwickstrom' })).toMatch(
      /too easy to guess/,
    );
    // What the server generates and what the tests sign in with pass.
    for (let i = 0; i < 20; i += 1)
      expect(await passwordProblem(generatePassword())).toBeUndefined();
    expect(await passwordProblem(TEST_PASSWORD)).toBeUndefined();
  });
});

describe('password reset [FEAT-ACCOUNT-SECURITY, SPEC-7.1]', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Every request here comes from one address: the address limit has its own tests.
    t = await createTestApp({
      config: { passwordResetLimits: { maxPerAccount: 3, maxPerAddress: 1000 } },
    });
  });
  afterAll(() => t.close());

  it('answers the same for a known and an unknown address; only the known one gets mail', async () => {
    const user = await t.createUser();
    const unknown = `nobody_${uid()}@example.test`;
    const a = await t
      .client()
      .post('/api/auth/password-reset/', { email: user.email.toUpperCase() });
    const b = await t.client().post('/api/auth/password-reset/', { email: unknown });
    expect(a.statusCode).toBe(204);
    expect(b.statusCode).toBe(204);
    expect(a.body).toBe(b.body);
    await t.app.jobs.waitForIdle([PASSWORD_RESET_JOB, MAIL_SEND_JOB]);
    expect(await lastMailTo(t, unknown)).toBeUndefined();
    const mail = await lastMailTo(t, user.email);
    expect(mail).toMatchObject({ subject: 'Reset your Coldtrace password', status: 'logged' });
    expect(mail!.text).toMatch(LINK);
    expect(mail!.html).toContain('/passwordreset/');
  });

  it('the reply takes no longer for a known address than for an unknown one', async () => {
    const user = await t.createUser();
    const time = async (email: string) => {
      const client = t.client();
      await client.csrf();
      const started = performance.now();
      await client.post('/api/auth/password-reset/', { email });
      return performance.now() - started;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 5; i++) {
      known.push(await time(user.email));
      unknown.push(await time(`nobody_${uid()}@example.test`));
    }
    const median = (xs: number[]) => xs.sort((x, y) => x - y)[2]!;
    // The request only enqueues a job: no lookup, no hashing in the reply path.
    expect(Math.abs(median(known) - median(unknown))).toBeLessThan(50);
  });

  it('missing e-mail: 400 naming the field', async () => {
    const res = await t.client().post('/api/auth/password-reset/', {});
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toHaveProperty('email');
  });

  it('sets the new password from the link; the old one stops working; the link dies', async () => {
    const user = await t.createUser();
    const other = await t.client();
    expect((await other.login(user.username, user.password)).statusCode).toBe(200);
    const link = await requestResetLink(t, user.email);
    expect(link.mode).toBe('passwordreset');
    expect(link.uuid).toBe(user.id);
    expect(link.token.length).toBeGreaterThanOrEqual(43); // 256 bits in base64url

    const client = t.client();
    expect(
      (
        await client.post('/api/auth/password-reset-validate/', {
          uuid: link.uuid,
          token: link.token,
        })
      ).statusCode,
    ).toBe(204);
    const res = await client.post('/api/auth/password-reset-confirm/', {
      uuid: link.uuid,
      token: link.token,
      new_password: NEW_PASSWORD,
    });
    expect(res.statusCode).toBe(204);
    // Every session of the user ended.
    expect((await other.get('/api/auth/session/')).statusCode).toBe(401);
    expect((await t.client().login(user.username, user.password)).statusCode).toBe(400);
    expect((await t.client().login(user.email, NEW_PASSWORD)).statusCode).toBe(200);

    const again = await client.post('/api/auth/password-reset-confirm/', {
      uuid: link.uuid,
      token: link.token,
      new_password: 'yet another passphrase 7',
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().fields).toHaveProperty('token');
  });

  it('only a hash of the token is stored', async () => {
    const user = await t.createUser();
    const link = await requestResetLink(t, user.email);
    const rows = await t.db.select().from(passwordTokens).where(eq(passwordTokens.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).not.toContain(link.token);
    expect(JSON.stringify(rows)).not.toContain(link.token);
  });

  it('a weak new password is refused and the link stays usable', async () => {
    const user = await t.createUser();
    const link = await requestResetLink(t, user.email);
    const client = t.client();
    for (const weak of ['short', '12345678901', 'password1']) {
      const res = await client.post('/api/auth/password-reset-confirm/', {
        uuid: link.uuid,
        token: link.token,
        new_password: weak,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().fields.new_password).toBeTruthy();
    }
    const long = 'l'.repeat(70) + ' and more words';
    const ok = await client.post('/api/auth/password-reset-confirm/', {
      uuid: link.uuid,
      token: link.token,
      new_password: long,
    });
    expect(ok.statusCode).toBe(204);
    expect((await t.client().login(user.username, long)).statusCode).toBe(200);
  });

  it('an expired link is refused (PASSWORD_RESET_TTL_HOURS after it was made)', async () => {
    const user = await t.createUser();
    const link = await requestResetLink(t, user.email);
    // The link lives PASSWORD_RESET_TTL_HOURS; then it is made to have expired a minute
    // ago. (Not by moving the process's clock: a job worker whose poll began in the
    // moved time would wait that long once the clock came back.)
    const [token] = await t.db
      .select()
      .from(passwordTokens)
      .where(eq(passwordTokens.userId, user.id));
    expect(token!.expiresAt.getTime() - token!.created.getTime()).toBeCloseTo(
      t.config.passwordResetTtlHours * 3_600_000,
      -3,
    );
    await t.db
      .update(passwordTokens)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(passwordTokens.userId, user.id));
    const res = await t.client().post('/api/auth/password-reset-confirm/', {
      uuid: link.uuid,
      token: link.token,
      new_password: NEW_PASSWORD,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toHaveProperty('token');
    expect((await t.client().login(user.username, user.password)).statusCode).toBe(200);
  });

  it('a link is refused after a password change, after a newer link, and after signing in', async () => {
    const { user, client } = await t.signIn({ password: TEST_PASSWORD });
    const first = await requestResetLink(t, user.email);
    const second = await requestResetLink(t, user.email);
    const confirm = (link: { uuid: string; token: string }) =>
      t.client().post('/api/auth/password-reset-confirm/', {
        uuid: link.uuid,
        token: link.token,
        new_password: NEW_PASSWORD,
      });
    expect((await confirm(first)).statusCode).toBe(400); // superseded by the newer link

    const change = await client.post('/api/auth/password-change/', {
      old_password: TEST_PASSWORD,
      new_password: 'changed passphrase 99',
      new_password_confirm: 'changed passphrase 99',
    });
    expect(change.statusCode).toBe(200);
    expect((await confirm(second)).statusCode).toBe(400);

    const third = await requestResetLink(t, user.email);
    expect((await t.client().login(user.username, 'changed passphrase 99')).statusCode).toBe(200);
    expect((await confirm(third)).statusCode).toBe(400);
  });

  it("a link used with another user's uuid, a malformed uuid or a forged token is refused", async () => {
    const user = await t.createUser();
    const stranger = await t.createUser();
    const link = await requestResetLink(t, user.email);
    for (const body of [
      { uuid: stranger.id, token: link.token },
      { uuid: 'not-a-uuid', token: link.token },
      { uuid: user.id, token: 'A'.repeat(43) },
      { uuid: user.id, token: 'short' },
    ]) {
      const res = await t.client().post('/api/auth/password-reset-confirm/', {
        ...body,
        new_password: NEW_PASSWORD,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('BAD_REQUEST');
    }
    // Still usable by its owner.
    expect(
      (
        await t.client().post('/api/auth/password-reset-confirm/', {
          uuid: user.id,
          token: link.token,
          new_password: NEW_PASSWORD,
        })
      ).statusCode,
    ).toBe(204);
  });

  it('a locked user gets no reset mail', async () => {
    const user = await t.createUser({ locked: true });
    await t.client().post('/api/auth/password-reset/', { email: user.email });
    await t.app.jobs.waitForIdle([PASSWORD_RESET_JOB, MAIL_SEND_JOB]);
    expect(await lastMailTo(t, user.email)).toBeUndefined();
  });
});

describe('password reset limits [FEAT-ACCOUNT-SECURITY, SPEC-7.1]', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  let n = 0;
  const fromNewAddress = () =>
    t.client({ remoteAddress: `10.9.${Math.floor(n / 250)}.${n++ % 250}` });
  const mailsTo = async (email: string) =>
    (
      await t.db
        .select()
        .from(mailOutbox)
        .where(sql`${email} = ANY(${mailOutbox.to})`)
    ).length;

  it('at most 3 reset mails per account per hour; every request answers the same', async () => {
    const user = await t.createUser();
    const unknown = `nobody_${uid()}@example.test`;
    for (let i = 0; i < 5; i += 1) {
      for (const email of [user.email, unknown]) {
        const res = await fromNewAddress().post('/api/auth/password-reset/', { email });
        expect(res.statusCode).toBe(204);
        expect(res.body).toBe('');
      }
      await t.app.jobs.waitForIdle([PASSWORD_RESET_JOB, MAIL_SEND_JOB]);
    }
    expect(await mailsTo(user.email)).toBe(3);
    expect(await mailsTo(unknown)).toBe(0);
  });

  it('at most 10 requests per client address per 15 minutes, then 429 with Retry-After', async () => {
    const client = fromNewAddress();
    for (let i = 0; i < 10; i += 1) {
      const res = await client.post('/api/auth/password-reset/', {
        email: `x${i}_${uid()}@example.test`,
      });
      expect(res.statusCode).toBe(204);
    }
    const res = await client.post('/api/auth/password-reset/', {
      email: `y_${uid()}@example.test`,
    });
    expect(res.statusCode).toBe(429);
    expect(res.json().code).toBe('THROTTLED');
    expect(res.json().message).toMatch(
      /^Too many password reset requests\. Try again in 1[45] minutes\.$/,
    );
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(800);
    // Another address is not affected.
    const other = await fromNewAddress().post('/api/auth/password-reset/', {
      email: `z_${uid()}@example.test`,
    });
    expect(other.statusCode).toBe(204);
  });
});

describe('welcome link [FEAT-ACCOUNT-SECURITY, SPEC-7.1]', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { publicOrigin: 'https://ct.example.test' } });
  });
  afterAll(() => t.close());

  it('queueWelcomeMail mails a /welcome/{uuid}/{token} link that sets the first password', async () => {
    const user = await welcomeNewUser(t);
    await t.app.jobs.waitForIdle([MAIL_SEND_JOB]);
    const mail = await lastMailTo(t, user.email);
    expect(mail!.subject).toBe('Welcome to Coldtrace');
    expect(mail!.text).toContain('Hello Wendy Welcome,');
    expect(mail!.text).toContain(user.username);
    const match = /https:\/\/ct\.example\.test\/welcome\/([0-9a-f-]{36})\/([A-Za-z0-9_-]{43})/.exec(
      mail!.text,
    );
    expect(match?.[1]).toBe(user.id);
    const res = await t.client().post('/api/auth/password-reset-confirm/', {
      uuid: match![1],
      token: match![2],
      new_password: NEW_PASSWORD,
    });
    expect(res.statusCode).toBe(204);
    expect((await t.client().login(user.username, NEW_PASSWORD)).statusCode).toBe(200);
  });
});

describe('links in e-mails [FEAT-ACCOUNT-SECURITY, SPEC-7.1]', () => {
  let t: TestApp;
  let withOrigin: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { port: 8123, publicOrigin: undefined } });
    withOrigin = await createTestApp({
      config: { port: 8123, publicOrigin: 'https://ct.example.test' },
    });
  });
  afterAll(async () => {
    await t.close();
    await withOrigin.close();
  });

  /** The links of the reset and the welcome mail the app `on` writes to a new user. */
  async function mailedLinks(on: TestApp): Promise<string[]> {
    const reset = await on.createUser();
    const res = await on.client().post('/api/auth/password-reset/', { email: reset.email });
    expect(res.statusCode).toBe(204);
    const welcome = await welcomeNewUser(on);
    await on.app.jobs.waitForIdle([PASSWORD_RESET_JOB, MAIL_SEND_JOB]);
    const links = [];
    for (const [email, route] of [
      [reset.email, 'passwordreset'],
      [welcome.email, 'welcome'],
    ] as const) {
      const mail = await lastMailTo(on, email);
      const link = new RegExp(`\\S+/${route}/[0-9a-f-]{36}/[A-Za-z0-9_-]{43}`).exec(mail!.text);
      expect(link, `${route} link in ${mail!.text}`).not.toBeNull();
      links.push(link![0]);
    }
    return links;
  }

  it('without PUBLIC_ORIGIN they point to the port the server serves (PORT=8123)', async () => {
    const links = await mailedLinks(t);
    for (const link of links) expect(link.startsWith('http://localhost:8123/'), link).toBe(true);
  });

  it('with PUBLIC_ORIGIN they point there', async () => {
    const links = await mailedLinks(withOrigin);
    for (const link of links) expect(link.startsWith('https://ct.example.test/'), link).toBe(true);
  });
});

describe('password change [FEAT-ACCOUNT-SECURITY, SPEC-5.2, SPEC-7.1]', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const change = (body: Record<string, string>) => ({
    old_password: TEST_PASSWORD,
    new_password: NEW_PASSWORD,
    new_password_confirm: NEW_PASSWORD,
    ...body,
  });

  it('changes the password, keeps this session and ends the others', async () => {
    const { user, client } = await t.signIn();
    const other = t.client();
    expect((await other.login(user.username, TEST_PASSWORD)).statusCode).toBe(200);
    const res = await client.post('/api/auth/password-change/', change({}));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: user.id, username: user.username });
    expect((await client.get('/api/auth/session/')).statusCode).toBe(200);
    expect((await other.get('/api/auth/session/')).statusCode).toBe(401);
    const left = await t.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(left).toHaveLength(1);
    expect((await t.client().login(user.username, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('a wrong current password: 400 on old_password, nothing changed', async () => {
    const { user, client } = await t.signIn();
    const res = await client.post(
      '/api/auth/password-change/',
      change({ old_password: 'nope nope' }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({
      old_password: 'Your old password was entered incorrectly. Please enter it again.',
    });
    expect((await t.client().login(user.username, TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('guessing the old password is throttled like sign-in, and counts against it', async () => {
    const { user, client } = await t.signIn();
    // A session taken to another browser: no device cookie of the user.
    client.cookies.delete('deviceid');
    for (let i = 0; i < 5; i += 1) {
      const res = await client.post(
        '/api/auth/password-change/',
        change({ old_password: `guess ${i}` }),
      );
      expect(res.statusCode).toBe(400);
    }
    const res = await client.post('/api/auth/password-change/', change({}));
    expect(res.statusCode).toBe(429);
    expect(res.json().code).toBe('THROTTLED');
    expect(Object.keys(res.json().fields)).toEqual(['old_password']);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect((await t.client().login(user.username, TEST_PASSWORD)).statusCode).toBe(429);
  });

  it('mismatched confirmation and weak passwords answer per field', async () => {
    const { client } = await t.signIn();
    const mismatch = await client.post(
      '/api/auth/password-change/',
      change({ new_password_confirm: 'something else 1' }),
    );
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().fields).toEqual({ new_password_confirm: 'Passwords do not match' });
    const weak = await client.post(
      '/api/auth/password-change/',
      change({ new_password: '87654321', new_password_confirm: '87654321' }),
    );
    expect(weak.statusCode).toBe(400);
    expect(weak.json().fields).toEqual({ new_password: 'This password is entirely numeric.' });
    const guessable = await client.post(
      '/api/auth/password-change/',
      change({ new_password: 'Password2024', new_password_confirm: 'Password2024' }),
    );
    expect(guessable.statusCode).toBe(400);
    expect(guessable.json().code).toBe('VALIDATION_ERROR');
    expect(Object.keys(guessable.json().fields)).toEqual(['new_password']);
    expect(guessable.json().fields.new_password).toMatch(/^This password is too easy to guess\./);
  });

  it('all three fields are required; anonymous callers get 401', async () => {
    const { client } = await t.signIn();
    const res = await client.post('/api/auth/password-change/', { old_password: TEST_PASSWORD });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().fields).sort()).toEqual(['new_password', 'new_password_confirm']);
    expect((await t.client().post('/api/auth/password-change/', change({}))).statusCode).toBe(401);
  });
});
