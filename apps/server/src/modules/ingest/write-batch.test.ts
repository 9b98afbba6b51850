import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers';
import {
  alarmsOf,
  createTravelLocation,
  deviceUser,
  epoch,
  iso,
  recordOf,
  serial,
  tagBySerial,
  xt1Body,
} from '../../../test/shipment-factories';
import { alarms, locationSamples, scans } from '../../db/schema-shipments';
import { readSeries } from '../../kernel/series-store';
import * as repo from './repository';
import { reevaluateRecord } from '../../../test/recompute';
import { WriteBatch } from './write-batch';

const XT1 = '/api/devices/xt1/';

describe('write batch [RULE-SERIES-3, FEAT-PERFORMANCE]', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    // A scratch table: made by the owner role, written by the application role as the server is.
    const app = await t.db.execute<{ role: string }>(sql`select current_user as role`);
    await t.ownerDb.execute(sql`create table wb_items (id int primary key, label text not null)`);
    await t.ownerDb.execute(
      sql`grant select, insert, update on wb_items to ${sql.identifier(app.rows[0]!.role)}`,
    );
  });
  afterAll(() => t.close());

  const insert = (id: number, label: string) =>
    sql`insert into wb_items (id, label) values (${id}, ${label})`;
  const labels = async () =>
    (
      await t.db.execute<{ id: number; label: string }>(
        sql`select id, label from wb_items order by id`,
      )
    ).rows;

  it('sends the queued statements as one, and answers the main statement’s rows', async () => {
    const batch = new WriteBatch();
    batch.add(insert(1, 'one'));
    batch.add(insert(2, 'two'));
    batch.add(sql`update wb_items set label = 'changed' where id = 0`);
    expect(batch.size).toBe(3);
    const execute = vi.spyOn(t.db, 'execute');
    try {
      const rows = await batch.run<{ id: number }>(
        t.db,
        sql`insert into wb_items (id, label) values (3, 'three') returning id`,
      );
      expect(execute).toHaveBeenCalledTimes(1);
      expect(rows).toEqual([{ id: 3 }]);
    } finally {
      execute.mockRestore();
    }
    expect(batch.size).toBe(0);
    expect(await labels()).toEqual([
      { id: 1, label: 'one' },
      { id: 2, label: 'two' },
      { id: 3, label: 'three' },
    ]);
  });

  it('an empty batch sends nothing; a flush empties it', async () => {
    const execute = vi.spyOn(t.db, 'execute');
    try {
      const batch = new WriteBatch();
      await batch.flush(t.db);
      expect(execute).not.toHaveBeenCalled();
      batch.add(insert(10, 'ten'));
      await batch.flush(t.db);
      await batch.flush(t.db);
      expect(execute).toHaveBeenCalledTimes(1);
    } finally {
      execute.mockRestore();
    }
    expect((await labels()).find((r) => r.id === 10)).toEqual({ id: 10, label: 'ten' });
  });

  it('a failing statement fails the whole batch, with its code and constraint', async () => {
    const batch = new WriteBatch();
    batch.add(insert(20, 'twenty'));
    batch.add(insert(1, 'duplicate of one'));
    const failure = await t.db
      .transaction((tx) => batch.flush(tx))
      .then(
        () => null,
        (err: unknown) => err,
      );
    let cause = failure as { code?: string; constraint?: string; cause?: unknown } | null;
    while (cause && cause.code === undefined) cause = cause.cause as typeof cause;
    expect(cause).toMatchObject({ code: '23505', constraint: 'wb_items_pkey' });
    expect((await labels()).some((r) => r.id === 20)).toBe(false);
  });

  it('splits a batch above the parameter limit into several statements, all applied', async () => {
    const batch = new WriteBatch();
    const perStatement = 1000;
    const statements = Math.ceil((WriteBatch.MAX_PARAMS * 2.5) / (2 * perStatement));
    for (let s = 0; s < statements; s++) {
      const ids = Array.from({ length: perStatement }, (_, i) => 1000 + s * perStatement + i);
      batch.add(
        sql`insert into wb_items (id, label) values ${sql.join(
          ids.map((id) => sql`(${id}, ${`item ${id}`})`),
          sql`, `,
        )}`,
      );
    }
    const execute = vi.spyOn(t.db, 'execute');
    try {
      await batch.flush(t.db);
      expect(execute.mock.calls.length).toBeGreaterThanOrEqual(3);
    } finally {
      execute.mockRestore();
    }
    const [count] = (
      await t.db.execute<{ n: string }>(sql`select count(*) as n from wb_items where id >= 1000`)
    ).rows;
    expect(Number(count!.n)).toBe(statements * perStatement);
  });
});

