import { ZUser } from '@coldtrace/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/helpers';
import { recordFactories } from '../../../../test/record-factories';

/**
 * Issue 11: one user signed in on two devices. The organization is per
 * session: switching on one device leaves the other working in, and showing,
 * its own organization; the session reply names the organization whose
 * records the session lists.
 */
describe('the session organization is per session [SPEC-1, SPEC-2.5]', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('two devices: a switch on one changes neither the name nor the records of the other', async () => {
    const home = await t.createOrg(`Home ${Math.random()}`);
    const other = await t.createOrg(`Other ${Math.random()}`);
    const user = await t.createUser({ role: 'Manager', orgs: [home, other] });
    const f = recordFactories(t.db);
    const homeRecord = await f.record(home, await f.tag(home));
    const otherRecord = await f.record(other, await f.tag(other));

    const laptop = t.client();
    const phone = t.client();
    expect((await laptop.login(user.username, user.password)).statusCode).toBe(200);
    expect((await phone.login(user.username, user.password)).statusCode).toBe(200);
    const start = ZUser.parse((await laptop.get('/api/auth/session/')).json()).last_session_org_id;
    expect(start).toBe(
      ZUser.parse((await phone.get('/api/auth/session/')).json()).last_session_org_id,
    );
    const [first, second] = start === home.id ? [home, other] : [other, home];
    const recordOf = (org: { id: string }) =>
      String((org.id === home.id ? homeRecord : otherRecord).id);

    const recordIds = async (client: ReturnType<TestApp['client']>) => {
      const res = await client.get('/api/devices/xt1/records/');
      expect(res.statusCode).toBe(200);
      const body = res.json() as { results?: { id: string }[] } | { id: string }[];
      const rows = Array.isArray(body) ? body : (body.results ?? []);
      return rows.map((r) => String(r.id));
    };

    // The phone switches; the laptop keeps working in, and naming, the first organization.
    const switched = await phone.patch('/api/auth/session/', { id: second.id });
    expect(switched.statusCode).toBe(200);
    expect(ZUser.parse(switched.json()).last_session_org_id).toBe(second.id);

    const laptopSession = ZUser.parse((await laptop.get('/api/auth/session/')).json());
    expect(laptopSession.last_session_org_id).toBe(first.id);
    expect(await recordIds(laptop)).toEqual([recordOf(first)]);

    const phoneSession = ZUser.parse((await phone.get('/api/auth/session/')).json());
    expect(phoneSession.last_session_org_id).toBe(second.id);
    expect(await recordIds(phone)).toEqual([recordOf(second)]);

    // Choosing the second organization on the laptop does switch it.
    const again = await laptop.patch('/api/auth/session/', { id: second.id });
    expect(ZUser.parse(again.json()).last_session_org_id).toBe(second.id);
    expect(await recordIds(laptop)).toEqual([recordOf(second)]);

    // And the phone going back to the first leaves the laptop where it is.
    await phone.patch('/api/auth/session/', { id: first.id });
    const laptopAfter = ZUser.parse((await laptop.get('/api/auth/session/')).json());
    expect(laptopAfter.last_session_org_id).toBe(second.id);
    expect(await recordIds(laptop)).toEqual([recordOf(second)]);
    expect(ZUser.parse((await phone.get('/api/auth/session/')).json()).last_session_org_id).toBe(
      first.id,
    );
    expect(await recordIds(phone)).toEqual([recordOf(first)]);
  });
});
