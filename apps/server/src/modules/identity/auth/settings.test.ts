import { ZOrgLevelUserSettings } from '@coldtrace/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userSettings } from '../../../db/schema';
import { createTestApp, type TestApp } from '../../../../test/helpers';

describe('user settings [SPEC-7.1, SPEC-2.7, SPEC-5.7]', () => {
  let t: TestApp;
  const storedZone = async (userId: string) => {
    const [row] = await t.db
      .select({ timezone: userSettings.timezone })
      .from(userSettings)
      .where(eq(userSettings.userId, userId));
    return row?.timezone;
  };
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('sets the temperature unit and the time zone', async () => {
    const { client } = await t.signIn();
    let res = await client.patch('/api/auth/user-settings/', { degrees_unit: 'F' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ degrees_unit: 'F', timezone: 'UTC' });
    res = await client.patch('/api/auth/user-settings/', { timezone: 'europe/berlin' });
    expect(res.json()).toEqual({ degrees_unit: 'F', timezone: 'Europe/Berlin' });
    const session = (await client.get('/api/auth/session/')).json();
    expect(session.settings).toEqual({ degrees_unit: 'F', timezone: 'Europe/Berlin' });
  });

  it('stores a known alias as its supported zone, and shows what it stored', async () => {
    const { client, user } = await t.signIn();
    for (const [given, stored] of [
      ['Asia/Kolkata', 'Asia/Calcutta'],
      ['Europe/Kyiv', 'Europe/Kiev'],
      ['Europe/Kiev', 'Europe/Kiev'],
      ['US/Eastern', 'America/New_York'],
      ['etc/utc', 'UTC'],
    ] as const) {
      const res = await client.patch('/api/auth/user-settings/', { timezone: given });
      expect(res.statusCode).toBe(200);
      expect(res.json().timezone).toBe(stored);
      expect((await client.get('/api/auth/session/')).json().settings.timezone).toBe(stored);
      expect(await storedZone(user.id)).toBe(stored);
    }
  });

  it('a time zone outside the supported list falls back to UTC (spec section 5)', async () => {
    const { client, user } = await t.signIn();
    for (const given of ['Etc/GMT+5', 'Etc/GMT-14', 'etc/gmt+12']) {
      await client.patch('/api/auth/user-settings/', { timezone: 'Europe/Berlin' });
      const res = await client.patch('/api/auth/user-settings/', { timezone: given });
      expect(res.statusCode).toBe(200);
      expect(res.json().timezone).toBe('UTC');
      expect((await client.get('/api/auth/session/')).json().settings.timezone).toBe('UTC');
      expect(await storedZone(user.id)).toBe('UTC');
    }
  });

  it('a zone stored before the list was enforced is shown as the zone it is taken for', async () => {
    const { client, user } = await t.signIn();
    for (const [stored, shown] of [
      ['Etc/GMT+5', 'UTC'],
      ['Asia/Kolkata', 'Asia/Calcutta'],
    ] as const) {
      await t.db
        .update(userSettings)
        .set({ timezone: stored })
        .where(eq(userSettings.userId, user.id));
      expect((await client.get('/api/auth/session/')).json().settings.timezone).toBe(shown);
      // Changing only the unit answers the zone shown too.
      const res = await client.patch('/api/auth/user-settings/', { degrees_unit: 'F' });
      expect(res.json().timezone).toBe(shown);
    }
  });

  it('refuses an unknown time zone with a 400 naming timezone', async () => {
    const { client } = await t.signIn();
    for (const timezone of ['Mars/Olympus_Mons', '+01:00', '../../etc/passwd', 'Europe/Berlin ']) {
      const res = await client.patch('/api/auth/user-settings/', { timezone });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
      expect(Object.keys(res.json().fields)).toEqual(['timezone']);
    }
  });

  it('refuses a unit other than C or F, and an empty update, naming the field', async () => {
    const { client } = await t.signIn();
    let res = await client.patch('/api/auth/user-settings/', { degrees_unit: 'K' });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.degrees_unit).toBe('Field \'degrees_unit\' must be one of "C", "F"');
    res = await client.patch('/api/auth/user-settings/', {});
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toHaveProperty('degrees_unit');
  });

  it('needs a session', async () => {
    const res = await t.client().patch('/api/auth/user-settings/', { degrees_unit: 'F' });
    expect(res.statusCode).toBe(401);
  });
});

describe('user organization settings [SPEC-7.1, RULE-NOTIFY-2]', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('sets the alarm flags of the session organization and answers lists of organization ids', async () => {
    const orgA = await t.createOrg();
    const orgB = await t.createOrg();
    const { client } = await t.signIn({ orgs: [orgA, orgB] });
    const first = (await client.get('/api/auth/session/')).json().last_session_org_id as string;
    const second = first === orgA.id ? orgB.id : orgA.id;

    let res = await client.patch('/api/auth/user-org-settings/', {
      alarm_notify_my_scans: true,
      alarm_notify_any_scans: false,
    });
    expect(res.statusCode).toBe(200);
    expect(ZOrgLevelUserSettings.parse(res.json())).toEqual({
      alarm_notify_my_scans_orgs: [first],
      alarm_notify_any_scans_orgs: [],
    });

    await client.patch('/api/auth/session/', { id: second });
    res = await client.patch('/api/auth/user-org-settings/', {
      alarm_notify_my_scans: true,
      alarm_notify_any_scans: true,
    });
    expect(res.json().alarm_notify_my_scans_orgs.sort()).toEqual([first, second].sort());
    expect(res.json().alarm_notify_any_scans_orgs).toEqual([second]);

    res = await client.patch('/api/auth/user-org-settings/', {
      alarm_notify_my_scans: false,
      alarm_notify_any_scans: false,
    });
    expect(res.json()).toEqual({
      alarm_notify_my_scans_orgs: [first],
      alarm_notify_any_scans_orgs: [],
    });
    const session = (await client.get('/api/auth/session/')).json();
    expect(session.org_settings).toEqual(res.json());
  });

  it('needs both booleans', async () => {
    const { client } = await t.signIn();
    const res = await client.patch('/api/auth/user-org-settings/', {
      alarm_notify_my_scans: 'yes',
    });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().fields).sort()).toEqual([
      'alarm_notify_any_scans',
      'alarm_notify_my_scans',
    ]);
  });
});
