import { ZCarrierDefinition, ZProductDefinition } from '@coldtrace/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { carrierDefinitions } from '../../db/schema-shipments';
import { type TestApp, type TestClient, type TestOrg } from '../../../test/helpers';
import { expectError, expectInvalid, expectIso } from './test-kit';
import { CARRIERS, PRODUCTS, productsWorld } from './products.fixtures';

describe('configuration: products, carriers, travel locations [SPEC-7.7]', () => {
  let t: TestApp;
  /** A Manager (sysConfigCreate, sysConfigEdit, sysAdminLoc) of `org`. */
  let manager: TestClient;
  let org: TestOrg;
  /** A Manager of another organization. */
  let other: TestClient;
  let otherOrg: TestOrg;

  beforeAll(async () => {
    ({ t, manager, org, other, otherOrg } = await productsWorld());
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
});
