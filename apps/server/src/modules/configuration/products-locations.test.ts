import { productsCalls, ZDropdownInfo, ZNameAndAddressLocation } from '@coldtrace/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestClient, type TestOrg } from '../../../test/helpers';
import { createRole, expectError, expectInvalid, expectIso } from './test-kit';
import {
  berlin,
  CARRIERS,
  DROPDOWN,
  LOCATIONS,
  PRODUCTS,
  productsWorld,
} from './products.fixtures';

/** Travel locations, the dropdown info and access (carriers and products: products.test.ts). */
describe('configuration: travel locations, dropdown info, access [SPEC-7.7, RULE-ORG-1]', () => {
  let t: TestApp;
  /** A Manager (sysConfigCreate, sysConfigEdit, sysAdminLoc) of `org`. */
  let manager: TestClient;
  let org: TestOrg;
  /** A Manager of another organization. */
  let other: TestClient;

  beforeAll(async () => {
    ({ t, manager, org, other } = await productsWorld());
  });
  afterAll(() => t.close());

  describe('travel locations', () => {
    it('creates, lists by name and edits part of a location', async () => {
      const { client, orgs } = await t.signIn({ role: 'Manager' });
      let res = await client.post(LOCATIONS, {
        ...berlin,
        origin: true,
        timezone: 'Europe/Berlin',
      });
      expect(res.statusCode, res.body).toBe(200);
      const depot = ZNameAndAddressLocation.parse(res.json());
      expect(depot).toMatchObject({
        ...berlin,
        origin: true,
        destination: false,
        timezone: 'Europe/Berlin',
        organization: orgs[0]!.id,
      });
      expectIso(depot.created);

      res = await client.post(LOCATIONS, {
        name: 'airport',
        address: 'Flughafen',
        latitude: -33.9,
        longitude: 151.2,
        timezone: '',
      });
      expect(res.json()).toMatchObject({ origin: false, destination: false, timezone: null });
      const airport = res.json();

      expect((await client.get(LOCATIONS)).json().map((l: { name: string }) => l.name)).toEqual([
        'airport',
        'Berlin depot',
      ]);

      const url = `${LOCATIONS}?travel_location_id=${airport.id}`;
      res = await client.patch(url, { destination: true, latitude: -90, longitude: 180 });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ ...airport, destination: true, latitude: -90, longitude: 180 });
      res = await client.patch(url, { timezone: 'Australia/Sydney' });
      expect(res.json().timezone).toBe('Australia/Sydney');
      res = await client.patch(url, { timezone: null });
      expect(res.json().timezone).toBeNull();
      res = await client.patch(url, {});
      expect(res.json()).toEqual({ ...airport, destination: true, latitude: -90, longitude: 180 });
    });

    it('stores a known alias of a time zone as its supported name', async () => {
      const res = await manager.post(LOCATIONS, { ...berlin, timezone: 'Asia/Kolkata' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().timezone).toBe('Asia/Calcutta');
    });

    it('refuses bad input with a 400 naming the field', async () => {
      const bad: [Record<string, unknown>, string][] = [
        [{ ...berlin, name: undefined }, 'name'],
        [{ ...berlin, address: undefined }, 'address'],
        [{ ...berlin, latitude: undefined }, 'latitude'],
        [{ ...berlin, longitude: undefined }, 'longitude'],
        [{ ...berlin, name: ' ' }, 'name'],
        [{ ...berlin, address: 'a'.repeat(501) }, 'address'],
        [{ ...berlin, latitude: 500 }, 'latitude'],
        [{ ...berlin, latitude: -91 }, 'latitude'],
        [{ ...berlin, longitude: -181 }, 'longitude'],
        [{ ...berlin, longitude: 1e300 }, 'longitude'],
        [{ ...berlin, latitude: '52.5' }, 'latitude'],
        [{ ...berlin, latitude: null }, 'latitude'],
        [{ ...berlin, origin: 'yes' }, 'origin'],
        [{ ...berlin, destination: 1 }, 'destination'],
        [{ ...berlin, timezone: 'Mars/Olympus_Mons' }, 'timezone'],
        [{ ...berlin, timezone: '+01:00' }, 'timezone'],
        [{ ...berlin, timezone: 'Etc/GMT+1' }, 'timezone'],
        [{ ...berlin, timezone: 'x'.repeat(65) }, 'timezone'],
      ];
      for (const [body, field] of bad) expectInvalid(await manager.post(LOCATIONS, body), field);

      const created = (await manager.post(LOCATIONS, berlin)).json();
      const url = `${LOCATIONS}?travel_location_id=${created.id}`;
      expectInvalid(await manager.patch(url, { latitude: 91 }), 'latitude');
      expectInvalid(await manager.patch(url, { longitude: null }), 'longitude');
      expectInvalid(await manager.patch(url, { timezone: 'Nowhere' }), 'timezone');
      expectInvalid(await manager.patch(LOCATIONS, { name: 'x' }), 'travel_location_id');
    });

    it("answers 404 for another organization's location", async () => {
      const theirs = (await other.post(LOCATIONS, { ...berlin, name: 'Theirs' })).json();
      expectError(
        await manager.patch(`${LOCATIONS}?travel_location_id=${theirs.id}`, { name: 'Mine' }),
        404,
        'NOT_FOUND',
      );
      expectError(
        await manager.patch(`${LOCATIONS}?travel_location_id=nope`, { name: 'Mine' }),
        404,
        'NOT_FOUND',
      );
      const ids = (await manager.get(LOCATIONS)).json().map((l: { id: string }) => l.id);
      expect(ids).not.toContain(theirs.id);
      expect((await other.get(LOCATIONS)).json()).toContainEqual(theirs);
    });
  });

  describe('dropdown info', () => {
    it("bundles the organization's products, origins, destinations and carriers", async () => {
      const { client } = await t.signIn({ role: 'Manager' });
      const product = (await client.post(PRODUCTS, { product_name: 'Plasma' })).json();
      const carrier = (await client.post(CARRIERS, { name: 'FedEx' })).json();
      const origin = (
        await client.post(LOCATIONS, { ...berlin, name: 'B origin', origin: true })
      ).json();
      const both = (
        await client.post(LOCATIONS, { ...berlin, name: 'A hub', origin: true, destination: true })
      ).json();
      const destination = (
        await client.post(LOCATIONS, { ...berlin, name: 'C clinic', destination: true })
      ).json();
      await client.post(LOCATIONS, { ...berlin, name: 'Neither' });
      await other.post(PRODUCTS, { product_name: 'Not mine' });

      const res = await client.get(DROPDOWN);
      expect(res.statusCode).toBe(200);
      expect(ZDropdownInfo.parse(res.json())).toEqual({
        product_definitions: [product],
        origin_locations: [both, origin],
        destination_locations: [both, destination],
        carrier_definitions: [carrier],
      });
    });

    it('answers empty lists for a new organization', async () => {
      const { client } = await t.signIn({ role: 'Viewer' });
      expect((await client.get(DROPDOWN)).json()).toEqual({
        product_definitions: [],
        origin_locations: [],
        destination_locations: [],
        carrier_definitions: [],
      });
    });
  });

  describe('access', () => {
    const writes = productsCalls.filter((c) => c.method !== 'GET');
    const reads = productsCalls.filter((c) => c.method === 'GET');
    const bodies: Record<string, unknown> = {
      [CARRIERS]: { name: 'Access carrier' },
      [PRODUCTS]: { product_name: 'Access product' },
      [LOCATIONS]: berlin,
    };
    const idParams: Record<string, string> = {
      [CARRIERS]: 'carrier_id',
      [PRODUCTS]: 'product_id',
      [LOCATIONS]: 'travel_location_id',
    };

    /** Ids of one row of each kind in `org` (made by the Manager). */
    let ids: Record<string, string>;
    beforeAll(async () => {
      ids = {};
      for (const path of [CARRIERS, PRODUCTS, LOCATIONS]) {
        ids[path] = (await manager.post(path, bodies[path])).json().id;
      }
    });

    const urlOf = (method: string, path: string) =>
      method === 'PATCH' ? `${path}?${idParams[path]}=${ids[path]}` : path;

    it('a Viewer reads but may not create or edit (403)', async () => {
      const { client } = await t.signIn({ role: 'Viewer', orgs: [org] });
      for (const call of reads) expect((await client.get(call.path)).statusCode).toBe(200);
      for (const call of writes) {
        const res = await client.request({
          method: call.method,
          url: urlOf(call.method, call.path),
          payload: bodies[call.path],
        });
        expectError(res, 403, 'FORBIDDEN');
      }
    });

    it('an Operator (sysConfigUse) reads; writes are 403', async () => {
      const { client } = await t.signIn({ role: 'Operator', orgs: [org] });
      for (const call of reads) expect((await client.get(call.path)).statusCode).toBe(200);
      const res = await client.post(CARRIERS, { name: 'Operator carrier' });
      expectError(res, 403, 'FORBIDDEN');
    });

    it('sysAdminLoc alone reads everything and writes travel locations only', async () => {
      const role = await createRole(t, org, ['sysAdminLoc']);
      const { client } = await t.signIn({ role, orgs: [org] });
      for (const call of reads) expect((await client.get(call.path)).statusCode).toBe(200);
      expect((await client.post(LOCATIONS, { ...berlin, name: 'Loc admin' })).statusCode).toBe(200);
      const edit = await client.patch(urlOf('PATCH', LOCATIONS), { origin: true });
      expect(edit.statusCode).toBe(200);
      expectError(await client.post(CARRIERS, { name: 'No' }), 403, 'FORBIDDEN');
      expectError(await client.post(PRODUCTS, { product_name: 'No' }), 403, 'FORBIDDEN');
      expectError(
        await client.patch(urlOf('PATCH', PRODUCTS), { product_name: 'No' }),
        403,
        'FORBIDDEN',
      );
    });

    it('sysConfigCreate without sysConfigEdit creates but may not edit', async () => {
      const role = await createRole(t, org, ['sysConfigCreate']);
      const { client } = await t.signIn({ role, orgs: [org] });
      expect((await client.post(CARRIERS, { name: 'Creator carrier' })).statusCode).toBe(200);
      expect((await client.post(LOCATIONS, berlin)).statusCode).toBe(200);
      for (const path of [CARRIERS, PRODUCTS, LOCATIONS]) {
        expectError(await client.patch(urlOf('PATCH', path), {}), 403, 'FORBIDDEN');
      }
    });

    it('a role without any reading permission gets 403 on the lists', async () => {
      const role = await createRole(t, org, ['readerScan']);
      const { client } = await t.signIn({ role, orgs: [org] });
      for (const call of reads) expectError(await client.get(call.path), 403, 'FORBIDDEN');
    });

    it('every call needs a session (401)', async () => {
      const anonymous = t.client();
      for (const call of productsCalls) {
        const res = await anonymous.request({
          method: call.method,
          url: urlOf(call.method, call.path),
          ...(call.method === 'GET' ? {} : { payload: bodies[call.path] }),
        });
        expectError(res, 401, 'UNAUTHENTICATED');
      }
    });

    it('creating and editing need the CSRF header (403)', async () => {
      for (const call of writes) {
        const res = await manager.request({
          method: call.method,
          url: urlOf(call.method, call.path),
          payload: bodies[call.path],
          csrf: false,
        });
        expectError(res, 403, 'CSRF_FAILED');
      }
    });
  });
});
