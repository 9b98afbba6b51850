import { TOTAL_COUNT_HEADER } from '@coldtrace/contract';
import type {
  AlarmRow,
  RecordRow,
  ScanRow,
  TagRow,
  TravelLocationRow,
} from '../../db/schema-shipments';
import { type TestApp, type TestClient, type TestOrg, type TestUser } from '../../../test/helpers';
import { type RecordFactories } from '../../../test/record-factories';

/**
 * The world of the records read-side tests (records*.test.ts), through HTTP on real PostgreSQL: one seeded organization (A)
 * whose numbers are counted by hand below, and another (B) whose ids must
 * answer 404 to A's users.
 */

export const XT1 = '/api/devices/xt1';
export const AGG = '/api/devices/aggregate';
export const at = (iso: string) => new Date(iso);

export interface World {
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

export async function seed(t: TestApp, f: RecordFactories): Promise<World> {
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

export const ids = (body: { id?: string | number }[]) => body.map((x) => String(x.id));
export const total = (res: { headers: Record<string, unknown> }) =>
  Number(res.headers[TOTAL_COUNT_HEADER]);
