import { Writable } from 'node:stream';
import { SESSION_COOKIE } from '@coldtrace/contract';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PASSWORD, type TestApp } from '../../../../test/helpers';
import { eventually, startSmtpSink, type SmtpSink } from '../../../../test/smtp-sink';
import { MAIL_SEND_JOB, PASSWORD_RESET_JOB } from '../../../jobs/catalogue';
import { loggerOptions } from '../../../logger';

/** Security properties of the account flows, with mail delivered to a real SMTP server. */
describe('account security [FEAT-ACCOUNT-SECURITY]', () => {
  let sink: SmtpSink;
  let t: TestApp;
  let log = '';

  beforeAll(async () => {
    sink = await startSmtpSink();
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        log += chunk.toString();
        done();
      },
    });
    t = await createTestApp({
      config: {
        mail: { smtpUrl: sink.url, from: 'Coldtrace <no-reply@ct.test>', retryDelaySeconds: 1 },
      },
      // The server's own logger options (serializers, redaction), at the most verbose level.
      logger: pino(loggerOptions('trace', false), stream),
    });
  });
  afterAll(async () => {
    await t.close();
    await sink.close();
  });

  it('the session id changes at sign-in', async () => {
    const user = await t.createUser();
    const client = t.client();
    await client.login(user.username, user.password);
    const first = client.sessionToken;
    await client.login(user.username, user.password);
    const second = client.sessionToken;
    expect(first).toBeTruthy();
    expect(second).toBeTruthy();
    expect(second).not.toBe(first);
    // The replaced session is gone.
    const replay = t.client();
    replay.cookies.set(SESSION_COOKIE, first!);
    expect((await replay.get('/api/auth/session/')).statusCode).toBe(401);
  });

  it('a signed-out cookie replayed gives 401', async () => {
    const { client } = await t.signIn();
    const token = client.sessionToken!;
    expect((await client.get('/api/auth/logout/')).statusCode).toBe(204);
    const replay = t.client();
    replay.cookies.set(SESSION_COOKIE, token);
    const res = await replay.get('/api/auth/session/');
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('UNAUTHENTICATED');
  });

  it('no password, token or reset link secret appears in the log of a whole reset and change', async () => {
    const user = await t.createUser();
    const secrets: string[] = [user.password];

    const client = t.client();
    await client.login(user.username, user.password);
    secrets.push(client.sessionToken!);
    expect((await client.post('/api/auth/password-reset/', { email: user.email })).statusCode).toBe(
      204,
    );
    await t.app.jobs.waitForIdle([PASSWORD_RESET_JOB, MAIL_SEND_JOB]);
    const mail = await eventually(
      () => sink.messages.find((m) => m.envelopeTo.includes(user.email)),
      (m) => m !== undefined,
    );
    const match = /\/passwordreset\/([0-9a-f-]{36})\/([A-Za-z0-9_-]{43})/.exec(mail!.text ?? '');
    expect(match).not.toBeNull();
    const token = match![2]!;
    secrets.push(token);

    const reset = 'reset passphrase for the log test';
    secrets.push(reset);
    const confirmed = await t.client().post('/api/auth/password-reset-confirm/', {
      uuid: match![1],
      token,
      new_password: reset,
    });
    expect(confirmed.statusCode).toBe(204);
    // A failed attempt with the same (now dead) token, and a failed sign-in.
    await t.client().post('/api/auth/password-reset-confirm/', {
      uuid: match![1],
      token,
      new_password: reset,
    });
    await t.client().login(user.username, 'a wrong password in the log test');
    secrets.push('a wrong password in the log test');

    const signedIn = t.client();
    await signedIn.login(user.username, reset);
    secrets.push(signedIn.sessionToken!);
    const changed = 'changed passphrase for the log test';
    secrets.push(changed);
    expect(
      (
        await signedIn.post('/api/auth/password-change/', {
          old_password: reset,
          new_password: changed,
          new_password_confirm: changed,
        })
      ).statusCode,
    ).toBe(200);

    expect(log.length).toBeGreaterThan(1000); // requests were logged at all
    for (const secret of secrets) expect(log).not.toContain(secret);
    expect(log).not.toContain(TEST_PASSWORD);
  });

  it('no API key, device token or invitation link secret appears in the log of their use', async () => {
    const { client, orgs } = await t.signIn({ role: 'Administrator' });
    const secrets = [client.sessionToken!];
    const key = (await client.post('/api/keys/generate/', { name: 'log test key' })).json()
      .private_key as string;
    // The secret after `ct_<prefix>_` (base64url: it may itself contain `_`).
    secrets.push(key, key.split('_').slice(2).join('_'));
    for (const headers of [{ authorization: `Api-Key ${key}` }, { 'x-api-key': key }]) {
      const res = await t.inject({ method: 'POST', url: '/api/keys/authenticate/', headers });
      expect(res.statusCode).toBe(200);
    }
    // A wrong key is refused and not logged either.
    const wrong = `${key.slice(0, -4)}AAAA`;
    secrets.push(wrong);
    const refused = await t.inject({
      method: 'POST',
      url: '/api/keys/authenticate/',
      headers: { authorization: `Api-Key ${wrong}` },
    });
    expect(refused.statusCode).toBe(401);

    const issued = await client.post('/api/auth/tokens/', { name: 'log test', expiry_days: 1 });
    expect(issued.statusCode).toBe(200);
    const token = issued.json().token as string;
    secrets.push(token);
    const devices = await t.inject({
      method: 'GET',
      url: '/api/devices/xt1/',
      headers: { authorization: `Token ${token}` },
    });
    expect(devices.statusCode).toBe(200);

    const email = `welcome-log-${Date.now()}@ct.test`;
    const roles = (await client.get('/api/auth/role-permissions/')).json() as {
      id: string;
      name: string;
    }[];
    const registered = await client.post('/api/auth/users/', {
      username: `welcome-log-${Date.now()}`,
      email,
      first_name: 'Wendy',
      last_name: 'Welcome',
      organization_id: orgs[0]!.id,
      role_id: roles.find((r) => r.name === 'Viewer')!.id,
    });
    expect(registered.statusCode, registered.body).toBeLessThan(300);
    const mail = await eventually(
      () => sink.messages.find((m) => m.envelopeTo.includes(email)),
      (m) => m !== undefined,
    );
    const link = /\/invitation\/([0-9a-f-]{36})\/([A-Za-z0-9_-]{43})/.exec(mail!.text ?? '');
    expect(link).not.toBeNull();
    secrets.push(link![2]!);
    // Its page is opened (the request log hides the token) and the page checks the link.
    await t.inject({ method: 'GET', url: `/invitation/${link![1]}/${link![2]}` });
    const checked = await t
      .client()
      .post('/api/auth/invitation-validate/', { uuid: link![1], token: link![2] });
    expect(checked.statusCode, checked.body).toBe(200);
    expect(log).toContain(`/invitation/${link![1]}/[redacted]`);

    expect(log).toContain('/api/keys/authenticate/'); // the requests were logged
    for (const secret of secrets) expect(log).not.toContain(secret);
  });

  it('50 wrong passwords sent in parallel are throttled', async () => {
    const user = await t.createUser();
    const replies = await Promise.all(
      Array.from({ length: 50 }, () => t.client().login(user.username, 'not the password')),
    );
    const codes = replies.map((r) => r.statusCode);
    // At most the account's allowance gets through to a password check; the rest are 429.
    expect(codes.filter((c) => c === 400 || c === 401).length).toBeLessThanOrEqual(5);
    expect(codes.filter((c) => c === 429).length).toBeGreaterThanOrEqual(45);
    // And the right password is refused too while throttled (from a browser it never signed in on).
    expect((await t.client().login(user.username, user.password)).statusCode).toBe(429);
  });

  it('50 wrong passwords in parallel with a stolen device cookie: at most twice the allowance', async () => {
    const user = await t.createUser();
    const known = t.client();
    expect((await known.login(user.username, user.password)).statusCode).toBe(200);
    const device = known.cookies.get('deviceid')!;
    const replies = await Promise.all(
      Array.from({ length: 50 }, () => {
        const thief = t.client();
        thief.cookies.set('deviceid', device);
        return thief.login(user.username, 'not the password');
      }),
    );
    const codes = replies.map((r) => r.statusCode);
    // The device cookie's 5, then the account's 5: the cookie is no longer trusted after its own.
    expect(codes.filter((c) => c === 400).length).toBeLessThanOrEqual(10);
    expect(codes.filter((c) => c === 429).length).toBeGreaterThanOrEqual(40);
  });
});
