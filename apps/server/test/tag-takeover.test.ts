import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client';
import { auditEvents } from '../src/db/schema-audit';
import {
  alarms,
  locationSamples,
  recordActions,
  records,
  scans,
  tags,
} from '../src/db/schema-shipments';
import { readSeries } from '../src/kernel/series-store';
import { createTestApp, type TestApp } from './helpers';
import {
  deviceUser,
  epoch,
  iso,
  recordOf,
  serial,
  tagBySerial,
  xt1Body,
  type DeviceUser,
} from './shipment-factories';

/**
 * Issue 10, "tag takeover across organizations": no organization can take
 * another's tag, write into its records or lock its devices out by
 * squatting a serial number.
 */

const ASSIGN = '/api/devices/xt1/admin/assign-tags/';
const XT1 = '/api/devices/xt1/';
const RT = '/api/devices/rt/';
const NANOTAG = '/api/devices/nanotag/';
const HOUR = 3600;
const ANOTHER = '(another organization)';

/**
 * Everything an organization holds of its shipments, as stored: tags,
 * records (every column, last_modified included), series, and the rows of
 * its records or organization in the other tables, and its audit trail.
 */
async function holdings(db: Database, organizationId: string) {
  const recs = await db
    .select()
    .from(records)
    .where(eq(records.organizationId, organizationId))
    .orderBy(asc(records.id));
  const ids = recs.length > 0 ? recs.map((r) => r.id) : [-1];
  const rowsOf = async (
    table: typeof scans | typeof recordActions | typeof locationSamples | typeof alarms,
  ) => {
    const [row] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(table)
      .where(or(eq(table.organizationId, organizationId), inArray(table.recordId, ids)));
    return row!.n;
  };
  return {
    tags: await db
      .select()
      .from(tags)
      .where(eq(tags.organizationId, organizationId))
      .orderBy(asc(tags.id)),
    records: recs,
    series: await Promise.all(recs.map((r) => readSeries(db, r.id))),
    scans: await rowsOf(scans),
    actions: await rowsOf(recordActions),
    samples: await rowsOf(locationSamples),
    alarms: await rowsOf(alarms),
    audit: await db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.organizationId, organizationId))
      .orderBy(asc(auditEvents.id)),
  };
}

async function ok(res: Promise<{ statusCode: number; body: string; json(): unknown }>) {
  const r = await res;
  expect(r.statusCode, r.body).toBe(200);
  return r.json() as { record_id: string; tag_id: string; tag_serial_number: string };
}

/** A finished xt1 run of a fresh tag of `user`'s organization: started, scanned (references, thresholds), stopped. */
async function finishedRun(user: DeviceUser, start: number) {
  const sn = serial('TT');
  const started = await ok(
    user.device.post(
      `${XT1}start-action/`,
      xt1Body(sn, {
        start_time_seconds: start,
        timestamp: iso(start),
        primary_reference: 'A-CONFIDENTIAL',
      }),
    ),
  );
  await ok(
    user.device.post(
      `${XT1}scans/`,
      xt1Body(sn, {
        start_time_seconds: start,
        timestamp: iso(start + 600),
        temps: [4, 5, 6, 5, 4],
        latitude: 50,
        longitude: 8,
      }),
    ),
  );
  await ok(
    user.device.post(
      `${XT1}stop-action/`,
      xt1Body(sn, { start_time_seconds: start, timestamp: iso(start + 900) }),
    ),
  );
  return { sn, recordId: started.record_id, tagId: started.tag_id };
}

