import { DISTANCE_UNITS, ZOrganizationSettings } from '@coldtrace/contract';
import { fromMetres, toMetres } from '@coldtrace/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizationSettings } from '../../db/schema-shipments';
import { createTestApp, type TestApp } from '../../../test/helpers';
import { createRole, expectError, expectInvalid } from './test-kit';

const URL = '/api/auth/org-settings/';

const DEFAULTS = {
  arrival_radius_meters: 1000,
  arrival_radius_units: 'm',
  departure_radius_meters: 1000,
  departure_radius_units: 'm',
  num_points_to_arrive: 2,
  num_points_to_depart: 2,
};
/** Issue 14 item 7: the calibration settings until changed. */
const CALIBRATION_DEFAULTS = {
  calibration_validity_months: 12,
  calibration_due_soon_days: 30,
  expired_calibration_start: 'WARN',
};

describe('organization settings (geo-fence) [RULE-TRIP-2, RULE-ALARM-2, SPEC-7.1]', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const storedRow = async (organizationId: string) => {
    const [row] = await t.db
      .select()
      .from(organizationSettings)
      .where(eq(organizationSettings.organizationId, organizationId));
    return row;
  };

  it('answers the defaults, creating the row on first read', async () => {
    const { client, orgs } = await t.signIn({ role: 'Viewer' });
    const orgId = orgs[0]!.id;
    expect(await storedRow(orgId)).toBeUndefined();
    const res = await client.get(URL);
    expect(res.statusCode).toBe(200);
    expect(ZOrganizationSettings.parse(res.json())).toEqual({
      id: orgId,
      geo_fence_settings: { id: orgId, ...DEFAULTS },
      calibration_settings: CALIBRATION_DEFAULTS,
      no_data_factor: 3,
      allow_release_in_transit: false,
      second_factor_for_signers: false,
      second_factor_for_administrators: false,
    });
    expect(await storedRow(orgId)).toBeDefined();
    expect((await client.get(URL)).json()).toEqual(res.json());
  });

  it('sets radii in metres with a display unit, and the point counts', async () => {
    const { client, orgs } = await t.signIn({ role: 'Administrator' });
    const res = await client.patch(URL, {
      geo_fence_settings: {
        arrival_radius_meters: 500,
        arrival_radius_units: 'km',
        num_points_to_arrive: 3,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().geo_fence_settings).toEqual({
      ...DEFAULTS,
      id: orgs[0]!.id,
      arrival_radius_meters: 500,
      arrival_radius_units: 'km',
      num_points_to_arrive: 3,
    });
    expect((await client.get(URL)).json()).toEqual(res.json());

    // Only the display unit: the radius in metres stays.
    const unitOnly = await client.patch(URL, {
      geo_fence_settings: { departure_radius_units: 'ft' },
    });
    expect(unitOnly.json().geo_fence_settings).toMatchObject({
      departure_radius_meters: 1000,
      departure_radius_units: 'ft',
      num_points_to_depart: 2,
    });
  });

  it('converts a radius given in a unit: 1 mi is stored as 1609.344 m and reads back as 1 mi', async () => {
    const { client, orgs } = await t.signIn({ role: 'Administrator' });
    const res = await client.patch(URL, {
      geo_fence_settings: { arrival_radius: 1, arrival_radius_units: 'mi' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const fence = res.json().geo_fence_settings;
    expect(fence).toMatchObject({ arrival_radius_meters: 1609.344, arrival_radius_units: 'mi' });
    expect((await storedRow(orgs[0]!.id))?.arrivalRadiusMeters).toBe(1609.344);
    expect(fromMetres(fence.arrival_radius_meters, fence.arrival_radius_units)).toBe(1);

    // A value without a unit is in the stored unit (mi).
    const again = await client.patch(URL, { geo_fence_settings: { arrival_radius: 2 } });
    expect(again.json().geo_fence_settings.arrival_radius_meters).toBe(3218.688);

    // Sending back what GET answered changes nothing.
    const current = (await client.get(URL)).json();
    const echoed = await client.patch(URL, current);
    expect(echoed.statusCode, echoed.body).toBe(200);
    expect(echoed.json()).toEqual(current);
  });

  it('accepts every distance unit of the contract and round-trips through metres', async () => {
    const { client } = await t.signIn({ role: 'Administrator' });
    for (const unit of DISTANCE_UNITS) {
      const value = 250;
      const res = await client.patch(URL, {
        geo_fence_settings: { departure_radius: value, departure_radius_units: unit },
      });
      expect(res.statusCode, `${unit}: ${res.body}`).toBe(200);
      const fence = res.json().geo_fence_settings;
      expect(fence.departure_radius_units).toBe(unit);
      expect(fence.departure_radius_meters).toBe(toMetres(value, unit));
      expect(fromMetres(fence.departure_radius_meters, unit)).toBeCloseTo(value, 9);
    }
  });

  it('refuses bad values with a 400 naming the field', async () => {
    const { client, orgs } = await t.signIn({ role: 'Administrator' });
    const field = (name: string) => `geo_fence_settings.${name}`;
    const bad: [Record<string, unknown>, string][] = [
      [{ arrival_radius_units: 'parsec' }, field('arrival_radius_units')],
      [{ departure_radius_units: 'M' }, field('departure_radius_units')],
      [{ arrival_radius_meters: 1e12 }, field('arrival_radius_meters')],
      [{ arrival_radius_meters: 1_000_000.5 }, field('arrival_radius_meters')],
      [{ arrival_radius_meters: 0 }, field('arrival_radius_meters')],
      [{ departure_radius_meters: -5 }, field('departure_radius_meters')],
      [{ departure_radius_meters: '100' }, field('departure_radius_meters')],
      [{ arrival_radius: 1000, arrival_radius_units: 'mi' }, field('arrival_radius')],
      [{ arrival_radius: 1e12 }, field('arrival_radius')],
      [{ arrival_radius: 1e308, arrival_radius_units: 'km' }, field('arrival_radius')],
      [{ arrival_radius: 0 }, field('arrival_radius')],
      [{ departure_radius: 10, departure_radius_meters: 10 }, field('departure_radius')],
      [{ num_points_to_arrive: 0 }, field('num_points_to_arrive')],
      [{ num_points_to_arrive: 101 }, field('num_points_to_arrive')],
      [{ num_points_to_depart: 1.5 }, field('num_points_to_depart')],
      [{ num_points_to_depart: 1e9 }, field('num_points_to_depart')],
      [{}, 'geo_fence_settings'],
      [{ id: 'x' }, 'geo_fence_settings'],
    ];
    for (const [geoFence, name] of bad) {
      expectInvalid(await client.patch(URL, { geo_fence_settings: geoFence }), name);
    }
    expectInvalid(await client.patch(URL, {}), 'geo_fence_settings');
    expectInvalid(await client.patch(URL, { geo_fence_settings: 'wide' }), 'geo_fence_settings');

    // Nothing was changed by the refused edits; the largest radius is accepted.
    expect((await client.get(URL)).json().geo_fence_settings).toMatchObject(DEFAULTS);
    const largest = await client.patch(URL, {
      geo_fence_settings: {
        arrival_radius: 1000,
        arrival_radius_units: 'km',
        num_points_to_arrive: 100,
        num_points_to_depart: 1,
      },
    });
    expect(largest.statusCode, largest.body).toBe(200);
    expect((await storedRow(orgs[0]!.id))?.arrivalRadiusMeters).toBe(1_000_000);
  });

  it('belongs to the session organization', async () => {
    const orgA = await t.createOrg();
    const orgB = await t.createOrg();
    const { client } = await t.signIn({ role: 'Administrator', orgs: [orgA, orgB] });
    const first = (await client.get(URL)).json().id as string;
    const second = first === orgA.id ? orgB.id : orgA.id;
    await client.patch(URL, { geo_fence_settings: { num_points_to_arrive: 7 } });

    expect((await client.patch('/api/auth/session/', { id: second })).statusCode).toBe(200);
    const res = await client.get(URL);
    expect(res.json()).toEqual({
      id: second,
      geo_fence_settings: { id: second, ...DEFAULTS },
      calibration_settings: CALIBRATION_DEFAULTS,
      no_data_factor: 3,
      allow_release_in_transit: false,
      second_factor_for_signers: false,
      second_factor_for_administrators: false,
    });
    // The id in the body is ignored: the session's organization is edited.
    await client.patch(URL, {
      id: first,
      geo_fence_settings: { id: first, num_points_to_depart: 9 },
    });
    expect((await storedRow(first))?.numPointsToDepart).toBe(2);
    expect((await storedRow(second))?.numPointsToDepart).toBe(9);
    expect((await storedRow(first))?.numPointsToArrive).toBe(7);
  });

  it('any member reads; editing needs sysAdminLoc, sysAdminOrgInfo or sysAdminUser', async () => {
    const org = await t.createOrg();
    const patch = { geo_fence_settings: { num_points_to_arrive: 4 } };
    for (const role of ['Viewer', 'Operator'] as const) {
      const { client } = await t.signIn({ role, orgs: [org] });
      expect((await client.get(URL)).statusCode).toBe(200);
      expectError(await client.patch(URL, patch), 403, 'FORBIDDEN');
    }
    const { client: manager } = await t.signIn({ role: 'Manager', orgs: [org] });
    expect((await manager.patch(URL, patch)).statusCode).toBe(200);
    for (const permission of ['sysAdminLoc', 'sysAdminOrgInfo', 'sysAdminUser'] as const) {
      const role = await createRole(t, org, [permission]);
      const { client } = await t.signIn({ role, orgs: [org] });
      expect((await client.patch(URL, patch)).statusCode, permission).toBe(200);
    }
    const nothing = await createRole(t, org, []);
    const { client: member } = await t.signIn({ role: nothing, orgs: [org] });
    expect((await member.get(URL)).statusCode).toBe(200);
    expectError(await member.patch(URL, patch), 403, 'FORBIDDEN');
  });

  it('needs a session (401), the CSRF header (403) and an organization', async () => {
    const anonymous = t.client();
    expectError(await anonymous.get(URL), 401, 'UNAUTHENTICATED');
    expectError(
      await anonymous.patch(URL, { geo_fence_settings: { num_points_to_arrive: 3 } }),
      401,
      'UNAUTHENTICATED',
    );
    const { client } = await t.signIn({ role: 'Administrator' });
    const res = await client.request({
      method: 'PATCH',
      url: URL,
      payload: { geo_fence_settings: { num_points_to_arrive: 3 } },
      csrf: false,
    });
    expectError(res, 403, 'CSRF_FAILED');

    const { client: orphan } = await t.signIn({ orgs: [] });
    expectError(await orphan.get(URL), 403, 'FORBIDDEN');
  });
});
