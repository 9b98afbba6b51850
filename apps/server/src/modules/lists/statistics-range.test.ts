import { ZRecordStatistics } from '@coldtrace/contract';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordRow, TagRow } from '../../db/schema-shipments';
import { createTestApp, type TestApp, type TestClient, type TestOrg } from '../../../test/helpers';
import { recordFactories } from '../../../test/record-factories';
import { recordingRecords } from '../../../test/recording-records';
import { XT1 } from '../records/records.fixtures';
import { FOLD_COUNTS_JOB } from '../../jobs/catalogue';
import { wholeHoursOf } from './statistics';
import { COUNT_ROWS_TO_FOLD } from '../records/kept-counts';

const HOUR = 3_600_000;
const BASE = Date.parse('2025-06-01T00:00:00Z');
/** The data's span: three days from BASE. */
const SPAN = 72 * HOUR;

/**
 * The statistics of a range read the whole hours of the range from
 * `record_hour_deltas` (migration 0024, docs/decisions/list-performance.md,
 * "Range statistics") and count only the partial hours at its ends from the
 * records. They answer exactly what counting the rows answers, for any range
 * (to the millisecond), through inserts, counted changes, records and scans
 * moving hour, record or organization, deletes (a record's scans go with it),
 * the folding of piled rows, and another organization's rows beside them.
 */