describe('combined reads and queued writes of an upload [RULE-SERIES-3, FEAT-PERFORMANCE]', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('what an upload keeps in memory is what the database holds: a full re-evaluation changes nothing', async () => {
    const user = await deviceUser(t, { role: 'Administrator' });
    const origin = { latitude: 52.37, longitude: 4.9 };
    const destination = { latitude: 48.85, longitude: 2.35 };
    const shipper = await createTravelLocation(t.db, user.org.id, origin);
    const receiver = await createTravelLocation(t.db, user.org.id, destination);
    const sn = serial();
    const start = epoch(new Date()) - 6 * 3600;
    const temps = Array.from({ length: 300 }, (_, i) => (i >= 100 && i < 110 ? 9.3 : 5.1));
    const post = async (path: string, body: Record<string, unknown>) => {
      const res = await user.client.post(`${XT1}${path}`, xt1Body(sn, body));
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { record_id: string };
    };
    const common = { start_time_seconds: start, measurement_interval: 60 };
    const { record_id: recordId } = await post('start-action/', {
      ...common,
      timestamp: iso(start),
      ...origin,
    });
    await post('create-shipment-action/', {
      ...common,
      timestamp: iso(start + 60),
      shipper_name_address_id: shipper,
      receiver_name_address_id: receiver,
    });
    // Scans along the route: overlapping points, a later one first, the same position twice.
    const scan = (at: number, points: number, position: typeof origin, offset = 0) =>
      post('scans/', {
        ...common,
        timestamp: iso(start + at),
        temperatures_offset_index: offset,
        temps: temps.slice(offset, offset + points),
        ...position,
      });
    await scan(7200, 120, origin);
    await scan(18_000, 200, destination, 100);
    await scan(18_000, 200, destination, 100); // a replay
    await scan(18_000, 150, destination, 100); // not a replay: the same time and position again
    await scan(18_001, 300, destination);
    await scan(10_800, 180, { latitude: 50.5, longitude: 3.6 }); // an earlier scan, late

    const before = await recordOf(t.db, recordId);
    const alarmsBefore = await alarmsOf(t.db, recordId);
    expect(before.tripStatus).toBe('ARRIVED');
    expect(alarmsBefore.length).toBeGreaterThan(0);
    const after = await reevaluateRecord(t.db, user.org.id, Number(recordId), null);
    expect(after).toEqual(before);
    expect(await recordOf(t.db, recordId)).toEqual(before);
    expect(await alarmsOf(t.db, recordId)).toEqual(alarmsBefore);

    // The combined read maps rows as Drizzle's own queries do (open alarms only).
    const state = await t.db.transaction((tx) => repo.loadRecordState(tx, Number(recordId)));
    expect(state.alarms).toEqual(
      await t.db
        .select()
        .from(alarms)
        .where(and(eq(alarms.recordId, Number(recordId)), eq(alarms.state, 'OPEN')))
        .orderBy(asc(alarms.id)),
    );
    const samples = await t.db
      .select({
        latitude: locationSamples.latitude,
        longitude: locationSamples.longitude,
        timestamp: locationSamples.timestamp,
      })
      .from(locationSamples)
      .where(eq(locationSamples.recordId, Number(recordId)))
      .orderBy(asc(locationSamples.timestamp), asc(locationSamples.id));
    expect(state.samples).toEqual(samples);
    expect(samples).toHaveLength(5);
    const [lastScan] = await t.db
      .select({ timestamp: scans.timestamp, userId: scans.createdByUserId })
      .from(scans)
      .where(eq(scans.recordId, Number(recordId)))
      .orderBy(sql`${scans.timestamp} desc`, sql`${scans.id} desc`)
      .limit(1);
    expect(state.lastScan).toEqual(lastScan);
    const series = await readSeries(t.db, Number(recordId));
    expect(series).toEqual(temps);
    expect([...state.chunks.keys()]).toEqual([0]);
    expect(state.chunks.get(0)).toEqual(temps);
  });

  it('the tag lookup of an upload maps the tag as Drizzle does, and creates it only when asked', async () => {
    const user = await deviceUser(t);
    const other = await t.createOrg();
    const sn = serial();
    const org = user.org.id;
    await t.db.transaction(async (tx) => {
      const missing = await repo.lockTagForUpload(tx, org, sn, { create: null, uploadKey: null });
      expect(missing).toEqual({ tag: undefined, inserted: false, stored: undefined });
      const created = await repo.lockTagForUpload(tx, org, sn, {
        create: { tagType: 'XT1_RT' },
        uploadKey: 'no-such-key',
      });
      expect(created.inserted).toBe(true);
      expect(created.tag).toMatchObject({
        organizationId: org,
        serialNumber: sn,
        tagType: 'XT1_RT',
        configuration: {},
      });
      const again = await repo.lockTagForUpload(tx, org, sn, {
        create: { tagType: 'XT1_RT' },
        uploadKey: null,
      });
      expect(again.inserted).toBe(false);
      expect(again.tag).toEqual(created.tag);
      // The same serial number in another organization is another tag.
      const elsewhere = await repo.lockTagForUpload(tx, other.id, sn, {
        create: null,
        uploadKey: null,
      });
      expect(elsewhere.tag).toBeUndefined();
      const theirs = await repo.lockTagForUpload(tx, other.id, sn, {
        create: { tagType: 'XT1_RT' },
        uploadKey: null,
      });
      expect(theirs.inserted).toBe(true);
      expect(theirs.tag).toMatchObject({ organizationId: other.id, serialNumber: sn });
      expect(theirs.tag!.id).not.toBe(created.tag!.id);
    });
    expect(await tagBySerial(t.db, sn, org)).toEqual(
      (
        await t.db.transaction((tx) =>
          repo.lockTagForUpload(tx, org, sn, { create: null, uploadKey: null }),
        )
      ).tag,
    );
  });
});
