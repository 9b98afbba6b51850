import { count, eq, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizations, users } from '../src/db/schema';
import { mailOutbox } from '../src/db/schema-mail';
import { notifications } from '../src/db/schema-notifications';
import {
  alarms,
  carrierDefinitions,
  locationSamples,
  organizationSettings,
  productDefinitions,
  records,
  scans,
  tags,
  travelLocations,
} from '../src/db/schema-shipments';
import { DEMO_ORGANIZATIONS, seed, seedDemo } from '../src/seed/seed';
import { DEMO_RECORD_COUNT } from '../src/seed/seed-demo';
import { readSeries } from '../src/kernel/series-store';
import { createTestApp, type TestApp } from './helpers';

const quiet = { info: () => undefined, warn: (m: string) => console.warn(m) };

/** Row counts of everything the demo records create. */
async function counts(t: TestApp) {
  const n = async (table: PgTable) => {
    const [row] = await t.db.select({ n: count() }).from(table);
    return row!.n;
  };
  return {
    records: await n(records),
    tags: await n(tags),
    scans: await n(scans),
    alarms: await n(alarms),
    samples: await n(locationSamples),
    locations: await n(travelLocations),
    products: await n(productDefinitions),
    carriers: await n(carrierDefinitions),
  };
}

describe('first-start demo records [FEAT-DEMO-DATA]', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('fill the demo organization with real-looking records, once', async () => {
    const config = { ...t.config, seedDemo: true, adminPassword: 'admin-demo-password' };
    const result = await seed(t.db, config, quiet, { demoRecords: true, pool: t.db });
    expect(result.demoRecords).toMatchObject({ shipments: DEMO_RECORD_COUNT, failed: 0 });

    const [demo] = await t.db
      .select()
      .from(organizations)
      .where(eq(organizations.name, DEMO_ORGANIZATIONS[0]));
    const rows = await t.db.select().from(records);
    expect(rows).toHaveLength(DEMO_RECORD_COUNT);
    expect(new Set(rows.map((r) => r.organizationId))).toEqual(new Set([demo!.id]));
    expect(new Set(rows.map((r) => r.tagType))).toEqual(
      new Set(['XT1_NFC_MU', 'XT1_RT', 'NanoTag']),
    );

    // Alarms of both directions, records with and without.
    const alarmRows = await t.db.select().from(alarms);
    expect(alarmRows.some((a) => a.aboveOrBelow === 'ABOVE')).toBe(true);
    expect(alarmRows.some((a) => a.aboveOrBelow === 'BELOW')).toBe(true);
    const statuses = new Set(rows.map((r) => r.status));
    expect(statuses).toEqual(new Set(['OK', 'Alarm']));

    // The bell shows each open alarm to the administrator; the demo sends no e-mail.
    const [admin] = await t.db.select().from(users).where(eq(users.email, config.adminEmail));
    const bell = await t.db
      .select({ alarmId: notifications.alarmId })
      .from(notifications)
      .where(eq(notifications.userId, admin!.id));
    const open = alarmRows.filter((a) => a.state === 'OPEN' && !a.acknowledged && !a.dismissed);
    expect(open.length).toBeGreaterThan(0);
    expect(bell.map((n) => n.alarmId).sort()).toEqual(open.map((a) => a.id).sort());
    expect(await t.db.select().from(mailOutbox)).toHaveLength(0);

    // Trips in every state, stopped and active records, series of hundreds to thousands of points.
    expect(new Set(rows.map((r) => r.tripStatus))).toEqual(
      new Set(['NOT_DEPARTED', 'IN_TRANSIT', 'ARRIVED']),
    );
    expect(rows.some((r) => r.stopTime !== null && !r.active)).toBe(true);
    expect(rows.some((r) => r.stopTime === null && r.active)).toBe(true);
    const points = rows.map((r) => r.numberOfPoints);
    expect(Math.max(...points)).toBeGreaterThan(1000);
    expect(points.filter((p) => p >= 200).length).toBeGreaterThan(DEMO_RECORD_COUNT / 2);

    // The stored series agree with the summary, positions are known, scans are the admin's.
    const longest = rows.reduce((a, b) => (b.numberOfPoints > a.numberOfPoints ? b : a));
    const series = await readSeries(t.db, longest.id);
    expect(series.filter((v) => v !== null)).toHaveLength(longest.numberOfPoints);
    expect(Math.max(...series.map((v) => v ?? -Infinity))).toBe(longest.highestRecordedTemperature);
    const [scanUsers] = await t.db
      .select({ users: sql<number>`count(distinct ${scans.createdByUserId})::int` })
      .from(scans);
    expect(scanUsers!.users).toBe(1);
    expect(rows.some((r) => r.lastLatitude !== null && r.shipperLocationId !== null)).toBe(true);

    // Configuration: travel locations (origins and destinations), products, carriers, geo-fence.
    const c = await counts(t);
    expect(c.locations).toBe(11);
    expect(c.products).toBe(5);
    expect(c.carriers).toBe(6);
    // Every record (rt ones too: their start-action leaves it out) counts its product's points.
    const products = await t.db.select().from(productDefinitions);
    const consecutive = new Map(products.map((p) => [p.productName, p.numConsecutiveExcursions]));
    expect(new Set(consecutive.values()).size).toBeGreaterThan(1);
    for (const r of rows.filter((r) => r.productDesignation !== '')) {
      expect(r.numConsecutiveExcursions, `${r.tagType} ${r.productDesignation}`).toBe(
        consecutive.get(r.productDesignation),
      );
    }
    expect(rows.filter((r) => r.tagType === 'XT1_RT' && r.productDesignation !== '')).not.toEqual(
      [],
    );
    const [fence] = await t.db
      .select()
      .from(organizationSettings)
      .where(eq(organizationSettings.organizationId, demo!.id));
    expect(fence).toMatchObject({ arrivalRadiusMeters: 5000, departureRadiusMeters: 2000 });

    // A second run (and a second seed) adds nothing.
    const again = await seedDemo(t.db, quiet, { demoRecords: true, pool: t.db });
    expect(again).toEqual({ shipments: 0, uploads: 0, failed: 0 });
    expect(await seed(t.db, config, quiet, { demoRecords: true, pool: t.db })).toEqual({
      adminCreated: false,
    });
    expect(await counts(t)).toEqual(c);
  });
});