describe('statistics of a range from hour counts [FEAT-KEPT-COUNTS]', () => {
  let t: TestApp;
  let f: ReturnType<typeof recordFactories>;
  let org: TestOrg;
  let other: TestOrg;
  let client: TestClient;
  const recs: RecordRow[] = [];
  let tagsOfOrg: TagRow[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    f = recordFactories(t.db);
    org = await t.createOrg('Hours');
    other = await t.createOrg('Hours beside');
    ({ client } = await t.signIn({ role: 'Administrator', orgs: [org] }));
    // Created times spread over the three days: on the hour, a millisecond before one, on a minute.
    tagsOfOrg = [];
    for (let i = 0; i < 6; i++) tagsOfOrg.push(await f.tag(org, { running: i % 2 === 0 }));
    const otherTag = await f.tag(other, { running: true });
    for (let i = 0; i < 70; i++) {
      const kind = i % 5;
      const hour = (i * 37) % 72;
      const created = new Date(
        BASE + hour * HOUR + (kind === 0 ? 0 : kind === 1 ? HOUR - 1 : ((i * 13) % 60) * 60_000),
      );
      const rec = await f.record(org, tagsOfOrg[i % tagsOfOrg.length], {
        created,
        computedStatus: i % 3 === 0 ? 'Alarm' : 'OK',
        active: i % 4 === 0,
      });
      recs.push(rec);
      for (let s = 0; s < i % 4; s++) await f.scan(rec);
      // The other organization's records in the same hours.
      if (i % 2 === 0) await f.scan(await f.record(other, otherTag, { created }));
    }
    // A scan of another organization on one of ours: not counted for either.
    await f.scan(recs[3]!, { organizationId: other.id });
  });
  afterAll(() => t.close());

  /** What counting the rows says for [from, to) (the statistics' own definitions). */
  async function counted(from: Date, to: Date) {
    const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;
    const inRange = sql`r.created >= ${at(from)} AND r.created < ${at(to)}`;
    const { rows } = await t.db.execute<Record<string, number>>(sql`SELECT
      count(*)::int AS num_records,
      (count(*) FILTER (WHERE r.computed_status = 'Alarm'))::int AS num_alarm_records,
      (count(*) FILTER (WHERE r.computed_status <> 'Alarm'))::int AS num_no_alarm_records,
      (count(*) FILTER (WHERE r.active))::int AS num_active_records,
      (count(*) FILTER (WHERE NOT r.active))::int AS num_stopped_records,
      (SELECT count(*)::int FROM scans s JOIN records r ON r.id = s.record_id
        AND r.organization_id = s.organization_id
        WHERE r.organization_id = ${org.id} AND ${inRange}) AS scans_made,
      (SELECT count(*)::int FROM tags t WHERE t.organization_id = ${org.id} AND t.running
        AND EXISTS (SELECT 1 FROM records r WHERE r.tag_id = t.id
          AND r.organization_id = t.organization_id AND ${inRange})) AS running_tags,
      (SELECT count(*)::int FROM tags t WHERE t.organization_id = ${org.id} AND NOT t.running
        AND EXISTS (SELECT 1 FROM records r WHERE r.tag_id = t.id
          AND r.organization_id = t.organization_id AND ${inRange})) AS idle_tags
      FROM records r WHERE r.organization_id = ${org.id} AND ${inRange}`);
    return rows[0]!;
  }

  /** The filtered statistics for [from, to): the end date names the millisecond before `to`. */
  async function read(from: Date, to: Date) {
    const end = new Date(to.getTime() - 1);
    const res = await client.get(
      `${XT1}/records/statistics/filtered/?start_date=${from.toISOString()}&end_date=${end.toISOString()}`,
    );
    expect(res.statusCode).toBe(200);
    const body = ZRecordStatistics.parse(res.json());
    return {
      num_records: body.num_records,
      num_alarm_records: body.num_alarm_records,
      num_no_alarm_records: body.num_no_alarm_records,
      num_active_records: body.num_active_records,
      num_stopped_records: body.num_stopped_records,
      scans_made: body.scans_made,
      running_tags: body.running_tags,
      idle_tags: body.idle_tags,
    };
  }

  /** Ranges to the millisecond, on and off the hour, inside one hour and across the whole data. */
  const ranges = fc
    .tuple(
      fc.oneof(
        fc.integer({ min: -2, max: 74 }).map((h) => h * HOUR),
        fc.integer({ min: -HOUR, max: SPAN + HOUR }),
      ),
      fc.oneof(
        fc.integer({ min: 1, max: 80 }).map((h) => h * HOUR),
        fc.integer({ min: 1, max: 2 * HOUR }),
        fc.integer({ min: 1, max: SPAN + 2 * HOUR }),
      ),
    )
    .map(([start, length]) => ({
      from: new Date(BASE + start),
      to: new Date(BASE + start + length),
    }));

  async function expectExactOver(runs: number) {
    await fc.assert(
      fc.asyncProperty(ranges, async ({ from, to }) => {
        expect(await read(from, to)).toEqual(await counted(from, to));
      }),
      { numRuns: runs, seed: 13 },
    );
    // The whole span, and a range of whole hours only.
    const whole = { from: new Date(BASE - HOUR), to: new Date(BASE + SPAN + HOUR) };
    const all = await read(whole.from, whole.to);
    expect(all).toEqual(await counted(whole.from, whole.to));
    expect(all.num_records).toBeGreaterThan(0);
    expect(all.scans_made).toBeGreaterThan(0);
    expect(all.running_tags).toBeGreaterThan(0);
    expect(all.idle_tags).toBeGreaterThan(0);
  }

  it('split a range into its whole hours and the partial hours at its ends', () => {
    const at = (iso: string) => new Date(iso);
    expect(
      wholeHoursOf({ from: at('2025-06-01T00:00:00Z'), to: at('2025-06-02T00:00:00Z') }),
    ).toEqual({ first: at('2025-06-01T00:00:00Z'), end: at('2025-06-02T00:00:00Z') });
    expect(
      wholeHoursOf({ from: at('2025-06-01T00:00:00.001Z'), to: at('2025-06-01T02:59:59Z') }),
    ).toEqual({ first: at('2025-06-01T01:00:00Z'), end: at('2025-06-01T02:00:00Z') });
    // Across one boundary, or within one hour: no whole hour.
    expect(
      wholeHoursOf({ from: at('2025-06-01T00:30:00Z'), to: at('2025-06-01T01:30:00Z') }),
    ).toBeNull();
    expect(
      wholeHoursOf({ from: at('2025-06-01T00:10:00Z'), to: at('2025-06-01T00:20:00Z') }),
    ).toBeNull();
    // A zone that is not whole hours: the range still splits on UTC hours.
    expect(
      wholeHoursOf({ from: at('2025-05-31T18:30:00Z'), to: at('2025-06-01T18:30:00Z') }),
    ).toEqual({ first: at('2025-05-31T19:00:00Z'), end: at('2025-06-01T18:00:00Z') });
  });

  it("bucket by the UTC hour whatever the session's time zone", async () => {
    for (const zone of ['UTC', 'Asia/Kolkata', 'America/St_Johns', 'Asia/Kathmandu']) {
      const hours = await t.db.transaction(async (tx) => {
        await tx.execute(sql.raw(`SET LOCAL TIME ZONE '${zone}'`));
        const { rows } = await tx.execute<{ hour: string }>(sql`SELECT to_char(
            record_hour_of(t) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') AS hour
          FROM unnest(${sql.param(['2025-06-01T10:45:00Z', '2025-06-01T10:59:59.999999Z', '2025-06-01T11:00:00Z'])}::timestamptz[]) AS t`);
        return rows.map((r) => r.hour);
      });
      expect(hours, zone).toEqual([
        '2025-06-01T10:00:00.000000',
        '2025-06-01T10:00:00.000000',
        '2025-06-01T11:00:00.000000',
      ]);
    }
  });

  it('are exact for any range after inserts', async () => {
    await expectExactOver(40);
  });

  it('stay exact through counted changes, moves and deletes', async () => {
    const [a, b, c, d, e, g] = [recs[5]!, recs[6]!, recs[7]!, recs[9]!, recs[10]!, recs[11]!];
    // Counted changes, and one that is not counted.
    await t.db.execute(
      sql`UPDATE records SET computed_status = 'Alarm', active = NOT active WHERE id IN (${a.id}, ${b.id})`,
    );
    await t.db.execute(sql`UPDATE records SET primary_reference = 'PR-1' WHERE id = ${c.id}`);
    // A record with scans moves to another hour, and one within its hour.
    await t.db.execute(
      sql`UPDATE records SET created = created + interval '5 hours 7 minutes' WHERE id = ${recs[7]!.id}`,
    );
    await t.db.execute(
      sql`UPDATE records SET created = date_trunc('hour', created) + interval '1 second' WHERE id = ${recs[2]!.id}`,
    );
    // A scan moves to another record, another to another organization.
    const [s1] = (
      await t.db.execute<{ id: number }>(sql`SELECT id FROM scans WHERE record_id = ${recs[3]!.id}
        AND organization_id = ${org.id} LIMIT 1`)
    ).rows;
    await t.db.execute(sql`UPDATE scans SET record_id = ${d.id} WHERE id = ${s1!.id}`);
    await t.db.execute(
      sql`UPDATE scans SET organization_id = ${other.id} WHERE id IN (SELECT id FROM scans WHERE record_id = ${recs[15]!.id} LIMIT 1)`,
    );
    // A scan deleted; a record deleted with its scans; a record moved to the other organization.
    await t.db.execute(
      sql`DELETE FROM scans WHERE id IN (SELECT id FROM scans WHERE record_id = ${recs[19]!.id} LIMIT 1)`,
    );
    const scansOfE = await t.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM scans WHERE record_id = ${e.id}`,
    );
    expect(scansOfE.rows[0]!.n).toBeGreaterThan(0);
    await t.db.execute(sql`DELETE FROM records WHERE id = ${e.id}`);
    await t.db.execute(sql`UPDATE records SET organization_id = ${other.id} WHERE id = ${g.id}`);
    // Tags: one stops and one starts; one moves to the other organization
    // (its records stay); one of another set of bits gets a record.
    await t.db.execute(
      sql`UPDATE tags SET running = NOT running WHERE id IN (${tagsOfOrg[0]!.id}, ${tagsOfOrg[1]!.id})`,
    );
    await t.db.execute(
      sql`UPDATE tags SET organization_id = ${other.id} WHERE id = ${tagsOfOrg[2]!.id}`,
    );
    const far = await f.tag(org, { id: 3 * 8192 + 5, running: true });
    await f.record(org, far, { created: new Date(BASE + 30 * HOUR + 17_000) });
    await expectExactOver(40);
  });

  it('fold piled rows (by a read of their range, and by the job) to the same sums', async () => {
    const rowsIn = async (first: Date, end: Date) =>
      (
        await t.db.execute<{ rows: number; hours: number }>(sql`SELECT count(*)::int AS rows,
          count(DISTINCT hour)::int AS hours FROM record_hour_deltas
          WHERE organization_id = ${org.id} AND hour >= ${first.toISOString()}::timestamptz
            AND hour < ${end.toISOString()}::timestamptz`)
      ).rows[0]!;
    const pile = async (rec: RecordRow) => {
      for (let i = 0; i < COUNT_ROWS_TO_FOLD + 3; i++) {
        await t.db.execute(sql`UPDATE records SET active = NOT active WHERE id = ${rec.id}`);
      }
    };
    const day = { from: new Date(BASE), to: new Date(BASE + SPAN) };
    await pile(recs[20]!);
    const piled = await rowsIn(day.from, day.to);
    expect(piled.rows - piled.hours).toBeGreaterThan(COUNT_ROWS_TO_FOLD);
    expect(await read(day.from, day.to)).toEqual(await counted(day.from, day.to));
    const folded = await rowsIn(day.from, day.to);
    expect(folded.rows).toBe(folded.hours);
    await expectExactOver(10);

    // Rows nobody reads: the job folds them (scheduled every ten minutes; sent here).
    const { rows: schedule } = await t.db.execute<{ cron: string }>(
      sql`SELECT cron FROM pgboss.schedule WHERE name = ${FOLD_COUNTS_JOB}`,
    );
    expect(schedule).toEqual([{ cron: '*/10 * * * *' }]);
    await pile(recs[21]!);
    expect((await rowsIn(day.from, day.to)).rows).toBeGreaterThan(folded.rows);
    await t.app.jobs.send(FOLD_COUNTS_JOB, {});
    await t.app.jobs.waitForIdle([FOLD_COUNTS_JOB]);
    const byJob = await rowsIn(day.from, day.to);
    expect(byJob.rows).toBe(byJob.hours);
    await expectExactOver(10);
    // The next run folds the hours written since the last run: a record's changes, two scans.
    await pile(recs[22]!);
    await f.scan(recs[23]!);
    await f.scan(recs[23]!);
    const again = await rowsIn(day.from, day.to);
    expect(again.rows).toBeGreaterThan(again.hours + COUNT_ROWS_TO_FOLD);
    await t.app.jobs.send(FOLD_COUNTS_JOB, {});
    await t.app.jobs.waitForIdle([FOLD_COUNTS_JOB]);
    const byNextRun = await rowsIn(day.from, day.to);
    expect(byNextRun.rows).toBe(byNextRun.hours);
    await expectExactOver(10);
  });

  it('keep one generic plan, whatever the range (named-query.ts planStableParam)', async () => {
    // An organization large enough that the planner's estimates follow the
    // values: 20,000 records over 30 days.
    const large = await t.createOrg('Hours, many');
    const tag = await f.tag(large);
    await t.db.execute(sql`
      INSERT INTO records (organization_id, tag_id, tag_serial_number, tag_type, measurement_interval, created)
      SELECT ${large.id}::uuid, ${tag.id}, ${tag.serialNumber}, 'XT1_NFC_MU', 60,
        ${new Date(BASE).toISOString()}::timestamptz + g * interval '129 seconds'
      FROM generate_series(1, 20000) g`);
    await t.ownerDb.execute(sql`ANALYZE records, record_hour_deltas, tag_day_sets, alarms`); // the owner: the application role may not
    const rec = recordingRecords(t, large);
    try {
      // Months and weeks of whole days, as the dashboard asks them: no
      // partial hour or day at either end (empty spans).
      const names = new Set<string | undefined>();
      for (let i = 0; i < 12; i++) {
        rec.clear();
        const from = new Date(BASE + (i % 4) * 24 * HOUR).toISOString().slice(0, 10);
        const to = new Date(BASE + (7 + (i % 3) * 11) * 24 * HOUR).toISOString().slice(0, 10);
        await rec.service.filteredStatistics(rec.organizationId, from, to);
        names.add(rec.sent.find((s) => s.text.includes('record_hour_deltas'))?.name);
      }
      expect(names.size).toBe(1);
      const [name] = [...names];
      expect(name).toBeDefined();
      // PostgreSQL plans the first five calls for their values, then keeps the
      // generic plan when it is estimated no dearer. With the empty spans'
      // ends bound as plain parameters, the plans for the values were
      // estimated cheaper, and it planned the statement on every call (0.8 ms
      // of 2.1 on the 1,000,000-record bench; list-performance.md, "Plan-stable values").
      const { rows } = await rec.pool.query<{ generic_plans: string; custom_plans: string }>(
        `SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = $1`,
        [name],
      );
      expect(Number(rows[0]!.custom_plans)).toBeLessThanOrEqual(5);
      expect(Number(rows[0]!.generic_plans)).toBeGreaterThanOrEqual(7);
    } finally {
      await rec.pool.end();
    }
  });

  it('go with a deleted organization', async () => {
    const gone = await t.createOrg('Hours gone');
    const rec = await f.record(gone, undefined, { created: new Date(BASE) });
    await f.scan(rec);
    const rowsOf = async () =>
      (
        await t.ownerDb.execute<{ n: number }>(
          sql`SELECT count(*)::int AS n FROM record_hour_deltas WHERE organization_id = ${gone.id}`,
        )
      ).rows[0]!.n;
    expect(await rowsOf()).toBeGreaterThan(0);
    await t.ownerDb.execute(sql`DELETE FROM organizations WHERE id = ${gone.id}`);
    expect(await rowsOf()).toBe(0);
  });
});
