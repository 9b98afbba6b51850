import {
  productsCalls,
  ZCarrierDefinition,
  ZDropdownInfo,
  ZNameAndAddressLocation,
  ZProductDefinition,
} from '@coldtrace/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { carrierDefinitions } from '../../db/schema-shipments';
import { createTestApp, type TestApp, type TestClient, type TestOrg } from '../../../test/helpers';
import { createRole, expectError, expectInvalid, expectIso } from './test-kit';

const CARRIERS = '/api/products/carrier-definitions/';
const PRODUCTS = '/api/products/product-definitions/';
const LOCATIONS = '/api/products/travel-locations/';
const DROPDOWN = '/api/products/dropdown-info/';

const berlin = {
  name: 'Berlin depot',
  address: 'Alexanderplatz 1, 10178 Berlin',
  latitude: 52.5219,
  longitude: 13.4132,
};

describe('configuration: products, carriers, travel locations', () => {
  let t: TestApp;
  /** A Manager (sysConfigCreate, sysConfigEdit, sysAdminLoc) of `org`. */
  let manager: TestClient;
  let org: TestOrg;
  /** A Manager of another organization. */
  let other: TestClient;
  let otherOrg: TestOrg;

  beforeAll(async () => {
    t = await createTestApp();
    org = await t.createOrg();
    otherOrg = await t.createOrg();
    ({ client: manager } = await t.signIn({ role: 'Manager', orgs: [org] }));
    ({ client: other } = await t.signIn({ role: 'Manager', orgs: [otherOrg] }));
  });
  afterAll(() => t.close());

  describe('carrier definitions', () => {
    it('creates, lists by name ignoring case, and renames', async () => {
      const { client, orgs } = await t.signIn({ role: 'Manager' });
      const created = [];
      for (const name of ['zeta Freight', '  DHL  ', 'acme']) {
        const res = await client.post(CARRIERS, { name });
        expect(res.statusCode, res.body).toBe(200);
        created.push(ZCarrierDefinition.parse(res.json()));
      }
      const dhl = created[1]!;
      expect(dhl).toMatchObject({ name: 'DHL', organization: orgs[0]!.id });
      expect(dhl.id).toMatch(/^[1-9][0-9]*$/);
      expectIso(dhl.created);

      // The web client adds a cache-busting `_` parameter to GETs.
      let list = await client.get(`${CARRIERS}?_=1700000000000`);
      expect(list.statusCode).toBe(200);
      expect(list.json().map((c: { name: string }) => c.name)).toEqual([
        'acme',
        'DHL',
        'zeta Freight',
      ]);

      const res = await client.patch(`${CARRIERS}?carrier_id=${dhl.id}`, { name: 'DHL Express' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ ...dhl, name: 'DHL Express' });
      list = await client.get(CARRIERS);
      expect(list.json()).toHaveLength(3);
      expect(list.json()[1]).toEqual({ ...dhl, name: 'DHL Express' });
    });

    it('refuses a name the organization already has, ignoring case: 409 naming name', async () => {
      const { client } = await t.signIn({ role: 'Manager' });
      const first = (await client.post(CARRIERS, { name: 'Kuehne' })).json();
      const second = (await client.post(CARRIERS, { name: 'Schenker' })).json();

      let fields = expectError(await client.post(CARRIERS, { name: ' kuehne ' }), 409, 'CONFLICT');
      expect(Object.keys(fields)).toEqual(['name']);
      fields = expectError(
        await client.patch(`${CARRIERS}?carrier_id=${second.id}`, { name: 'KUEHNE' }),
        409,
        'CONFLICT',
      );
      expect(Object.keys(fields)).toEqual(['name']);

      // Renaming a carrier to its own name in another case is fine.
      const res = await client.patch(`${CARRIERS}?carrier_id=${first.id}`, { name: 'KUEHNE' });
      expect(res.statusCode).toBe(200);
      expect(res.json().name).toBe('KUEHNE');
      // Another organization may use the name.
      expect((await other.post(CARRIERS, { name: 'Kuehne' })).statusCode).toBe(200);
    });

    it('validates the name', async () => {
      expectInvalid(await manager.post(CARRIERS, {}), 'name');
      expectInvalid(await manager.post(CARRIERS, { name: '   ' }), 'name');
      expectInvalid(await manager.post(CARRIERS, { name: 42 }), 'name');
      expectInvalid(await manager.post(CARRIERS, { name: 'x'.repeat(201) }), 'name');
      expect((await manager.post(CARRIERS, { name: 'y'.repeat(200) })).statusCode).toBe(200);
      const created = (await manager.post(CARRIERS, { name: 'Validated' })).json();
      expectInvalid(
        await manager.patch(`${CARRIERS}?carrier_id=${created.id}`, { name: '' }),
        'name',
      );
    });

    it('needs carrier_id to edit; an unknown or malformed id is 404', async () => {
      expectInvalid(await manager.patch(CARRIERS, { name: 'x' }), 'carrier_id');
      for (const id of ['abc', '0', '-1', '1.5', '99999999999', '123456789012345678901']) {
        expectError(
          await manager.patch(`${CARRIERS}?carrier_id=${id}`, { name: 'x' }),
          404,
          'NOT_FOUND',
        );
      }
    });

    it("answers 404 for another organization's carrier and never shows it", async () => {
      const theirs = (await other.post(CARRIERS, { name: 'Their carrier' })).json();
      expectError(
        await manager.patch(`${CARRIERS}?carrier_id=${theirs.id}`, { name: 'Mine now' }),
        404,
        'NOT_FOUND',
      );
      const [row] = await t.db
        .select()
        .from(carrierDefinitions)
        .where(eq(carrierDefinitions.id, Number(theirs.id)));
      expect(row?.name).toBe('Their carrier');
      const mine = (await manager.get(CARRIERS)).json() as { organization: string }[];
      expect(mine.every((c) => c.organization === org.id)).toBe(true);
      expect(mine.map((c) => (c as { id?: string }).id)).not.toContain(theirs.id);
    });
  });

  describe('product definitions', () => {
    it('creates with every field, defaults and canonical durations', async () => {
      let res = await manager.post(PRODUCTS, {
        product_name: '  Vaccine A  ',
        high_threshold: 8,
        low_threshold: 2,
        num_consecutive_excursions: 3,
        cumulative_high_threshold: 8,
        cumulative_low_threshold: 2,
        cumulative_duration_high: '36:00:00',
        cumulative_duration_low: '2 00:30:00',
      });
      expect(res.statusCode, res.body).toBe(200);
      const vaccine = ZProductDefinition.parse(res.json());
      expect(vaccine).toMatchObject({
        product_name: 'Vaccine A',
        high_threshold: 8,
        low_threshold: 2,
        num_consecutive_excursions: 3,
        cumulative_high_threshold: 8,
        cumulative_low_threshold: 2,
        cumulative_duration_high: '1 12:00:00',
        cumulative_duration_low: '2 00:30:00',
        organization: org.id,
      });
      expectIso(vaccine.created);

      res = await manager.post(PRODUCTS, { product_name: 'Apples' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        product_name: 'Apples',
        high_threshold: null,
        low_threshold: null,
        num_consecutive_excursions: 1,
        cumulative_duration_high: null,
      });
      res = await manager.post(PRODUCTS, {
        product_name: 'bananas',
        num_consecutive_excursions: null,
        cumulative_duration_low: '',
        high_threshold: -20,
        low_threshold: -20,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        num_consecutive_excursions: 1,
        cumulative_duration_low: null,
      });

      const names = (await manager.get(PRODUCTS))
        .json()
        .map((p: { product_name: string }) => p.product_name);
      expect(names).toEqual(['Apples', 'bananas', 'Vaccine A']);
    });

    it('refuses bad input with a 400 naming the field', async () => {
      const bad: [Record<string, unknown>, string][] = [
        [{}, 'product_name'],
        [{ product_name: '' }, 'product_name'],
        [{ product_name: 'p'.repeat(201) }, 'product_name'],
        [{ product_name: 'P', high_threshold: 'hot' }, 'high_threshold'],
        [{ product_name: 'P', high_threshold: 1e12 }, 'high_threshold'],
        [{ product_name: 'P', low_threshold: -300 }, 'low_threshold'],
        [{ product_name: 'P', low_threshold: 9, high_threshold: 8 }, 'low_threshold'],
        [
          { product_name: 'P', cumulative_low_threshold: 9, cumulative_high_threshold: 8 },
          'cumulative_low_threshold',
        ],
        [{ product_name: 'P', num_consecutive_excursions: 0 }, 'num_consecutive_excursions'],
        [{ product_name: 'P', num_consecutive_excursions: 1.5 }, 'num_consecutive_excursions'],
        [{ product_name: 'P', num_consecutive_excursions: 1e9 }, 'num_consecutive_excursions'],
        [{ product_name: 'P', cumulative_duration_high: '1h' }, 'cumulative_duration_high'],
        [{ product_name: 'P', cumulative_duration_high: '00:60:00' }, 'cumulative_duration_high'],
        [{ product_name: 'P', cumulative_duration_low: '-01:00:00' }, 'cumulative_duration_low'],
        [
          { product_name: 'P', cumulative_duration_low: '99999 00:00:00' },
          'cumulative_duration_low',
        ],
        [{ product_name: 'P', cumulative_duration_low: 3600 }, 'cumulative_duration_low'],
        [
          { product_name: 'P', cumulative_duration_low: '1'.repeat(100) },
          'cumulative_duration_low',
        ],
      ];
      for (const [body, field] of bad) expectInvalid(await manager.post(PRODUCTS, body), field);
    });

    it('edits part of a product; the range checks see the stored values', async () => {
      const product = (
        await manager.post(PRODUCTS, {
          product_name: 'Insulin',
          high_threshold: 8,
          low_threshold: 2,
        })
      ).json();
      const url = `${PRODUCTS}?product_id=${product.id}`;

      let res = await manager.patch(url, {
        high_threshold: 10,
        cumulative_duration_high: '5:00:00',
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({
        ...product,
        high_threshold: 10,
        cumulative_duration_high: '05:00:00',
      });

      expectInvalid(await manager.patch(url, { low_threshold: 11 }), 'low_threshold');
      expectInvalid(await manager.patch(url, { high_threshold: 1 }), 'low_threshold');
      expectInvalid(await manager.patch(url, { product_name: ' ' }), 'product_name');
      expectInvalid(
        await manager.patch(url, { cumulative_duration_low: 'soon' }),
        'cumulative_duration_low',
      );

      res = await manager.patch(url, {
        low_threshold: null,
        num_consecutive_excursions: null,
        cumulative_duration_high: null,
      });
      expect(res.json()).toMatchObject({
        product_name: 'Insulin',
        high_threshold: 10,
        low_threshold: null,
        num_consecutive_excursions: 1,
        cumulative_duration_high: null,
      });
      // An empty edit changes nothing.
      res = await manager.patch(url, {});
      expect(res.statusCode).toBe(200);
      expect(res.json().high_threshold).toBe(10);
      expectInvalid(await manager.patch(PRODUCTS, { high_threshold: 1 }), 'product_id');
    });

    it("answers 404 for another organization's product", async () => {
      const theirs = (await other.post(PRODUCTS, { product_name: 'Theirs' })).json();
      expect(theirs.organization).toBe(otherOrg.id);
      expectError(
        await manager.patch(`${PRODUCTS}?product_id=${theirs.id}`, { product_name: 'Mine' }),
        404,
        'NOT_FOUND',
      );
      // Even with a body that would be refused, nothing about the row leaks.
      expectError(
        await manager.patch(`${PRODUCTS}?product_id=${theirs.id}`, { low_threshold: 1000 }),
        404,
        'NOT_FOUND',
      );
      const names = (await manager.get(PRODUCTS)).json().map((p: { id: string }) => p.id);
      expect(names).not.toContain(theirs.id);
      const list = (await other.get(PRODUCTS)).json();
      expect(list).toEqual([theirs]);
    });
  });

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
