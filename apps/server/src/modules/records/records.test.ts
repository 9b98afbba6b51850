import { ZRecord, ZTagExtended } from '@coldtrace/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp, type TestClient } from '../../../test/helpers';
import { recordFactories } from '../../../test/record-factories';
import { XT1, ids, total, seed, type World } from './records.fixtures';

/** The records read side (GET /, details and records/) on the world of records.fixtures.ts. */
describe('record queries [SPEC-7.2, SPEC-7.8, RULE-ORG-1]', () => {
  let t: TestApp;
  let w: World;
  beforeAll(async () => {
    t = await createTestApp();
    w = await seed(t, recordFactories(t.db));
  });
  afterAll(() => t.close());

  const get = (url: string, client: TestClient = w.admin) => client.get(url);

  describe('GET / (all sensors)', () => {
    it("answers the organization's tags in the extended view", async () => {
      const res = await get(`${XT1}/`, w.viewer);
      expect(res.statusCode).toBe(200);
      const body = z.array(ZTagExtended).parse(res.json());
      expect(body.map((x) => x.id).sort()).toEqual(
        [w.tagA1.id, w.tagA2.id, w.tagA3.id].sort((a, b) => a - b),
      );
      const a1 = body.find((x) => x.id === w.tagA1.id)!;
      expect(a1).toEqual({
        id: w.tagA1.id,
        created: w.tagA1.created.toISOString(),
        serial_number: w.tagA1.serialNumber,
        belongs_to: w.orgA.id,
        primary_reference: 'BETA_2%',
        secondary_reference: 'Lot 55',
        shipping_reference: 'AWB 123',
        program_name: '',
        shipper_name_address: { id: String(w.oslo.id), name: 'Nordic Pharma Oslo' },
        receiver_name_address: { id: String(w.bergen.id), name: 'Bergen Hospital' },
        carrier: '',
        product_designation: '',
        po_number: '',
        last_record_id: String(w.r2.id),
        tag_type: 'XT1_NFC_MU',
        last_action_taken: '2025-03-06T08:00:00.000Z',
        last_scanned: '2025-03-06T07:00:00.000Z',
        last_scanned_location: { latitude: 59.91, longitude: 10.75 },
        last_temp: null,
        running: true,
        calibration_state: 'NONE',
        calibration_due: null,
      });
      const a3 = body.find((x) => x.id === w.tagA3.id)!;
      expect(a3.last_record_id).toBeNull();
      expect(a3.running).toBe(false);
      expect(body.find((x) => x.id === w.tagA2.id)!.last_scanned_location).toBeNull();
    });

    it('never shows another organization its tags', async () => {
      const res = await get(`${XT1}/`, w.bClient);
      expect(res.json().map((x: { id: number }) => x.id)).toEqual([w.tagB.id]);
    });

    it('needs a session', async () => {
      expect((await t.client().get(`${XT1}/`)).statusCode).toBe(401);
    });
  });

  describe('GET details/', () => {
    it('filters, orders and pages the tags, with the total in x-total-count', async () => {
      let res = await get(`${XT1}/details/?order_by=id&page_size=2`);
      expect(res.statusCode).toBe(200);
      expect(total(res)).toBe(3);
      expect(res.json().map((x: { id: number }) => x.id)).toEqual([w.tagA1.id, w.tagA2.id]);
      res = await get(`${XT1}/details/?order_by=id&page_size=2&page_number=2`);
      expect(res.json().map((x: { id: number }) => x.id)).toEqual([w.tagA3.id]);
      res = await get(`${XT1}/details/?filter=${encodeURIComponent('running__is=false')}`);
      expect(total(res)).toBe(2);
      res = await get(
        `${XT1}/details/?filter=${encodeURIComponent(`serial_number__equals=${w.tagA2.serialNumber.toLowerCase()}|shipper_name_address__contains=oslo`)}`,
      );
      expect(
        res
          .json()
          .map((x: { id: number }) => x.id)
          .sort(),
      ).toEqual([w.tagA1.id, w.tagA2.id].sort((a, b) => a - b));
      res = await get(`${XT1}/details/?filter=${encodeURIComponent('last_record_id__isEmpty=')}`);
      expect(res.json().map((x: { id: number }) => x.id)).toEqual([w.tagA3.id]);
    });

    it('answers 403 to a user without sysAdminUser, 400 to a bad filter', async () => {
      const res = await get(`${XT1}/details/`, w.viewer);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('FORBIDDEN');
      const bad = await get(`${XT1}/details/?filter=primary__contains=x`);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().fields.filter).toContain("unknown field 'primary'");
    });
  });

  describe('GET records/', () => {
    it('answers records exactly as the contract says, newest action first, nulls last', async () => {
      const res = await get(`${XT1}/records/`, w.viewer);
      expect(res.statusCode).toBe(200);
      expect(total(res)).toBe(3);
      const body = z.array(ZRecord).parse(res.json());
      expect(ids(body)).toEqual([w.r2.id, w.r1.id, w.r3.id].map(String));
      expect(body[0]).toEqual({
        id: String(w.r2.id),
        tag_id: String(w.tagA1.id),
        tag_serial_number: w.tagA1.serialNumber,
        tag_type: 'XT1_NFC_MU',
        tag_status: 'XT1_ACTIVE',
        tag_calibration: null,
        created: '2025-03-05T09:30:00.000Z',
        last_modified: w.r2.lastModified.toISOString(),
        temps_last_updated: null,
        primary_reference: 'BETA_2%',
        secondary_reference: 'Lot 55',
        shipping_reference: 'AWB 123',
        program_name: '',
        carrier: '',
        product_designation: '',
        po_number: '',
        shipper_name_address: { id: String(w.oslo.id), name: 'Nordic Pharma Oslo' },
        receiver_name_address: { id: String(w.bergen.id), name: 'Bergen Hospital' },
        high_threshold: 8,
        low_threshold: 2,
        cumulative_high_threshold: 10,
        cumulative_low_threshold: null,
        cumulative_duration_high: '01:00:00',
        cumulative_duration_low: null,
        num_consecutive_excursions: 1,
        highest_recorded_temperature: null,
        lowest_recorded_temperature: null,
        mean_kinetic_temp: null,
        latest_temp: null,
        start_time_seconds: 1_741_165_200,
        start_time: '2025-03-05T09:00:00.000Z',
        stop_time: null,
        measurement_interval: 300,
        calculated_measurement_interval: null,
        transmit_interval: null,
        start_delay: 60,
        first_point: null,
        last_point: null,
        number_of_points: 0,
        record_duration: null,
        // Scan ids, oldest scan first.
        scans: [w.scansR2[0]!, w.scansR2[2]!, w.scansR2[1]!].map((s) => String(s.id)),
        last_scanned: '2025-03-06T07:00:00.000Z',
        last_scanned_user: w.adminUser.username,
        last_action_taken: '2025-03-06T08:00:00.000Z',
        alarm_recipients: ['qa@example.test'],
        status: 'OK',
        computed_status: 'OK',
        last_latitude: 59.91,
        last_longitude: 10.75,
        memory_health: null,
        battery_health: 'OK',
        trip: { begin_time: '2025-03-05T10:00:00.000Z', end_time: null, trip_status: 'IN_TRANSIT' },
        report_exists: false,
        calibration_state: 'NONE',
        calibration_due: null,
        calibration_warning: null,
        planned_arrival: null,
        disposition: null,
        review_state: 'AWAITING_DECISION',
        alarm_awaits_acknowledgement: false,
      });
      // The unknown-position sentinels are never answered as a position.
      const r3 = body[2]!;
      expect([r3.last_latitude, r3.last_longitude]).toEqual([null, null]);
      expect(r3.last_action_taken).toBeNull();
    });

    it('pages 1-based with x-total-count of all matches', async () => {
      let res = await get(`${XT1}/records/?page_size=1&page_number=2`);
      expect(total(res)).toBe(3);
      expect(ids(res.json())).toEqual([String(w.r1.id)]);
      res = await get(`${XT1}/records/?page_size=2&page_number=5`);
      expect(res.statusCode).toBe(200);
      expect(total(res)).toBe(3);
      expect(res.json()).toEqual([]);
    });

    it('keeps only the latest record of each tag with latest=true', async () => {
      const res = await get(`${XT1}/records/?latest=true`);
      expect(total(res)).toBe(2);
      expect(ids(res.json()).sort()).toEqual([String(w.r2.id), String(w.r3.id)].sort());
      const off = await get(`${XT1}/records/?latest=false`);
      expect(total(off)).toBe(3);
    });

    it('searches every listed field, ignoring case, ORed per word', async () => {
      const search = async (terms: string) => {
        const res = await get(`${XT1}/records/?search=${encodeURIComponent(terms)}`);
        expect(res.statusCode).toBe(200);
        return ids(res.json()).sort();
      };
      const [r1, r2, r3] = [w.r1.id, w.r2.id, w.r3.id].map(String);
      expect(await search('acme')).toEqual([r1]);
      expect(await search('  oslo   kuehne ')).toEqual([r2, r3].sort());
      expect(await search('bergen')).toEqual([r2]);
      expect(await search('lot')).toEqual([r2]);
      expect(await search('awb')).toEqual([r2]);
      expect(await search('ship-9')).toEqual([r3]);
      expect(await search('vaccines')).toEqual([r1]);
      expect(await search('INSULIN')).toEqual([r1]);
      expect(await search('po-7')).toEqual([r1]);
      expect(await search('dhl')).toEqual([r1]);
      expect(await search(w.tagA2.serialNumber.toLowerCase())).toEqual([r3]);
      expect(await search(String(w.r3.id))).toContain(r3);
      // % and _ are themselves, not wildcards.
      expect(await search('beta_2%')).toEqual([r2]);
      expect(await search('BETA%2')).toEqual([]);
      expect(await search('A_M')).toEqual([]);
      expect(await search('nothing-like-it')).toEqual([]);
      expect(await search('   ')).toEqual([r1, r2, r3].sort());
    });

    it('combines search, filter and latest (and)', async () => {
      const res = await get(
        `${XT1}/records/?search=acme+beta&latest=true&filter=${encodeURIComponent('high_threshold__eq=8')}`,
      );
      expect(ids(res.json())).toEqual([String(w.r2.id)]);
    });

    it('filters with the grammar over the whitelist', async () => {
      const filter = async (text: string) => {
        const res = await get(`${XT1}/records/?filter=${encodeURIComponent(text)}`);
        expect(res.statusCode, res.body).toBe(200);
        expect(total(res)).toBe(res.json().length);
        return ids(res.json()).sort();
      };
      const [r1, r2, r3] = [w.r1.id, w.r2.id, w.r3.id].map(String);
      expect(await filter('computed_status__is=alarm')).toEqual([r3]);
      expect(await filter('status__isAnyOf=Alarm')).toEqual([r1, r3].sort());
      expect(await filter('high_threshold__gte=8^carrier__equals=dhl')).toEqual([r1]);
      expect(await filter('high_threshold__isEmpty=')).toEqual([r3]);
      expect(await filter('high_threshold__ne=8')).toEqual([r3]);
      expect(await filter('created__onOrAfter=2025-03-05')).toEqual([r2, r3].sort());
      expect(await filter('created__is=2025-03-05')).toEqual([r2]);
      expect(await filter('created__after=2025-03-05')).toEqual([r3]);
      expect(await filter('created__before=2025-03-01T10:00:01Z')).toEqual([r1]);
      expect(await filter('last_action_taken__not=2025-03-06')).toEqual([r1, r3].sort());
      expect(await filter('start_time__onOrBefore=2025-03-05T09:00')).toContain(r2);
      expect(await filter('shipper_name_address.name__startsWith=nordic')).toEqual([r2]);
      expect(await filter('receiver_name_address__endsWith=HOSPITAL')).toEqual([r2]);
      expect(await filter('active__is=true')).toEqual([r2]);
      expect(await filter('tag_type__isAnyOf=XT1_RT,NanoTag')).toEqual([r3]);
      expect(await filter(`id__eq=${r1}|id__eq=${r3}`)).toEqual([r1, r3].sort());
      expect(await filter('primary_reference__contains=_2\\,')).toEqual([]);
      expect(await filter('primary_reference__contains=_2%')).toEqual([r2]);
      expect(await filter('trip.trip_status__not=IN_TRANSIT')).toEqual([r1, r3].sort());
      expect(await filter('last_scanned_user__equals=' + w.adminUser.username)).toEqual([r2]);
    });

    it('orders by whitelisted fields, - for descending', async () => {
      let res = await get(`${XT1}/records/?order_by=created`);
      expect(ids(res.json())).toEqual([w.r1.id, w.r2.id, w.r3.id].map(String));
      res = await get(`${XT1}/records/?order_by=-primary_reference&order_by=id`);
      expect(ids(res.json())).toEqual([w.r2.id, w.r1.id, w.r3.id].map(String));
      res = await get(`${XT1}/records/?order_by=-high_threshold,-id`);
      expect(ids(res.json())).toEqual([w.r2.id, w.r1.id, w.r3.id].map(String));
    });

    it('refuses bad input with a 400 naming the field, never a 500', async () => {
      const cases: [string, string, string?][] = [
        ['page_size=0', 'page_size'],
        ['page_size=1000000000', 'page_size'],
        ['page_size=abc', 'page_size'],
        ['page_size=1&page_size=2', 'page_size'],
        ['page_number=0', 'page_number'],
        ['page_number=-1', 'page_number'],
        ['page_number=1.5', 'page_number'],
        ['latest=maybe', 'latest'],
        ['filter=nope__contains=x', 'filter', "unknown field 'nope'"],
        ['filter=primary_reference__gt=x', 'filter', "operator '>' does not apply"],
        ['filter=primary_reference__like=x', 'filter', "unknown operator 'like'"],
        ['filter=high_threshold__gt=eight', 'filter', "'eight' is not a number"],
        ['filter=high_threshold__gt=1e999', 'filter', 'is not a number'],
        ['filter=id__gt=1.5', 'filter', 'is not an integer'],
        ['filter=created__after=2025-02-30', 'filter', 'ISO 8601'],
        ['filter=created__after=yesterday', 'filter', 'ISO 8601'],
        ['filter=status__is=Maybe', 'filter', 'is not one of OK, Alarm'],
        ['filter=active__is=yes', 'filter', 'is not true or false'],
        ['filter=a__contains=1^b__contains=2|c__contains=3', 'filter', 'not both'],
        ['filter=primary_reference', 'filter', "missing '='"],
        ["filter=primary_reference__contains=x'; DROP TABLE records; --", 'filter'],
        ['order_by=nope', 'order_by', "unknown field 'nope'"],
        ['order_by=-', 'order_by'],
        ['order_by=id;DROP', 'order_by'],
        [`search=${'w '.repeat(30)}`, 'search'],
        [`search=${'x'.repeat(501)}`, 'search'],
        [`filter=${'x'.repeat(10_001)}`, 'filter'],
      ];
      const encode = (query: string) =>
        query
          .split('&')
          .map((pair) => {
            const eq = pair.indexOf('=');
            return `${pair.slice(0, eq)}=${encodeURIComponent(pair.slice(eq + 1))}`;
          })
          .join('&');
      for (const [query, field, text] of cases) {
        const res = await get(`${XT1}/records/?${encode(query)}`);
        if (query.includes('DROP TABLE')) {
          // A well-formed item whose value is SQL: just a value, no match.
          expect(res.statusCode, query).toBe(200);
          expect(res.json()).toEqual([]);
          continue;
        }
        expect(res.statusCode, `${query}: ${res.body}`).toBe(400);
        const body = res.json();
        expect(body.code).toBe('VALIDATION_ERROR');
        expect(Object.keys(body.fields), query).toEqual([field]);
        if (text) expect(body.fields[field], query).toContain(text);
      }
      // The table is still there.
      expect(total(await get(`${XT1}/records/`))).toBe(3);
    });
  });
});
