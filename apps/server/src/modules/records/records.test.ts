import {
  MAX_TEMPERATURE_RECORD_IDS,
  TOTAL_COUNT_HEADER,
  ZExcursionAlarm,
  ZRecord,
  ZRecordAction,
  ZRecordLocations,
  ZRecordStatistics,
  ZScan,
  ZTagExtended,
  ZTripTemperatures,
} from '@coldtrace/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { roles } from '../../db/schema';
import type {
  AlarmRow,
  RecordRow,
  ScanRow,
  TagRow,
  TravelLocationRow,
} from '../../db/schema-shipments';
import {
  createTestApp,
  type RoleName,
  type TestApp,
  type TestClient,
  type TestOrg,
  type TestUser,
} from '../../../test/helpers';
import { recordFactories, type RecordFactories } from '../../../test/record-factories';

/**
 * The read side through HTTP on real PostgreSQL: one seeded organization (A)
 * whose numbers are counted by hand below, and another (B) whose ids must
 * answer 404 to A's users.
 */

const XT1 = '/api/devices/xt1';
const AGG = '/api/devices/aggregate';
const at = (iso: string) => new Date(iso);

interface World {
  orgA: TestOrg;
  orgB: TestOrg;
  admin: TestClient;
  adminUser: TestUser;
  viewer: TestClient;
  bClient: TestClient;
  oslo: TravelLocationRow;
  bergen: TravelLocationRow;
  tagA1: TagRow;
  tagA2: TagRow;
  tagA3: TagRow;
  tagB: TagRow;
  /** tagA1's older run: stopped, status Alarm but computed OK (its alarm was dismissed). */
  r1: RecordRow;
  /** tagA1's latest run: active, shipper Oslo and receiver Bergen. */
  r2: RecordRow;
  /** tagA2's run: stopped, in alarm. */
  r3: RecordRow;
  rB: RecordRow;
  scansR1: ScanRow[];
  scansR2: ScanRow[];
  alarmsR3: Record<'open' | 'acknowledged' | 'dismissed' | 'resolved' | 'cumulative', AlarmRow>;
}