describe('tag takeover across organizations [RULE-ORG-3, RULE-ORG-1]', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("B's admin cannot claim A's idle tag: by id it fails like a malformed entry, by serial B gets a tag of its own", async () => {
    const a = await deviceUser(t);
    const b = await deviceUser(t);
    const { sn, tagId } = await finishedRun(a, epoch(new Date()) - 2 * HOUR);
    const aTag = await tagBySerial(t.db, sn, a.org.id);
    expect(aTag).toMatchObject({ running: false });
    const before = await holdings(t.db, a.org.id);

    // A's tag id, an id that exists nowhere, and a malformed entry: failed alike.
    const unknownId = String(Number(tagId) + 1_000_000);
    const byId = await b.client.post(ASSIGN, {
      organization_id: b.org.id,
      tag_ids: [tagId],
    });
    expect(byId.statusCode).toBe(200);
    expect(byId.json()).toEqual({ assigned_ids: [], failed_ids: [tagId] });
    const lookalikes = await b.client.post(ASSIGN, {
      organization_id: b.org.id,
      tag_ids: [unknownId, 'bad entry!'],
    });
    expect(lookalikes.statusCode).toBe(200);
    expect(lookalikes.json()).toEqual({ assigned_ids: [], failed_ids: [unknownId, 'bad entry!'] });

    // By serial number: B's own, new tag; A's is still A's.
    const bySerial = await b.client.post(ASSIGN, { organization_id: b.org.id, tag_ids: [sn] });
    expect(bySerial.json()).toEqual({ assigned_ids: [sn], failed_ids: [] });
    const bTag = await tagBySerial(t.db, sn, b.org.id);
    expect(bTag!.id).not.toBe(aTag!.id);
    expect(await tagBySerial(t.db, sn, a.org.id)).toEqual(aTag);

    // Nothing of A's changed, and A's audit trail has no entry about it.
    expect(await holdings(t.db, a.org.id)).toEqual(before);
  });

  it('a server administrator moves an idle tag (not a running one); both trails record it, naming neither organization', async () => {
    const a = await deviceUser(t);
    const { client: admin, orgs } = await t.signIn({ role: 'Administrator', serverAdmin: true });
    const b = orgs[0]!;
    const start = epoch(new Date()) - 2 * HOUR;
    const idle = await finishedRun(a, start);
    const running = serial('RUN');
    await ok(a.device.post(`${XT1}start-action/`, xt1Body(running, { start_time_seconds: start })));
    const aRecordsBefore = (await holdings(t.db, a.org.id)).records;

    const res = await admin.post(ASSIGN, { organization_id: b.id, tag_ids: [idle.tagId, running] });
    expect(res.json()).toEqual({ assigned_ids: [idle.tagId], failed_ids: [running] });
    const moved = await tagBySerial(t.db, idle.sn, b.id);
    expect(moved).toMatchObject({
      id: Number(idle.tagId),
      running: false,
      lastRecordId: null,
      configuration: {},
    });
    expect((await tagBySerial(t.db, running, a.org.id))!.running).toBe(true);
    // A's records, the moved tag's among them, stay A's and unchanged.
    expect((await holdings(t.db, a.org.id)).records).toEqual(aRecordsBefore);

    const trail = (organizationId: string) =>
      t.db
        .select()
        .from(auditEvents)
        .where(
          and(eq(auditEvents.organizationId, organizationId), eq(auditEvents.entityType, 'tag')),
        );
    const inA = await trail(a.org.id);
    const inB = await trail(b.id);
    expect(inA.map((e) => [e.action, e.entityId, e.newValue])).toEqual([
      ['tag.release', idle.tagId, ANOTHER],
    ]);
    expect(inB.map((e) => [e.action, e.entityId, e.oldValue])).toEqual([
      ['tag.assign', idle.tagId, ANOTHER],
    ]);
    const bName = orgs[0]!.name;
    const aName = a.org.name;
    expect(JSON.stringify(inA)).not.toContain(b.id);
    expect(JSON.stringify(inA)).not.toContain(bName);
    expect(JSON.stringify(inB)).not.toContain(a.org.id);
    expect(JSON.stringify(inB)).not.toContain(aName);
  });

  it("B's device sending an xt1 scan, an rt packet and a nanotag frame for A's tags changes nothing of A's", async () => {
    const a = await deviceUser(t);
    const b = await deviceUser(t);
    const start = epoch(new Date()) - 2 * HOUR;
    // A: an xt1 tag running, an rt tag running, a nanotag running.
    const xt1 = serial('X');
    const xt1Run = await ok(
      a.device.post(
        `${XT1}start-action/`,
        xt1Body(xt1, { start_time_seconds: start, primary_reference: 'A-REF' }),
      ),
    );
    await ok(
      a.device.post(
        `${XT1}scans/`,
        xt1Body(xt1, { start_time_seconds: start, timestamp: iso(start + 300), temps: [5, 5] }),
      ),
    );
    const rt = serial('R');
    await ok(a.device.post(`${RT}configure-action/`, { tag_id: rt, measurement_interval: 60 }));
    const rtRun = await ok(
      a.device.post(`${RT}start-action/`, { tag_id: rt, start_time_seconds: start }),
    );
    await ok(
      a.device.post(`${RT}packets/`, { tag_id: rt, start_time_seconds: start, temps: [4, 4] }),
    );
    const nano = serial('N');
    await ok(
      a.device.post(`${NANOTAG}generalized-data/`, {
        tag_id: nano,
        high_threshold: 8,
        low_threshold: 2,
        measurement_interval: 60,
        start_delay: 0,
        num_consecutive_excursions: 1,
      }),
    );
    await ok(
      a.device.post(`${NANOTAG}configure-action/`, { tag_id: nano, record_period_seconds: 60 }),
    );
    const nanoRun = await ok(
      a.device.post(`${NANOTAG}first-sample-action/`, {
        tag_id: nano,
        first_sample_timestamp: iso(start),
      }),
    );
    await ok(
      a.device.post(`${NANOTAG}packets/`, {
        tag_id: nano,
        temps: [3, 3],
        packet_end_time_seconds: start + 60,
      }),
    );
    const before = await holdings(t.db, a.org.id);

    // B's device, by serial number and by A's tag ids, with hot points and new settings.
    const scan = await b.device.post(
      `${XT1}scans/`,
      xt1Body(xt1, {
        start_time_seconds: start,
        timestamp: iso(start + 600),
        temps: [99.9, 99.9, 99.9],
        high_threshold: 50,
        primary_reference: 'B-REF',
      }),
    );
    expect(scan.statusCode, scan.body).toBe(200);
    expect(scan.json().tag_id).not.toBe(xt1Run.tag_id);
    expect(scan.json().record_id).not.toBe(xt1Run.record_id);
    expect(await recordOf(t.db, scan.json().record_id)).toMatchObject({
      organizationId: b.org.id,
      primaryReference: 'B-REF',
    });
    const refused: [string, object][] = [
      [`${RT}packets/`, { tag_id: rt, start_time_seconds: start, temps: [99.9] }],
      [`${RT}packets/`, { tag_id: rtRun.tag_id, temps: [99.9] }],
      [`${RT}stop-action/`, { tag_id: rt }],
      [`${NANOTAG}packets/`, { tag_id: nano, temps: [99.9], packet_end_time_seconds: start + 120 }],
      [
        `${NANOTAG}packets/`,
        { tag_id: nanoRun.tag_id, temps: [99.9], packet_end_time_seconds: start + 120 },
      ],
      [`${XT1}update-shipment-action/`, { tag_id: xt1Run.tag_id, high_threshold: 50 }],
      [`${XT1}stop-action/`, xt1Body(xt1Run.tag_id, { tag_serial_number: undefined })],
    ];
    for (const [path, body] of refused) {
      const res = await b.device.post(path, body);
      expect(res.statusCode, `${path} ${res.body}`).toBe(404);
    }
    expect(await holdings(t.db, a.org.id)).toEqual(before);
  });

  it("after a tag moved from A to B, B's uploads never reach A's finished or pending records", async () => {
    const a = await deviceUser(t);
    const { client: admin, orgs } = await t.signIn({ role: 'Administrator', serverAdmin: true });
    const b = await deviceUser(t, { orgs });
    const t1 = epoch(new Date()) - 3 * HOUR;
    // A finished run, moved by the server administrator.
    const finished = await finishedRun(a, t1);
    // Another tag with a finished run and a pending record (configured, not started).
    const pendingRun = await finishedRun(a, t1);
    const pending = await ok(
      a.device.post(
        `${XT1}configure-action/`,
        xt1Body(pendingRun.sn, { high_threshold: 7, primary_reference: 'A-PENDING' }),
      ),
    );
    expect(pending.record_id).not.toBe(pendingRun.recordId);
    // Assign refuses a tag in use (the pending record)...
    expect(
      (
        await admin.post(ASSIGN, {
          organization_id: orgs[0]!.id,
          tag_ids: [finished.tagId, pendingRun.tagId],
        })
      ).json(),
    ).toEqual({ assigned_ids: [finished.tagId], failed_ids: [pendingRun.tagId] });
    // ...so move that one as a tag moved before that rule would have been.
    await t.db
      .update(tags)
      .set({ organizationId: orgs[0]!.id })
      .where(eq(tags.id, Number(pendingRun.tagId)));
    const before = await holdings(t.db, a.org.id);
    expect(before.records.map((r) => r.id)).toEqual(
      expect.arrayContaining(
        [finished.recordId, pendingRun.recordId, pending.record_id].map(Number),
      ),
    );

    // B replays the run A finished (same start), configures, starts a new run and sends packets.
    for (const sn of [finished.sn, pendingRun.sn]) {
      const replayed = await ok(
        b.device.post(
          `${XT1}scans/`,
          xt1Body(sn, {
            start_time_seconds: t1,
            timestamp: iso(t1 + 1200),
            temps: [99.9, 99.9, 99.9, 99.9, 99.9, 99.9],
            primary_reference: 'B-REF',
          }),
        ),
      );
      expect(await recordOf(t.db, replayed.record_id)).toMatchObject({
        organizationId: b.org.id,
        startTimeSeconds: t1,
        primaryReference: 'B-REF',
      });
      await ok(
        b.device.post(
          `${XT1}configure-action/`,
          xt1Body(sn, { high_threshold: 30, low_threshold: 0 }),
        ),
      );
      const t2 = t1 + HOUR;
      const restarted = await ok(
        b.device.post(`${XT1}start-action/`, xt1Body(sn, { start_time_seconds: t2 })),
      );
      await ok(
        b.device.post(
          `${XT1}scans/`,
          xt1Body(sn, { start_time_seconds: t2, timestamp: iso(t2 + 300), temps: [99.9] }),
        ),
      );
      const tag = await tagBySerial(t.db, sn, b.org.id);
      expect(tag).toMatchObject({ running: true, lastRecordId: Number(restarted.record_id) });
      expect((await recordOf(t.db, restarted.record_id)).organizationId).toBe(b.org.id);
    }
    // A's records (finished and pending), points, scans and actions: as they were.
    expect(await holdings(t.db, a.org.id)).toEqual(before);
    expect(await recordOf(t.db, pending.record_id)).toMatchObject({
      active: true,
      startTimeSeconds: null,
      highThreshold: 7,
      primaryReference: 'A-PENDING',
    });
  });

  it("a serial number B assigned first does not lock A's devices out: A's upload goes into A's own record", async () => {
    const a = await deviceUser(t);
    const b = await deviceUser(t);
    const sn = serial('SQ');
    const squat = await b.client.post(ASSIGN, { organization_id: b.org.id, tag_ids: [sn] });
    expect(squat.json()).toEqual({ assigned_ids: [sn], failed_ids: [] });
    const bBefore = await holdings(t.db, b.org.id);

    const start = epoch(new Date()) - HOUR;
    const started = await ok(
      a.device.post(`${XT1}start-action/`, xt1Body(sn, { start_time_seconds: start })),
    );
    const scanned = await ok(
      a.device.post(
        `${XT1}scans/`,
        xt1Body(sn, { start_time_seconds: start, timestamp: iso(start + 300), temps: [5, 6] }),
      ),
    );
    expect(scanned.record_id).toBe(started.record_id);
    expect(await recordOf(t.db, scanned.record_id)).toMatchObject({ organizationId: a.org.id });
    expect(await readSeries(t.db, Number(scanned.record_id))).toEqual([5, 6]);
    expect(scanned.tag_id).toBe(String((await tagBySerial(t.db, sn, a.org.id))!.id));
    // And the rt family likewise: B's tag of a serial is not A's.
    const rtSn = serial('SQR');
    await b.client.post(ASSIGN, { organization_id: b.org.id, tag_ids: [rtSn] });
    await ok(a.device.post(`${RT}configure-action/`, { tag_id: rtSn, measurement_interval: 60 }));
    await ok(a.device.post(`${RT}start-action/`, { tag_id: rtSn, start_time_seconds: start }));
    const packet = await ok(
      a.device.post(`${RT}packets/`, { tag_id: rtSn, start_time_seconds: start, temps: [3] }),
    );
    expect((await recordOf(t.db, packet.record_id)).organizationId).toBe(a.org.id);

    const bAfter = await holdings(t.db, b.org.id);
    expect(bAfter.records).toEqual(bBefore.records);
    expect(bAfter.tags.find((tag) => tag.serialNumber === sn)).toEqual(
      bBefore.tags.find((tag) => tag.serialNumber === sn),
    );
  });
});
