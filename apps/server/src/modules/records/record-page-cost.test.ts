import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestOrg } from '../../../test/helpers';
import { recordFactories } from '../../../test/record-factories';
import { recordingRecords } from '../../../test/recording-records';
import { joinedRows, rowsRead, type PlanNode } from '../../../test/plans';

/**
 * A page of records, and the statistics of a range, read what their own records need, whatever the
 * organization holds (a range: its whole hours' counts, and the records of its partial hours): its review state probes each record's alarms
 * (review-state.ts), where PostgreSQL had answered the EXISTS by hashing
 * every unacknowledged alarm of the organization once per page
 * (docs/decisions/list-performance.md, "Record view").
 */

describe('a page of records costs what its records need [FEAT-PERFORMANCE]', () => {
  let t: TestApp;
  let org: TestOrg;
  let rec: ReturnType<typeof recordingRecords>;

  beforeAll(async () => {
    t = await createTestApp();
    org = await t.createOrg();
    const tag = await recordFactories(t.db).tag(org, { serialNumber: 'OPEN' });
    // 3,000 records, each with an alarm nobody has acknowledged (as after a
    // no-data check on a silent fleet), then statistics the planner reads.
    await t.db.execute(sql`
      INSERT INTO records (organization_id, tag_id, tag_serial_number, tag_type, measurement_interval, start_time_seconds)
      SELECT ${org.id}::uuid, ${tag.id}, 'OPEN', 'XT1_NFC_MU', 60, g FROM generate_series(1, 3000) g`);
    await t.db.execute(sql`
      INSERT INTO alarms (organization_id, record_id, tag_id, tag_serial_number, kind, above_or_below,
        first_point_idx, last_point_idx, degree_minutes, duration, start_time, end_time)
      SELECT organization_id, id, tag_id, tag_serial_number, 'excursion', 'ABOVE', 0, 2, 12, 180, now(), now()
      FROM records WHERE organization_id = ${org.id}`);
    // A scan of each record; half the records made a year ago.
    await t.db.execute(sql`
      INSERT INTO scans (organization_id, record_id, tag_id, tag_serial_number, timestamp, upload_key)
      SELECT organization_id, id, tag_id, tag_serial_number, now(), 'cost-' || id
      FROM records WHERE organization_id = ${org.id}`);
    await t.db.execute(sql`
      UPDATE records SET created = created - interval '1 year'
      WHERE organization_id = ${org.id} AND start_time_seconds % 2 = 0`);
    await t.ownerDb.execute(sql`ANALYZE records, alarms, scans`); // the owner: the application role may not
    rec = recordingRecords(t, org);
  });
  afterAll(async () => {
    await rec.pool.end();
    await t.close();
  });

  it('the records list reads one alarm per record of its page', async () => {
    rec.clear();
    const page = await rec.service.records(rec.organizationId, { page_number: 1, page_size: 20 });
    expect(page.total).toBe(3000);
    expect(page.items.map((r) => r.review_state)).toEqual(
      Array(20).fill('AWAITING_ACKNOWLEDGEMENT'),
    );
    const plan = await rec.explain<PlanNode>(rec.sent.at(-1)!, 'ANALYZE');
    expect(rowsRead(plan, 'alarms')).toBe(20);
  });

  it('the whole list in another order joins the parties of its page only, and an indexed order reads its page only', async () => {
    const plans = async (order_by: string) => {
      rec.clear();
      const page = await rec.service.records(rec.organizationId, {
        page_number: 1,
        page_size: 20,
        order_by: [order_by],
      });
      expect(page.total, order_by).toBe(3000);
      expect(page.items, order_by).toHaveLength(20);
      return Promise.all(
        rec.sent
          .filter((s) => s.text.includes('"records"'))
          .map((s) => rec.explain<PlanNode>(s, 'ANALYZE')),
      );
    };
    // No index gives this order: every record is read once, but the record
    // select (its parties joined) is for the page's 20 only.
    const unindexed = await plans('-tag_serial_number');
    // The first page in one statement (list-performance.md, "One-statement pages").
    expect(unindexed).toHaveLength(1);
    for (const plan of unindexed) {
      expect(joinedRows(plan)).toBeLessThanOrEqual(20);
    }
    // The primary key gives this order, read backwards: the page's records
    // only, twice (their ids in order, then their rows by id).
    for (const plan of await plans('-id')) {
      expect(rowsRead(plan, 'records')).toBeLessThanOrEqual(2 * 20 + 1);
    }
  });

  it('the first page in another order is the start of the same order as the pages after it', async () => {
    // Every page comes in one statement (the ids as a derived table joined to the rows).
    const ids = async (order_by: string, page_number: number, page_size: number) => {
      rec.clear();
      const page = await rec.service.records(rec.organizationId, {
        page_number,
        page_size,
        order_by: [order_by],
      });
      expect(page.total, order_by).toBe(3000);
      const statements = rec.sent.filter((s) => s.text.includes('"records"')).length;
      expect(statements, `${order_by} page ${page_number}`).toBe(1);
      return page.items.map((r) => r.id);
    };
    for (const order of ['created', '-created', '-tag_serial_number', 'start_time']) {
      const whole = await ids(order, 1, 30);
      expect(whole, order).toHaveLength(30);
      const paged = [
        ...(await ids(order, 1, 10)),
        ...(await ids(order, 2, 10)),
        ...(await ids(order, 3, 10)),
      ];
      expect(paged, order).toEqual(whole);
    }
    // The order itself: the records' start times are 1 … 3000, one each.
    const { rows } = await t.db.execute<{ id: string }>(
      sql`SELECT id::text FROM records WHERE organization_id = ${org.id} ORDER BY start_time_seconds DESC LIMIT 10`,
    );
    expect(await ids('-start_time', 1, 10)).toEqual(rows.map((r) => r.id));
  });

  it('a page in one statement reads its rows by the row versions its hits found, not by primary key', async () => {
    type Node = PlanNode & { 'Index Name'?: string };
    const nodesOf = (node: Node): Node[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];
    for (const query of [
      { order_by: ['-tag_serial_number'] }, // the whole list in another order
      { filter: 'computed_status__not=Alarm' }, // a dashboard card
      { search: 'OPEN' }, // a search
    ]) {
      const name = JSON.stringify(query);
      rec.clear();
      const page = await rec.service.records(rec.organizationId, {
        page_number: 1,
        page_size: 20,
        ...query,
      });
      expect(page.items, name).toHaveLength(20);
      const statements = rec.sent.filter((s) => s.text.includes('"records"'));
      expect(statements, name).toHaveLength(1);
      const nodes = nodesOf(await rec.explain<Node>(statements[0]!, 'ANALYZE'));
      const byTid = nodes.filter((n) => n['Node Type'] === 'Tid Scan');
      expect(
        byTid.map((n) => [n['Relation Name'], n['Actual Rows'] * n['Actual Loops']]),
        name,
      ).toEqual([['records', 20]]);
      expect(
        nodes.filter((n) => n['Index Name'] === 'records_pkey'),
        name,
      ).toEqual([]);
    }
  });

  it("the statistics of a range read its whole hours' counts, and the records and scans of its partial hours only", async () => {
    // A whole day: its hours' counts (record_hour_deltas), no record and no scan.
    rec.clear();
    const today = new Date().toISOString().slice(0, 10);
    let stats = await rec.service.filteredStatistics(rec.organizationId, today, today);
    expect(stats).toMatchObject({ num_records: 1500, scans_made: 1500 });
    let counting = rec.sent.find((s) => s.text.includes('"scans"'))!;
    let plan = await rec.explain<PlanNode>(counting, 'ANALYZE');
    expect(rowsRead(plan, 'records')).toBe(0);
    expect(rowsRead(plan, 'scans')).toBe(0);
    // Two minutes around the records' creation (no whole hour): the range's records and their scans only.
    const { rows } = await t.db.execute<{ ms: number }>(
      sql`SELECT (extract(epoch FROM max(created)) * 1000)::float8 AS ms FROM records WHERE organization_id = ${org.id}`,
    );
    const created = rows[0]!.ms;
    rec.clear();
    stats = await rec.service.filteredStatistics(
      rec.organizationId,
      new Date(created - 60_000).toISOString(),
      new Date(created + 60_000).toISOString(),
    );
    expect(stats).toMatchObject({ num_records: 1500, scans_made: 1500 });
    counting = rec.sent.find((s) => s.text.includes('"scans"'))!;
    plan = await rec.explain<PlanNode>(counting, 'ANALYZE');
    expect(rowsRead(plan, 'scans')).toBe(1500);
  });
});