async function seed(t: TestApp, f: RecordFactories): Promise<World> {
  const orgA = await t.createOrg('Org A');
  const orgB = await t.createOrg('Org B');
  const { client: admin, user: adminUser } = await t.signIn({
    role: 'Administrator',
    orgs: [orgA],
  });
  const { client: viewer } = await t.signIn({ role: 'Viewer', orgs: [orgA] });
  const { client: bClient } = await t.signIn({ role: 'Administrator', orgs: [orgB] });

  const oslo = await f.travelLocation(orgA, { name: 'Nordic Pharma Oslo', origin: true });
  const bergen = await f.travelLocation(orgA, { name: 'Bergen Hospital', destination: true });
  const tagA1 = await f.tag(orgA, { running: true, tagType: 'XT1_NFC_MU' });
  const tagA2 = await f.tag(orgA, { running: false, tagType: 'XT1_RT' });
  const tagA3 = await f.tag(orgA, { running: false, tagType: 'NanoTag' });
  const tagB = await f.tag(orgB, { running: true });

  const r1 = await f.record(orgA, tagA1, {
    created: at('2025-03-01T10:00:00Z'),
    lastActionTaken: at('2025-03-01T12:00:00Z'),
    primaryReference: 'ACME-100',
    carrier: 'DHL',
    programName: 'Vaccines',
    productDesignation: 'Insulin',
    poNumber: 'PO-7',
    highThreshold: 8,
    lowThreshold: 2,
    active: false,
    status: 'Alarm',
    computedStatus: 'OK',
    startTimeSeconds: 1_740_823_200,
  });
  const r2 = await f.record(orgA, tagA1, {
    created: at('2025-03-05T09:30:00Z'),
    lastActionTaken: at('2025-03-06T08:00:00Z'),
    lastScanned: at('2025-03-06T07:00:00Z'),
    lastScannedUserId: adminUser.id,
    primaryReference: 'BETA_2%',
    secondaryReference: 'Lot 55',
    shippingReference: 'AWB 123',
    shipperLocationId: oslo.id,
    receiverLocationId: bergen.id,
    highThreshold: 8,
    lowThreshold: 2,
    cumulativeHighThreshold: 10,
    cumulativeDurationHigh: '01:00:00',
    startTimeSeconds: 1_741_165_200,
    startDelay: 60,
    measurementInterval: 300,
    lastLatitude: 59.91,
    lastLongitude: 10.75,
    tripBeginTime: at('2025-03-05T10:00:00Z'),
    tripStatus: 'IN_TRANSIT',
    alarmRecipients: ['qa@example.test'],
    batteryHealth: 'OK',
  });
  const r3 = await f.record(orgA, tagA2, {
    created: at('2025-04-01T00:00:00Z'),
    lastActionTaken: null,
    shippingReference: 'SHIP-9',
    carrier: 'Kuehne',
    active: false,
    status: 'Alarm',
    computedStatus: 'Alarm',
    lastLatitude: -91,
    lastLongitude: -181,
  });
  const rB = await f.record(orgB, tagB, {
    primaryReference: 'ACME-100',
    carrier: 'DHL',
    created: at('2025-03-02T00:00:00Z'),
  });

  const scansR1 = [
    await f.scan(r1, { timestamp: at('2025-03-01T11:00:00Z') }),
    await f.scan(r1, { timestamp: at('2025-03-01T12:00:00Z'), latitude: -91, longitude: -181 }),
  ];
  const scansR2 = [
    await f.scan(r2, { timestamp: at('2025-03-05T11:00:00Z'), createdByUserId: adminUser.id }),
    await f.scan(r2, {
      timestamp: at('2025-03-06T07:00:00Z'),
      latitude: 59.91,
      longitude: 10.75,
      mobileDeviceType: 'ANDROID',
      mobileAppVersion: '3.2.1',
    }),
    await f.scan(r2, { timestamp: at('2025-03-05T18:00:00Z') }),
  ];
  // A scan that never made it into a record (counts in the summary only).
  await f.scan(r1, { recordId: null, timestamp: at('2025-02-01T00:00:00Z') });
  await f.scan(rB, { timestamp: at('2025-03-02T01:00:00Z') });

  await f.action(r1, { actionType: 'start', timestamp: at('2025-03-01T10:00:00Z') });
  await f.action(r1, {
    actionType: 'stop-action',
    timestamp: at('2025-03-01T12:00:00Z'),
    latitude: 50.1,
    longitude: 8.6,
    createdByUserId: adminUser.id,
    mobileDeviceType: 'IOS',
    tagType: 'XT1_NFC_MU',
  });
  await f.action(r2, { actionType: 'create_shipment', timestamp: at('2025-03-05T09:30:00Z') });
  await f.action(rB, { actionType: 'start' });

  await f.location(r2, { latitude: 60.0, longitude: 10.0, timestamp: at('2025-03-05T12:00:00Z') });
  await f.location(r2, { latitude: 59.5, longitude: 9.0, timestamp: at('2025-03-05T11:00:00Z') });
  await f.location(r2, { latitude: -91, longitude: -181, timestamp: at('2025-03-05T13:00:00Z') });
  await f.location(rB, { latitude: 1, longitude: 1 });

  await f.series(r2, 0, [4, 5.5, null, 9.25]);
  await f.series(r2, 6, [3]);

  const alarmsR3 = {
    open: await f.alarm(r3, { firstPointIdx: 10, startTime: at('2025-04-01T05:00:00Z') }),
    acknowledged: await f.alarm(r3, {
      firstPointIdx: 20,
      acknowledged: true,
      startTime: at('2025-04-01T06:00:00Z'),
    }),
    dismissed: await f.alarm(r3, {
      firstPointIdx: 30,
      dismissed: true,
      aboveOrBelow: 'BELOW',
      startTime: at('2025-04-01T07:00:00Z'),
    }),
    resolved: await f.alarm(r3, {
      firstPointIdx: 40,
      state: 'CLOSED',
      closedAt: at('2025-04-02T08:00:00Z'),
      closeCause: 'TRIP_WINDOW',
      closeReason: 'Outside the trip window',
      startTime: at('2025-04-01T08:00:00Z'),
    }),
    cumulative: await f.alarm(r3, {
      firstPointIdx: 10,
      kind: 'cumulative',
      startTime: at('2025-04-01T04:00:00Z'),
    }),
  };
  await f.alarm(r1, { dismissed: true });
  await f.alarm(rB, {});

  return {
    orgA,
    orgB,
    admin,
    adminUser,
    viewer,
    bClient,
    oslo,
    bergen,
    tagA1,
    tagA2,
    tagA3,
    tagB,
    r1,
    r2,
    r3,
    rB,
    scansR1,
    scansR2,
    alarmsR3,
  };
}

