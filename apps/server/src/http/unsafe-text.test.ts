import { SESSION_COOKIE } from '@coldtrace/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PASSWORD, type TestApp, type TestClient } from '../../test/helpers';
import { recordFactories } from '../../test/record-factories';
import {
  deviceUser,
  serial,
  tagBySerial,
  xt1Body,
  type DeviceUser,
} from '../../test/shipment-factories';
import { PASSWORD_RESET_JOB } from '../jobs/catalogue';

/**
 * Issue 10: a NUL character or a lone UTF-16 surrogate in any string of any
 * call (body, query, headers) answers 400 VALIDATION_ERROR naming the field,
 * before anything reaches PostgreSQL (which answered 500 before).
 */
describe('NUL characters and lone surrogates in requests [FEAT-INPUT-SAFETY]', () => {
  let t: TestApp;
  let manager: DeviceUser;

  beforeAll(async () => {
    t = await createTestApp();
    manager = await deviceUser(t, { role: 'Administrator' });
  });
  afterAll(() => t.close());

  function expectFieldRejected(res: { statusCode: number; json(): unknown }, field: string): void {
    expect(res.statusCode).toBe(400);
    const body = res.json() as { code: string; message: string; fields?: Record<string, string> };
    expect(body.code).toBe('VALIDATION_ERROR');
    expect(body.fields?.[field]).toMatch(
      new RegExp(`'${field.replace(/\./g, '\\.')}' contains a character that is not allowed`),
    );
    expect(body.message).toContain(`'${field}'`);
  }

  /** A raw JSON text: JSON.stringify would write "\ud800" as the escape, which is what we want. */
  const json = (value: unknown) => ({
    payload: JSON.stringify(value),
    headers: { 'content-type': 'application/json' },
  });

  it('anonymous sign-in: 400 naming the field, no session', async () => {
    const user = await t.createUser();
    for (const [field, body] of [
      [
        'email_or_username',
        { email_or_username: `${user.username}\u0000`, password: TEST_PASSWORD },
      ],
      ['email_or_username', { email_or_username: '\ud800', password: TEST_PASSWORD }],
      ['password', { email_or_username: user.username, password: `${TEST_PASSWORD}\udfff` }],
    ] as const) {
      const client = t.client();
      const res = await client.post('/api/auth/login/', body);
      expectFieldRejected(res, field);
      expect(client.sessionToken).toBeUndefined();
      expect(client.cookies.has(SESSION_COOKIE)).toBe(false);
    }
    // The JSON escape form reaches the same check (what a hostile client sends on the wire).
    const client = t.client();
    await client.csrf();
    const raw = await client.request({
      method: 'POST',
      url: '/api/auth/login/',
      ...json({ email_or_username: 'x', password: 'y' }),
    });
    expect(raw.statusCode).toBe(400); // wrong credentials, not a 500
    const escaped = await client.request({
      method: 'POST',
      url: '/api/auth/login/',
      payload: '{"email_or_username":"a\\u0000b","password":"\\ud800"}',
      headers: { 'content-type': 'application/json' },
    });
    expectFieldRejected(escaped, 'email_or_username');
  });

  it('password reset: 400 naming the field, no job queued', async () => {
    const before = await resetJobs();
    const res = await t
      .client()
      .post('/api/auth/password-reset/', { email: 'x\u0000@example.test' });
    expectFieldRejected(res, 'email');
    const lone = await t
      .client()
      .post('/api/auth/password-reset/', { email: '\udc00@example.test' });
    expectFieldRejected(lone, 'email');
    expect(await resetJobs()).toBe(before);
  });

  it('device upload (xt1 start): 400 naming the field, no tag or record created', async () => {
    const sn = serial('NUL');
    const res = await manager.client.post(
      '/api/devices/xt1/start-action/',
      xt1Body(sn, { po_number: 'PO\u0000-1', start_time_seconds: 1_735_689_600 }),
    );
    expectFieldRejected(res, 'po_number');
    const bySerial = await manager.device.post(
      '/api/devices/xt1/start-action/',
      xt1Body(`${sn}\ud800`, { start_time_seconds: 1_735_689_600 }),
    );
    expectFieldRejected(bySerial, 'tag_id');
    expect(await tagBySerial(t.db, sn)).toBeUndefined();
  });

  it('calibration upload: a nested field is named by its dotted path, nothing stored', async () => {
    const tag = await recordFactories(t.db).tag(manager.org);
    const count = async () =>
      Number(
        (
          await t.db.execute<{ n: string }>(
            sql`SELECT count(*) AS n FROM calibration_certificates WHERE organization_id = ${manager.org.id}`,
          )
        ).rows[0]!.n,
      );
    const before = await count();
    const res = await manager.client.post('/api/devices/xt1/calibration/', {
      model_name: 'XT1',
      equipment: [
        { manufacturer: 'Fluke', model: '1524', serial_number: 'A', description: 'ok' },
        { manufacturer: 'Fluke\u0000', model: '1524', serial_number: 'B', description: 'ok' },
      ],
      specifications: [{ temperature_range_low: -30, temperature_range_high: 50, dut_error: 0.5 }],
      calibrated_devices: [
        {
          device_id: tag.id,
          tag_type: 'XT1_NFC_MU',
          calibration_timestamp: '2026-06-15T09:30:00Z',
        },
      ],
    });
    expectFieldRejected(res, 'equipment.1.manufacturer');
    expect(await count()).toBe(before);
  });

  it('query strings: 400 naming the parameter', async () => {
    const client: TestClient = manager.client;
    const search = await client.get('/api/devices/xt1/records/?search=abc%00def');
    expectFieldRejected(search, 'search');
    const latest = await client.get('/api/devices/xt1/latest-record/?tag_id_or_serial_number=%00');
    expectFieldRejected(latest, 'tag_id_or_serial_number');
    // A percent-encoded lone surrogate is not valid UTF-8: never a 5xx.
    const lone = await client.get('/api/devices/xt1/records/?search=%ED%A0%80');
    expect(lone.statusCode).toBeLessThan(500);
  });

  it('headers that reach the database: 400, no session stored', async () => {
    const user = await t.createUser();
    const client = t.client();
    await client.csrf();
    const res = await client.post(
      '/api/auth/login/',
      { email_or_username: user.username, password: TEST_PASSWORD },
      { 'user-agent': 'Mozilla\u0000/5.0' },
    );
    expect(res.statusCode).toBe(400);
    expect((res.json() as { fields?: Record<string, string> }).fields?.['user-agent']).toMatch(
      /not allowed/,
    );
    expect(client.sessionToken).toBeUndefined();
    const sessions = await t.db.execute<{ n: string }>(
      sql`SELECT count(*) AS n FROM sessions WHERE user_id = ${user.id}`,
    );
    expect(Number(sessions.rows[0]!.n)).toBe(0);
  });

  it('ordinary non-ASCII text and emoji still pass', async () => {
    const user = await t.createUser();
    const res = await t.client().login(user.username, 'Kühlkette 2–8 °C 🧊 漢字');
    // Wrong password, but a normal 400 of the login, not the hostile-text one.
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json())).not.toMatch(/not allowed/);
  });

  async function resetJobs(): Promise<number> {
    const rows = await t.db.execute<{ n: string }>(
      sql`SELECT count(*) AS n FROM pgboss.job WHERE name = ${PASSWORD_RESET_JOB}`,
    );
    return Number(rows.rows[0]!.n);
  }
});
