import { ZKpiReport } from '@coldtrace/contract';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordRow } from '../../db/schema-shipments';
import { createTestApp, type TestApp, type TestClient } from '../../../test/helpers';
import { recordFactories } from '../../../test/record-factories';
import { bucketsOf, periodOf } from './service';

/**
 * Lane and carrier KPIs on a worked example (docs/decisions/kpis.md): two
 * lanes (Oslo to Bergen, Oslo to Lyon), a shipment with neither, carriers
 * DHL, Kuehne and none, known alarms and acknowledgement times, decisions,
 * a shipment outside the period and another organization's shipment.
 */
const at = (iso: string) => new Date(iso);
const seconds = (iso: string) => Date.parse(iso) / 1000;
const URL_ = '/api/kpis/lanes/';
const MARCH = 'from=2025-03-01&to=2025-03-31';

describe('lane and carrier KPIs [FEAT-KPIS]', () => {
  let t: TestApp;
  let admin: TestClient;
  let bClient: TestClient;
  let keyAdmin: TestClient;
  let ids: Record<'oslo' | 'bergen' | 'lyon', string>;

  beforeAll(async () => {
    t = await createTestApp();
    const f = recordFactories(t.db);
    const orgA = await t.createOrg('Org A');
    const orgB = await t.createOrg('Org B');
    ({ client: admin } = await t.signIn({ role: 'Viewer', orgs: [orgA] }));
    ({ client: bClient } = await t.signIn({ role: 'Administrator', orgs: [orgB] }));
    ({ client: keyAdmin } = await t.signIn({ role: 'Administrator', orgs: [orgA] }));
    const oslo = await f.travelLocation(orgA, { name: 'Oslo', origin: true });
    const bergen = await f.travelLocation(orgA, { name: 'Bergen', destination: true });
    const lyon = await f.travelLocation(orgA, { name: '=Lyon', destination: true });
    ids = { oslo: String(oslo.id), bergen: String(bergen.id), lyon: String(lyon.id) };
    const lane = (to: typeof bergen) => ({
      shipperLocationId: oslo.id,
      receiverLocationId: to.id,
    });

    const r1 = await f.record(orgA, undefined, {
      ...lane(bergen),
      carrier: 'DHL',
      productDesignation: 'Insulin',
      startTimeSeconds: seconds('2025-03-03T08:00:00Z'),
    });
    await f.alarm(r1, {
      degreeMinutes: 10,
      created: at('2025-03-03T10:00:00Z'),
      acknowledged: true,
      acknowledgedAt: at('2025-03-03T10:30:00Z'),
    });
    // Closed, never acknowledged: it counts as an excursion, not in the mean time.
    await f.alarm(r1, {
      degreeMinutes: 5,
      created: at('2025-03-03T11:00:00Z'),
      state: 'CLOSED',
      closedAt: at('2025-03-03T12:00:00Z'),
    });
    const r2 = await f.record(orgA, undefined, {
      ...lane(bergen),
      carrier: ' DHL ',
      productDesignation: 'Vaccine',
      startTimeSeconds: seconds('2025-03-10T00:00:00Z'),
    });
    const r3 = await f.record(orgA, undefined, {
      ...lane(lyon),
      carrier: 'Kuehne',
      productDesignation: 'Vaccine',
      startTimeSeconds: seconds('2025-03-16T23:59:59Z'),
    });
    await f.alarm(r3, {
      degreeMinutes: 20,
      created: at('2025-03-17T12:00:00Z'),
      acknowledged: true,
      acknowledgedAt: at('2025-03-17T13:30:00Z'),
    });
    // No lane, no carrier.
    await f.record(orgA, undefined, { startTimeSeconds: seconds('2025-03-20T00:00:00Z') });
    // After the period (its last day is included, the next is not).
    const late = await f.record(orgA, undefined, {
      ...lane(lyon),
      carrier: 'Kuehne',
      startTimeSeconds: seconds('2025-04-01T00:00:00Z'),
    });
    await f.alarm(late, { degreeMinutes: 100 });
    // Another organization's shipment on a lane with the same names: never counted.
    const bOslo = await f.travelLocation(orgB, { name: 'Oslo' });
    const bBergen = await f.travelLocation(orgB, { name: 'Bergen' });
    const rB = await f.record(orgB, undefined, {
      shipperLocationId: bOslo.id,
      receiverLocationId: bBergen.id,
      carrier: 'DHL',
      startTimeSeconds: seconds('2025-03-05T00:00:00Z'),
    });
    await f.alarm(rB, { degreeMinutes: 1000 });

    const decide = (r: RecordRow, decision: string, signedAt: string) =>
      t.db.execute(sql`
        INSERT INTO record_dispositions
          (organization_id, record_id, decision, comment, meaning, user_id, printed_name, signed_at, client_type)
        VALUES (${r.organizationId}, ${r.id}, ${decision}, 'ok', 'APPROVED', gen_random_uuid(), 'Q. A.', ${signedAt}::timestamptz, 'WEB')`);
    // r1: quarantined, then released (the latest decision counts); r2 rejected.
    await decide(r1, 'QUARANTINED', '2025-03-04T00:00:00Z');
    await decide(r1, 'RELEASED', '2025-03-05T00:00:00Z');
    await decide(r2, 'REJECTED', '2025-03-11T00:00:00Z');
    await decide(rB, 'REJECTED', '2025-03-11T00:00:00Z');
  });
  afterAll(() => t.close());

  it('sums per lane over the shipments that started in the period', async () => {
    const res = await admin.get(`${URL_}?${MARCH}&group_by=lane`);
    expect(res.statusCode, res.body).toBe(200);
    const body = ZKpiReport.parse(res.json());
    expect(body).toMatchObject({ from: '2025-03-01', to: '2025-03-31', interval: 'week' });
    expect(body.rows).toEqual([
      {
        origin: { id: ids.oslo, name: 'Oslo' },
        destination: { id: ids.bergen, name: 'Bergen' },
        shipments: 2,
        shipments_with_excursion: 1,
        excursion_rate: 0.5,
        degree_minutes: 15,
        mean_minutes_to_acknowledge: 30,
        released_share: 0.5,
        rejected_share: 0.5,
      },
      {
        origin: { id: ids.oslo, name: 'Oslo' },
        destination: { id: ids.lyon, name: '=Lyon' },
        shipments: 1,
        shipments_with_excursion: 1,
        excursion_rate: 1,
        degree_minutes: 20,
        mean_minutes_to_acknowledge: 90,
        released_share: 0,
        rejected_share: 0,
      },
      {
        origin: null,
        destination: null,
        shipments: 1,
        shipments_with_excursion: 0,
        excursion_rate: 0,
        degree_minutes: 0,
        mean_minutes_to_acknowledge: null,
        released_share: 0,
        rejected_share: 0,
      },
    ]);
    expect(body.totals).toEqual({
      shipments: 4,
      shipments_with_excursion: 2,
      excursion_rate: 0.5,
      degree_minutes: 35,
      mean_minutes_to_acknowledge: 60,
      released_share: 0.25,
      rejected_share: 0.25,
    });
    // Weeks start on Monday (UTC); March 2025 begins on a Saturday.
    expect(body.series).toEqual([
      { period_start: '2025-02-24', shipments: 0, shipments_with_excursion: 0, excursion_rate: 0 },
      { period_start: '2025-03-03', shipments: 1, shipments_with_excursion: 1, excursion_rate: 1 },
      {
        period_start: '2025-03-10',
        shipments: 2,
        shipments_with_excursion: 1,
        excursion_rate: 0.5,
      },
      { period_start: '2025-03-17', shipments: 1, shipments_with_excursion: 0, excursion_rate: 0 },
      { period_start: '2025-03-24', shipments: 0, shipments_with_excursion: 0, excursion_rate: 0 },
      { period_start: '2025-03-31', shipments: 0, shipments_with_excursion: 0, excursion_rate: 0 },
    ]);
  });

  it('sums per carrier (trimmed, ignoring case), and narrows to a product', async () => {
    const res = await admin.get(`${URL_}?${MARCH}&group_by=carrier`);
    expect(res.statusCode, res.body).toBe(200);
    const rows = ZKpiReport.parse(res.json()).rows;
    expect(
      rows.map((r) => [
        r.carrier,
        r.shipments,
        r.shipments_with_excursion,
        r.degree_minutes,
        r.mean_minutes_to_acknowledge,
      ]),
    ).toEqual([
      ['DHL', 2, 1, 15, 30],
      ['Kuehne', 1, 1, 20, 90],
      ['', 1, 0, 0, null],
    ]);
    const insulin = ZKpiReport.parse(
      (await admin.get(`${URL_}?${MARCH}&group_by=carrier&product=insulin`)).json(),
    );
    expect(insulin.totals.shipments).toBe(1);
    expect(insulin.rows.map((r) => r.carrier)).toEqual(['DHL']);
  });

  it('counts the last day of the period and months for a long period', async () => {
    const april = ZKpiReport.parse(
      (await admin.get(`${URL_}?from=2025-04-01&to=2025-04-01`)).json(),
    );
    expect(april.totals).toMatchObject({ shipments: 1, degree_minutes: 100 });
    const year = ZKpiReport.parse(
      (await admin.get(`${URL_}?from=2025-01-01&to=2025-12-31`)).json(),
    );
    expect(year.interval).toBe('month');
    expect(year.series).toHaveLength(12);
    expect(year.series[2]).toMatchObject({ period_start: '2025-03-01', shipments: 4 });
    expect(year.series[3]).toMatchObject({ period_start: '2025-04-01', shipments: 1 });
  });

  it("never counts another organization's shipments", async () => {
    const res = await bClient.get(`${URL_}?${MARCH}`);
    expect(res.statusCode).toBe(200);
    const body = ZKpiReport.parse(res.json());
    expect(body.totals).toMatchObject({ shipments: 1, degree_minutes: 1000, rejected_share: 1 });
    expect(body.rows.map((r) => r.destination?.name)).toEqual(['Bergen']);
  });

  it('answers a read-only API key of the organization, JSON and CSV', async () => {
    const generated = await keyAdmin.post('/api/keys/generate/', {
      name: 'kpi key',
      read_only: true,
    });
    expect(generated.statusCode, generated.body).toBe(200);
    const key = generated.json().private_key as string;
    const res = await t.inject({
      method: 'GET',
      url: `${URL_}?${MARCH}`,
      headers: { authorization: `Api-Key ${key}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(ZKpiReport.parse(res.json()).totals).toMatchObject({ shipments: 4, degree_minutes: 35 });
    const csv = await t.inject({
      method: 'GET',
      url: `${URL_}csv/?${MARCH}`,
      headers: { 'x-api-key': key },
    });
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.body).toContain('Oslo,Bergen,2,1,0.5000,15.0,30.0,0.5000,0.5000');
  });

  it('answers 400 naming the field', async () => {
    const cases: [string, string][] = [
      ['from=2025-02-30', 'from'],
      ['from=yesterday', 'from'],
      ['to=2025-03-01T10:00', 'to'],
      ['from=2025-03-02&to=2025-03-01', 'to'],
      ['from=2022-01-01&to=2025-01-01', 'from'],
      ['group_by=product', 'group_by'],
      [`product=${'x'.repeat(201)}`, 'product'],
    ];
    for (const [query, field] of cases) {
      for (const path of [URL_, `${URL_}csv/`]) {
        const res = await admin.get(`${path}?${query}`);
        expect(res.statusCode, `${path}?${query}: ${res.body}`).toBe(400);
        expect(Object.keys(res.json().fields), query).toEqual([field]);
      }
    }
  });

  it('exports the same as CSV, formulas neutralised', async () => {
    const res = await admin.get(`${URL_}csv/?${MARCH}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toContain('kpis-lane-2025-03-01-2025-03-31.csv');
    expect(
      res.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\n'),
    ).toEqual([
      'Origin,Destination,Shipments,Shipments with excursion,Excursion rate,Degree-minutes,Mean minutes to acknowledge,Released share,Rejected share',
      'Oslo,Bergen,2,1,0.5000,15.0,30.0,0.5000,0.5000',
      "Oslo,'=Lyon,1,1,1.0000,20.0,90.0,0.0000,0.0000",
      ',,1,0,0.0000,0.0,,0.0000,0.0000',
    ]);
  });
});

describe('KPI figures carry no float noise (issue 35) [FEAT-KPIS]', () => {
  let t: TestApp;
  let viewer: TestClient;
  let f: ReturnType<typeof recordFactories>;
  let org: Awaited<ReturnType<TestApp['createOrg']>>;
  beforeAll(async () => {
    t = await createTestApp();
    f = recordFactories(t.db);
    org = await t.createOrg();
    ({ client: viewer } = await t.signIn({ role: 'Viewer', orgs: [org] }));
  });
  afterAll(() => t.close());

  /** At most 4 decimals, as every other figure of a reply (STORED_DECIMALS). */
  const atReplyPrecision = (n: number | null) => n === null || Number(n.toFixed(4)) === n;

  it('sums 0.1-step degree-minutes to their decimal sum, means and shares at 4 decimals', async () => {
    // Each run is one day of its own, so the runs never see each other's shipments.
    let day = Date.parse('2024-01-01T00:00:00Z');
    const alarm = fc.record({
      tenths: fc.integer({ min: 0, max: 50_000 }),
      ackSeconds: fc.option(fc.integer({ min: 1, max: 7_200 }), { nil: null }),
      record: fc.integer({ min: 0, max: 2 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(alarm, { minLength: 2, maxLength: 12 }), async (alarms) => {
        day += 86_400_000;
        const start = new Date(day + 3_600_000);
        const records = [];
        for (let i = 0; i < 3; i++) {
          records.push(await f.record(org, undefined, { startTimeSeconds: day / 1000 + i }));
        }
        for (const a of alarms) {
          await f.alarm(records[a.record]!, {
            degreeMinutes: a.tenths / 10,
            created: start,
            ...(a.ackSeconds === null
              ? {}
              : {
                  acknowledged: true,
                  acknowledgedAt: new Date(start.getTime() + a.ackSeconds * 1000),
                }),
          });
        }
        const date = new Date(day).toISOString().slice(0, 10);
        const res = await viewer.get(`${URL_}?from=${date}&to=${date}`);
        expect(res.statusCode, res.body).toBe(200);
        const body = ZKpiReport.parse(res.json());
        // The decimal sum: whole tenths added exactly, divided once.
        const tenths = alarms.reduce((sum, a) => sum + a.tenths, 0);
        expect(body.totals.degree_minutes).toBe(tenths / 10);
        expect(body.rows.map((r) => r.degree_minutes)).toEqual([tenths / 10]);
        const acknowledged = alarms.flatMap((a) => (a.ackSeconds === null ? [] : [a.ackSeconds]));
        const mean = body.totals.mean_minutes_to_acknowledge;
        if (acknowledged.length === 0) expect(mean).toBeNull();
        else {
          const exact = acknowledged.reduce((x, y) => x + y, 0) / 60 / acknowledged.length;
          expect(Math.abs(mean! - exact)).toBeLessThanOrEqual(0.00005 + 1e-9);
        }
        const figures = [body.totals, ...body.rows, ...body.series].flatMap((r) => [
          r.excursion_rate,
          'degree_minutes' in r ? r.degree_minutes : null,
          'mean_minutes_to_acknowledge' in r ? r.mean_minutes_to_acknowledge : null,
          'released_share' in r ? r.released_share : null,
        ]);
        expect(figures.filter((n) => !atReplyPrecision(n))).toEqual([]);
      }),
      { seed: 20_260_035, numRuns: 15 },
    );
  });
});

describe('KPI periods [FEAT-KPIS]', () => {
  it('defaults to the last 90 days and bounds the period', () => {
    const now = Date.parse('2025-06-30T15:00:00Z');
    const p = periodOf({}, now);
    expect(new Date(p.to).toISOString()).toBe('2025-06-30T00:00:00.000Z');
    expect(new Date(p.from).toISOString()).toBe('2025-04-02T00:00:00.000Z');
    expect(() => periodOf({ from: '2023-06-29', to: '2025-06-30' })).toThrow(/at most 731/);
    expect(() => periodOf({ from: '2023-07-01', to: '2025-06-30' })).not.toThrow();
  });

  it('lists every week or month of the period', () => {
    const d = (s: string) => Date.parse(`${s}T00:00:00Z`);
    expect(bucketsOf(d('2025-01-31'), d('2025-03-01'), 'month')).toEqual([
      '2025-01-01',
      '2025-02-01',
      '2025-03-01',
    ]);
    expect(bucketsOf(d('2025-03-03'), d('2025-03-09'), 'week')).toEqual(['2025-03-03']);
  });
});