const ids = (body: { id?: string | number }[]) => body.map((x) => String(x.id));
const total = (res: { headers: Record<string, unknown> }) =>
  Number(res.headers[TOTAL_COUNT_HEADER]);

describe('record queries', () => {
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

  describe('extreme values', () => {
    it('answers the ends of the date range and huge numbers without a 500', async () => {
      const urls = [
        `${XT1}/records/statistics/filtered/?start_date=9999-12-31&end_date=9999-12-31`,
        `${XT1}/records/statistics/filtered/?start_date=0001-01-01T00:00%2B01:00&end_date=0001-01-01`,
        `${XT1}/records/?filter=${encodeURIComponent('created__after=9999-12-31')}`,
        `${XT1}/records/?filter=${encodeURIComponent('created__is=0001-01-01T00:30+01:00')}`,
        `${XT1}/records/?filter=${encodeURIComponent('high_threshold__gt=-1e308|number_of_points__eq=1e300')}`,
        `${XT1}/records/?filter=${encodeURIComponent('id__gt=9007199254740991')}`,
        `${XT1}/records/?page_number=1000000&page_size=1000`,
        `${XT1}/latest-record/?tag_id_or_serial_number=999999999999999`,
      ];
      for (const url of urls) {
        const res = await get(url);
        expect(res.statusCode, `${url}: ${res.body}`).toBe(
          url.includes('latest-record') ? 404 : 200,
        );
      }
    });
  });

  describe('GET record/', () => {
    it('answers one record of the organization', async () => {
      const res = await get(`${XT1}/record/?record_id=${w.r1.id}`, w.viewer);
      expect(res.statusCode).toBe(200);
      const body = ZRecord.parse(res.json());
      expect(body.id).toBe(String(w.r1.id));
      expect(body.scans).toEqual(w.scansR1.map((s) => String(s.id)));
      expect(body.shipper_name_address).toBeNull();
    });

    it("answers 404 for another organization's record or a malformed id, 400 when absent", async () => {
      for (const id of [String(w.rB.id), 'abc', '0', '99999999999999999999', '-1']) {
        const res = await get(`${XT1}/record/?record_id=${encodeURIComponent(id)}`);
        expect(res.statusCode, id).toBe(404);
        expect(res.json().fields).toHaveProperty('record_id');
        expect(res.body).not.toContain('ACME');
      }
      const res = await get(`${XT1}/record/`);
      expect(res.statusCode).toBe(400);
      expect(res.json().fields).toHaveProperty('record_id');
    });
  });

  describe('GET record-ids/', () => {
    it('answers the references of the organization, newest first', async () => {
      const res = await get(`${XT1}/record-ids/`);
      expect(res.json()).toEqual(
        [w.r3, w.r2, w.r1].map((r) => ({
          record_id: String(r.id),
          tag_id: String(r.tagId),
          tag_serial_number: r.tagSerialNumber,
        })),
      );
    });
  });

  describe('GET latest-record/', () => {
    it('finds the latest record by serial number (any case) or tag id', async () => {
      for (const key of [
        w.tagA1.serialNumber,
        w.tagA1.serialNumber.toLowerCase(),
        ` ${w.tagA1.serialNumber} `,
        String(w.tagA1.id),
      ]) {
        const res = await get(
          `${XT1}/latest-record/?tag_id_or_serial_number=${encodeURIComponent(key)}`,
        );
        expect(res.statusCode, key).toBe(200);
        expect(res.json().id).toBe(String(w.r2.id));
      }
    });

    it("answers 404 for a tag without records or another organization's tag, 400 when absent", async () => {
      for (const key of [w.tagA3.serialNumber, w.tagB.serialNumber, 'NO-SUCH-TAG']) {
        const res = await get(`${XT1}/latest-record/?tag_id_or_serial_number=${key}`);
        expect(res.statusCode, key).toBe(404);
        expect(res.json().fields).toHaveProperty('tag_id_or_serial_number');
      }
      for (const query of ['', '?tag_id_or_serial_number=', '?tag_id_or_serial_number=%20']) {
        const res = await get(`${XT1}/latest-record/${query}`);
        expect(res.statusCode, query).toBe(400);
        expect(res.json().fields).toHaveProperty('tag_id_or_serial_number');
      }
    });
  });

  describe('GET records/actions/', () => {
    it('answers the actions of the records, oldest first, with their display names', async () => {
      const res = await get(`${XT1}/records/actions/?record_ids=${w.r1.id},${w.r2.id}`, w.viewer);
      expect(res.statusCode).toBe(200);
      const body = z.array(ZRecordAction).parse(res.json());
      expect(body.map((a) => [a.record_id, a.action_type, a.action_type_display])).toEqual([
        [String(w.r1.id), 'start', 'Start'],
        [String(w.r1.id), 'stop-action', 'Stop'],
        [String(w.r2.id), 'create_shipment', 'Create shipment'],
      ]);
      expect(body[0]).toMatchObject({ latitude: -91, longitude: -181, created_by_user: null });
      expect(body[1]).toMatchObject({
        tag_id: String(w.tagA1.id),
        tag_serial_number: w.tagA1.serialNumber,
        latitude: 50.1,
        longitude: 8.6,
        timestamp: '2025-03-01T12:00:00.000Z',
        created_by_user: w.adminUser.username,
        tag_type: 'XT1_NFC_MU',
        mobile_device_type: 'IOS',
      });
      const repeated = await get(
        `${XT1}/records/actions/?record_ids=${w.r1.id}&record_ids=${w.r2.id}`,
      );
      expect(repeated.json()).toEqual(res.json());
    });

    it("answers 404 naming record_ids when one is another organization's", async () => {
      for (const list of [`${w.r1.id},${w.rB.id}`, `${w.r1.id},x`]) {
        const res = await get(`${XT1}/records/actions/?record_ids=${list}`);
        expect(res.statusCode, list).toBe(404);
        expect(res.json().fields.record_ids).toMatch(/not found/);
      }
      const tooMany = Array.from({ length: 1001 }, (_, i) => i + 1).join(',');
      for (const query of ['', '?record_ids=', '?record_ids=,,', `?record_ids=${tooMany}`]) {
        const res = await get(`${XT1}/records/actions/${query}`);
        expect(res.statusCode, query).toBe(400);
        expect(Object.keys(res.json().fields)).toEqual(['record_ids']);
      }
    });
  });

  describe('GET records/scans/', () => {
    it('answers the scans of the records, newest first; latest=true one per record', async () => {
      let res = await get(`${XT1}/records/scans/?record_ids=${w.r1.id},${w.r2.id}`);
      expect(res.statusCode).toBe(200);
      const body = z.array(ZScan).parse(res.json());
      const byTime = [...w.scansR1, ...w.scansR2].sort(
        (a, b) => b.timestamp.getTime() - a.timestamp.getTime(),
      );
      expect(ids(body)).toEqual(ids(byTime));
      const android = body.find((s) => s.id === String(w.scansR2[1]!.id))!;
      expect(android).toMatchObject({
        record: String(w.r2.id),
        tag_id: String(w.tagA1.id),
        timestamp: '2025-03-06T07:00:00.000Z',
        latitude: 59.91,
        longitude: 10.75,
        mobile_device_type: 'ANDROID',
        mobile_app_version: '3.2.1',
        start_time: '2025-03-05T09:00:00.000Z',
        status: 'OK',
      });
      const sentinel = body.find((s) => s.id === String(w.scansR1[1]!.id))!;
      expect([sentinel.latitude, sentinel.longitude]).toEqual([null, null]);
      expect(body.find((s) => s.id === String(w.scansR2[0]!.id))!.created_by_user).toBe(
        w.adminUser.username,
      );

      res = await get(`${XT1}/records/scans/?record_ids=${w.r1.id},${w.r2.id}&latest=true`);
      expect(ids(res.json())).toEqual([w.scansR2[1]!.id, w.scansR1[1]!.id].map(String));
    });

    it('refuses another organization and bad flags', async () => {
      let res = await get(`${XT1}/records/scans/?record_ids=${w.rB.id}`);
      expect(res.statusCode).toBe(404);
      res = await get(`${XT1}/records/scans/?record_ids=${w.r1.id}&latest=perhaps`);
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json().fields)).toEqual(['latest']);
    });
  });

  describe('GET records/statistics/', () => {
    it('summary: the counts of the organization, as counted by hand', async () => {
      const res = await get(`${XT1}/records/statistics/summary/`, w.viewer);
      expect(res.statusCode).toBe(200);
      expect(ZRecordStatistics.parse(res.json())).toEqual({
        num_records: 3,
        // r3 only: r1's alarm is dismissed, so its computed status is OK.
        num_alarm_records: 1,
        num_no_alarm_records: 2,
        num_active_records: 1,
        num_stopped_records: 2,
        // 2 + 3 scans of records, 1 without a record.
        scans_made: 6,
        running_tags: 1,
        idle_tags: 2,
      });
      const b = await get(`${XT1}/records/statistics/summary/`, w.bClient);
      expect(b.json()).toMatchObject({ num_records: 1, scans_made: 1, running_tags: 1 });
    });

    it('filtered: the same over the records created in the range (end date inclusive)', async () => {
      let res = await get(
        `${XT1}/records/statistics/filtered/?start_date=2025-03-01&end_date=2025-03-05`,
      );
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        num_records: 2,
        num_alarm_records: 0,
        num_no_alarm_records: 2,
        num_active_records: 1,
        num_stopped_records: 1,
        scans_made: 5,
        running_tags: 1,
        idle_tags: 0,
      });
      res = await get(
        `${XT1}/records/statistics/filtered/?start_date=2025-03-02&end_date=2025-03-04`,
      );
      expect(res.json()).toEqual({
        num_records: 0,
        num_alarm_records: 0,
        num_no_alarm_records: 0,
        num_active_records: 0,
        num_stopped_records: 0,
        scans_made: 0,
        running_tags: 0,
        idle_tags: 0,
      });
      res = await get(
        `${XT1}/records/statistics/filtered/?start_date=2025-03-01T10:00:00Z&end_date=2025-04-01T00:00`,
      );
      expect(res.json()).toMatchObject({ num_records: 3, num_alarm_records: 1, idle_tags: 1 });
      res = await get(
        `${XT1}/records/statistics/filtered/?start_date=2025-03-05T12:00:00%2B02:00&end_date=2025-03-05`,
      );
      expect(res.json()).toMatchObject({ num_records: 0 });
    });

    it('filtered: refuses malformed or reversed dates naming the field', async () => {
      const cases: [string, string][] = [
        ['start_date=2025-03-01', 'end_date'],
        ['end_date=2025-03-01', 'start_date'],
        ['start_date=yesterday&end_date=2025-03-01', 'start_date'],
        ['start_date=2025-13-01&end_date=2025-03-01', 'start_date'],
        ['start_date=2025-03-01&end_date=2025-02-30', 'end_date'],
        ['start_date=2025-03-01&end_date=2025-03-01T25:00', 'end_date'],
        ['start_date=2025-03-02&end_date=2025-03-01', 'end_date'],
        ['start_date=2025-03-01T00:00:00%2B99:00&end_date=2025-03-02', 'start_date'],
      ];
      for (const [query, field] of cases) {
        const res = await get(`${XT1}/records/statistics/filtered/?${query}`);
        expect(res.statusCode, `${query} ${res.body}`).toBe(400);
        expect(Object.keys(res.json().fields), query).toEqual([field]);
      }
    });
  });

  describe('GET alarms/', () => {
    const alarmIds = async (query: string) => {
      const res = await get(`${XT1}/alarms/${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return ids(z.array(ZExcursionAlarm).parse(res.json())).sort();
    };

    it('lists closed alarms; hides acknowledged and dismissed ones unless asked', async () => {
      const a = w.alarmsR3;
      const r3 = `record_id=${w.r3.id}`;
      expect(await alarmIds(`?${r3}`)).toEqual(ids([a.open, a.cumulative, a.resolved]).sort());
      expect(await alarmIds(`?${r3}&include_closed=false`)).toEqual(
        ids([a.open, a.cumulative]).sort(),
      );
      expect(await alarmIds(`?${r3}&include_acknowledged=true`)).toEqual(
        ids([a.open, a.cumulative, a.resolved, a.acknowledged]).sort(),
      );
      expect(await alarmIds(`?${r3}&include_acknowledged=true&include_dismissed=1`)).toEqual(
        ids([a.open, a.cumulative, a.resolved, a.acknowledged, a.dismissed]).sort(),
      );
      // Without record_id: every alarm of the organization (r1's is dismissed).
      expect(await alarmIds('')).toEqual(ids([a.open, a.cumulative, a.resolved]).sort());
      expect((await alarmIds('?include_dismissed=true')).length).toBe(5);
    });

    it('answers each alarm with its kind, newest first', async () => {
      const res = await get(`${XT1}/alarms/?record_id=${w.r3.id}`);
      const body = z.array(ZExcursionAlarm).parse(res.json());
      expect(body.map((x) => [x.kind, x.state])).toEqual([
        ['excursion', 'CLOSED'],
        ['excursion', 'OPEN'],
        ['cumulative', 'OPEN'],
      ]);
      // A closed alarm says when, who (the system here), the cause and the reason.
      expect(body[0]).toMatchObject({
        id: String(w.alarmsR3.resolved.id),
        state: 'CLOSED',
        resolved: true,
        closed_by: null,
        close_cause: 'TRIP_WINDOW',
        close_reason: 'Outside the trip window',
      });
      expect(body[0]!.closed_at).toBe('2025-04-02T08:00:00.000Z');
      const open = w.alarmsR3.open;
      expect(body[1]).toEqual({
        id: String(open.id),
        record_id: String(w.r3.id),
        tag_id: w.tagA2.id,
        created: open.created.toISOString(),
        tag_serial_number: w.tagA2.serialNumber,
        above_or_below: 'ABOVE',
        first_point_idx: 10,
        last_point_idx: 12,
        degree_minutes: 12,
        start_time: '2025-04-01T05:00:00.000Z',
        end_time: open.endTime!.toISOString(),
        duration: 180,
        high_threshold: null,
        low_threshold: null,
        highest_recorded_temperature: 11,
        lowest_recorded_temperature: 9,
        acknowledged: false,
        dismissed: false,
        kind: 'excursion',
        state: 'OPEN',
        resolved: false,
      });
    });

    it("answers 404 for another organization's record, 400 for a bad flag", async () => {
      let res = await get(`${XT1}/alarms/?record_id=${w.rB.id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json().fields).toHaveProperty('record_id');
      res = await get(`${XT1}/alarms/?include_dismissed=sure`);
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json().fields)).toEqual(['include_dismissed']);
    });
  });

  describe('GET scans/', () => {
    it("pages the organization's scans, newest first", async () => {
      let res = await get(`${XT1}/scans/?page_size=4`, w.viewer);
      expect(res.statusCode).toBe(200);
      expect(total(res)).toBe(6);
      const body = z.array(ZScan).parse(res.json());
      expect(ids(body)).toEqual(
        [w.scansR2[1]!, w.scansR2[2]!, w.scansR2[0]!, w.scansR1[1]!].map((s) => String(s.id)),
      );
      res = await get(`${XT1}/scans/?page_size=4&page_number=2`);
      expect(res.json()).toHaveLength(2);
      expect(res.json()[1].record).toBeNull();
      res = await get(`${XT1}/scans/?page_number=0`);
      expect(res.statusCode).toBe(400);
    });
  });

  describe('GET aggregate/locations/', () => {
    it('answers the known positions of each record, oldest first, in the order asked', async () => {
      const res = await get(`${AGG}/locations/?record_ids=${w.r2.id},${w.r1.id}`, w.viewer);
      expect(res.statusCode).toBe(200);
      expect(total(res)).toBe(2);
      expect(z.array(ZRecordLocations).parse(res.json())).toEqual([
        {
          record_id: String(w.r2.id),
          locations: [
            { latitude: 59.5, longitude: 9, timestamp: '2025-03-05T11:00:00.000Z' },
            { latitude: 60, longitude: 10, timestamp: '2025-03-05T12:00:00.000Z' },
          ],
        },
        { record_id: String(w.r1.id), locations: [] },
      ]);
    });

    it('orders and pages the records', async () => {
      let res = await get(
        `${AGG}/locations/?record_ids=${w.r2.id},${w.r1.id},${w.r3.id}&order_by=created&page_size=2`,
      );
      expect(total(res)).toBe(3);
      expect(res.json().map((x: { record_id: string }) => x.record_id)).toEqual(
        [w.r1.id, w.r2.id].map(String),
      );
      res = await get(
        `${AGG}/locations/?record_ids=${w.r2.id},${w.r1.id},${w.r3.id}&order_by=created&page_size=2&page_number=2`,
      );
      expect(res.json().map((x: { record_id: string }) => x.record_id)).toEqual([String(w.r3.id)]);
      res = await get(`${AGG}/locations/?record_ids=${w.r1.id}&order_by=latitude`);
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json().fields)).toEqual(['order_by']);
    });

    it("answers 404 for another organization's record", async () => {
      const res = await get(`${AGG}/locations/?record_ids=${w.r2.id},${w.rB.id}`);
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('"latitude"');
    });
  });

  describe('GET aggregate/record-temperatures/', () => {
    it('answers the series with thresholds and trip times, gaps left out', async () => {
      const res = await get(
        `${AGG}/record-temperatures/?record_ids=${w.r2.id},${w.r1.id}`,
        w.viewer,
      );
      expect(res.statusCode).toBe(200);
      const body = z.array(ZTripTemperatures).parse(res.json());
      // Point i is at start_time_seconds + start_delay + i * interval (2025-03-05T09:00 + 60 s + i * 300 s).
      expect(body[0]).toEqual({
        record_id: String(w.r2.id),
        high_threshold: 8,
        low_threshold: 2,
        cumulative_high_threshold: 10,
        cumulative_low_threshold: null,
        trip_begin_time: '2025-03-05T10:00:00.000Z',
        trip_end_time: null,
        start_time: '2025-03-05T09:00:00.000Z',
        temperatures: [
          { temperature: 4, timestamp: '2025-03-05T09:01:00.000Z', index: 0 },
          { temperature: 5.5, timestamp: '2025-03-05T09:06:00.000Z', index: 1 },
          { temperature: 9.25, timestamp: '2025-03-05T09:16:00.000Z', index: 3 },
          { temperature: 3, timestamp: '2025-03-05T09:31:00.000Z', index: 6 },
        ],
      });
      expect(body[1]).toMatchObject({ record_id: String(w.r1.id), temperatures: [] });
    });

    it(`refuses more than ${MAX_TEMPERATURE_RECORD_IDS} ids, and another organization's`, async () => {
      const many = Array.from({ length: MAX_TEMPERATURE_RECORD_IDS + 1 }, (_, i) => i + 1);
      let res = await get(`${AGG}/record-temperatures/?record_ids=${many.join(',')}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().fields.record_ids).toContain('at most 50');
      res = await get(`${AGG}/record-temperatures/?record_ids=${w.rB.id}`);
      expect(res.statusCode).toBe(404);
      res = await get(`${AGG}/record-temperatures/`);
      expect(res.statusCode).toBe(400);
    });
  });

  describe('access', () => {
    const everyUrl = () => [
      `${XT1}/`,
      `${XT1}/records/`,
      `${XT1}/record/?record_id=${w.r1.id}`,
      `${XT1}/record-ids/`,
      `${XT1}/latest-record/?tag_id_or_serial_number=${w.tagA1.serialNumber}`,
      `${XT1}/records/actions/?record_ids=${w.r1.id}`,
      `${XT1}/records/scans/?record_ids=${w.r1.id}`,
      `${XT1}/records/statistics/summary/`,
      `${XT1}/records/statistics/filtered/?start_date=2025-01-01&end_date=2025-12-31`,
      `${XT1}/alarms/`,
      `${XT1}/scans/`,
      `${AGG}/locations/?record_ids=${w.r1.id}`,
      `${AGG}/record-temperatures/?record_ids=${w.r1.id}`,
    ];

    it('a Viewer reads every call but details/', async () => {
      for (const url of everyUrl()) {
        expect((await get(url, w.viewer)).statusCode, url).toBe(200);
      }
    });

    it('accepts a user token instead of the session (auth kind session)', async () => {
      const issued = await w.viewer.post('/api/auth/tokens/', { name: 'records test' });
      expect(issued.statusCode, issued.body).toBe(200);
      const headers = { authorization: `Token ${issued.json().token as string}` };
      const res = await t.client().get(`${XT1}/records/?latest=true`, headers);
      expect(res.statusCode, res.body).toBe(200);
      expect(ids(res.json()).sort()).toEqual([String(w.r2.id), String(w.r3.id)].sort());
      const other = await t.client().get(`${XT1}/record/?record_id=${w.rB.id}`, headers);
      expect(other.statusCode).toBe(404);
    });

    it('answers 401 without a session and 403 without sysDataRead', async () => {
      await t.db.insert(roles).values({
        name: 'Notified',
        permissionNames: ['notifyReceive'],
        organizationId: w.orgA.id,
      });
      const { client } = await t.signIn({ role: 'Notified' as RoleName, orgs: [w.orgA] });
      for (const url of everyUrl()) {
        expect((await t.client().get(url)).statusCode, url).toBe(401);
        const res = await client.get(url);
        expect(res.statusCode, url).toBe(403);
        expect(res.json().code).toBe('FORBIDDEN');
      }
    });
  });
});
