import type { LightMyRequestResponse } from 'fastify';
import { and, asc, eq } from 'drizzle-orm';
import type { Database } from '../src/db/client';
import {
  alarms,
  organizationSettings,
  recordActions,
  records,
  scans,
  tags,
  travelLocations,
  type RecordRow,
} from '../src/db/schema-shipments';
import { userTokens } from '../src/db/schema-access';
import { newToken, sessionIdOf } from '../src/modules/identity/auth/cookies';
import { readSeries } from '../src/kernel/series-store';
import { uid, type RoleName, type TestApp, type TestClient, type TestOrg } from './helpers';

/**
 * Factories and helpers of the shipment-data tests: device tokens, a client
 * that authenticates with a token, travel locations and geo-fences, upload
 * bodies, and a snapshot of a record's state (series, alarms, summary) to
 * compare.
 */

/** A fresh serial number (unique, so no two tests' tags meet). */
export const serial = (prefix = 'SN') => `${prefix}-${uid()}`;

/** A token of a user inserted directly (no HTTP): for tests that need many or a raw database. */
export async function insertToken(
  db: Database,
  userId: string,
  organizationId: string,
  opts: { expiry?: Date | null } = {},
): Promise<string> {
  const token = newToken();
  await db.insert(userTokens).values({
    id: sessionIdOf(token),
    userId,
    organizationId,
    expiry: opts.expiry === undefined ? new Date(Date.now() + 86_400_000) : opts.expiry,
  });
  return token;
}

/** A client that authenticates with `Authorization: Token <token>` (no cookies, no CSRF). */
export class TokenClient {
  constructor(
    private readonly t: TestApp,
    readonly token: string,
  ) {}

  post(url: string, payload?: unknown): Promise<LightMyRequestResponse> {
    return this.t.inject({
      method: 'POST',
      url,
      headers: { authorization: `Token ${this.token}` },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
  }

  get(url: string): Promise<LightMyRequestResponse> {
    return this.t.inject({ method: 'GET', url, headers: { authorization: `Token ${this.token}` } });
  }
}

export interface DeviceUser {
  org: TestOrg;
  userId: string;
  /** Signed-in browser client (session cookie). */
  client: TestClient;
  /** The same user with a token issued through POST /api/auth/tokens/. */
  device: TokenClient;
}

/** A user of a new organization (or of `orgs`) with a session and a token. */
export async function deviceUser(
  t: TestApp,
  opts: { role?: RoleName; orgs?: TestOrg[] } = {},
): Promise<DeviceUser> {
  const { client, user, orgs } = await t.signIn({
    role: opts.role ?? 'Administrator',
    ...(opts.orgs ? { orgs: opts.orgs } : {}),
  });
  const res = await client.post('/api/auth/tokens/', { name: 'test device' });
  if (res.statusCode !== 200) throw new Error(`token: ${res.statusCode} ${res.body}`);
  const token = (res.json() as { token: string }).token;
  return { org: orgs[0]!, userId: user.id, client, device: new TokenClient(t, token) };
}

export async function createTravelLocation(
  db: Database,
  organizationId: string,
  at: { latitude: number; longitude: number; name?: string },
): Promise<string> {
  const [row] = await db
    .insert(travelLocations)
    .values({
      organizationId,
      name: at.name ?? `Site ${uid()}`,
      address: 'Somewhere 1',
      latitude: at.latitude,
      longitude: at.longitude,
      origin: true,
      destination: true,
    })
    .returning();
  return String(row!.id);
}

export async function setGeoFence(
  db: Database,
  organizationId: string,
  fence: { arrivalMetres: number; departureMetres: number; toArrive: number; toDepart: number },
): Promise<void> {
  const values = {
    arrivalRadiusMeters: fence.arrivalMetres,
    departureRadiusMeters: fence.departureMetres,
    numPointsToArrive: fence.toArrive,
    numPointsToDepart: fence.toDepart,
  };
  await db
    .insert(organizationSettings)
    .values({ organizationId, ...values })
    .onConflictDoUpdate({ target: organizationSettings.organizationId, set: values });
}

/** Unix seconds, whole. */
export const epoch = (date: Date) => Math.floor(date.getTime() / 1000);
export const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

/** A valid xt1 upload body (the report form's required fields) for `tagSerial`. */
export function xt1Body(
  tagSerial: string,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    tag_id: tagSerial,
    tag_serial_number: tagSerial,
    tag_type: 'XT1_NFC_MU',
    timestamp: new Date().toISOString(),
    high_threshold: 8,
    low_threshold: 2,
    measurement_interval: 60,
    start_delay: 0,
    mobile_device_type: 'ANDROID',
    mobile_app_version: '1.0.0',
    ...overrides,
  };
}

/**
 * A started xt1 record of a fresh tag, then one scan with `temps` (interval 60 s,
 * thresholds 8 / 2), uploaded by `client` into its organization. Throws on a
 * refused upload.
 */
export async function scannedShipment(
  client: TestClient,
  temps: readonly number[],
  prefix = 'SHP',
): Promise<{ recordId: string; sn: string; start: number }> {
  const sn = serial(prefix);
  const start = epoch(new Date()) - 3600;
  const upload = async (path: string, body: Record<string, unknown>) => {
    const res = await client.post(`/api/devices/xt1/${path}`, xt1Body(sn, body));
    if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${res.body}`);
    return res.json() as { record_id: string };
  };
  const { record_id } = await upload('start-action/', {
    start_time_seconds: start,
    timestamp: iso(start),
  });
  await upload('scans/', { start_time_seconds: start, timestamp: iso(start + 600), temps });
  return { recordId: record_id, sn, start };
}

/**
 * {@link scannedShipment}, then stopped (the xt1 stop action 15 minutes after
 * the scan): its trip has ended, so it may be released (issue 35).
 */
export async function stoppedShipment(
  client: TestClient,
  temps: readonly number[],
  prefix = 'SHP',
): Promise<{ recordId: string; sn: string; start: number }> {
  const shipment = await scannedShipment(client, temps, prefix);
  const { sn, start } = shipment;
  const res = await client.post(
    '/api/devices/xt1/stop-action/',
    xt1Body(sn, { start_time_seconds: start, timestamp: iso(start + 1500) }),
  );
  if (res.statusCode !== 200) throw new Error(`stop-action/: ${res.statusCode} ${res.body}`);
  return shipment;
}

export async function recordOf(db: Database, recordId: string | number): Promise<RecordRow> {
  const [row] = await db
    .select()
    .from(records)
    .where(eq(records.id, Number(recordId)));
  if (!row) throw new Error(`no record ${recordId}`);
  return row;
}

export async function alarmsOf(db: Database, recordId: string | number) {
  return db
    .select()
    .from(alarms)
    .where(eq(alarms.recordId, Number(recordId)))
    .orderBy(asc(alarms.firstPointIdx), asc(alarms.aboveOrBelow), asc(alarms.kind));
}

/**
 * The tag with this serial number in the organization; without one, the only
 * tag of that serial in any organization (a serial number names a tag within
 * an organization, so it throws when several organizations have one).
 */
export async function tagBySerial(db: Database, serialNumber: string, organizationId?: string) {
  const rows = await db
    .select()
    .from(tags)
    .where(
      organizationId === undefined
        ? eq(tags.serialNumber, serialNumber)
        : and(eq(tags.serialNumber, serialNumber), eq(tags.organizationId, organizationId)),
    );
  if (rows.length > 1)
    throw new Error(`${rows.length} tags ${serialNumber}: name the organization`);
  return rows[0];
}

export async function countRows(db: Database, recordId: string | number) {
  const id = Number(recordId);
  const [s, a] = await Promise.all([
    db.select({ id: scans.id }).from(scans).where(eq(scans.recordId, id)),
    db.select({ id: recordActions.id }).from(recordActions).where(eq(recordActions.recordId, id)),
  ]);
  return { scans: s.length, actions: a.length };
}

/**
 * What a quality manager trusts of a record, without ids and wall-clock
 * times: the series, the summary and trip columns, and the alarms that hold.
 */
export async function recordSnapshot(db: Database, recordId: string | number) {
  const record = await recordOf(db, recordId);
  const series = await readSeries(db, record.id);
  const rows = await alarmsOf(db, recordId);
  const describe = (a: (typeof rows)[number]) => ({
    kind: a.kind,
    aboveOrBelow: a.aboveOrBelow,
    firstPointIdx: a.firstPointIdx,
    lastPointIdx: a.lastPointIdx,
    degreeMinutes: a.degreeMinutes,
    duration: a.duration,
    startTime: a.startTime?.toISOString() ?? null,
    endTime: a.endTime?.toISOString() ?? null,
    highThreshold: a.highThreshold,
    lowThreshold: a.lowThreshold,
    highest: a.highestRecordedTemperature,
    lowest: a.lowestRecordedTemperature,
    numberOfPoints: a.numberOfPoints,
  });
  return {
    series,
    summary: {
      startTimeSeconds: record.startTimeSeconds,
      highest: record.highestRecordedTemperature,
      lowest: record.lowestRecordedTemperature,
      mkt: record.meanKineticTemp,
      firstPoint: record.firstPoint?.toISOString() ?? null,
      lastPoint: record.lastPoint?.toISOString() ?? null,
      numberOfPoints: record.numberOfPoints,
      seriesLength: record.seriesLength,
      recordDuration: record.recordDuration,
      latestTemp: record.latestTemp,
      status: record.status,
      computedStatus: record.computedStatus,
      tripStatus: record.tripStatus,
      tripBegin: record.tripBeginTime?.toISOString() ?? null,
      tripEnd: record.tripEndTime?.toISOString() ?? null,
      lastLatitude: record.lastLatitude,
      lastLongitude: record.lastLongitude,
      lastScanned: record.lastScanned?.toISOString() ?? null,
      lastActionTaken: record.lastActionTaken?.toISOString() ?? null,
      active: record.active,
      stopTime: record.stopTime?.toISOString() ?? null,
      tagStatus: record.tagStatus,
      thresholds: [record.highThreshold, record.lowThreshold, record.numConsecutiveExcursions],
    },
    /** The alarms that hold. */
    alarms: rows.filter((a) => a.state === 'OPEN').map(describe),
    /** Alarms a re-evaluation no longer found (kept with their acknowledgements). */
    resolvedAlarms: rows.filter((a) => a.state === 'CLOSED').map(describe),
  };
}

/** Fisher-Yates with a seeded generator, so a failing order can be replayed. */
export function shuffled<T>(items: readonly T[], seed: number): T[] {
  let state = seed >>> 0 || 1;
  const random = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
