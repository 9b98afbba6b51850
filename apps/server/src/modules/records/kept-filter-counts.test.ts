import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestOrg } from '../../../test/helpers';
import { rowsRead, type PlanNode } from '../../../test/plans';
import { recordFactories } from '../../../test/record-factories';
import { recordingRecords } from '../../../test/recording-records';
import { keptCountOfFilter } from './kept-counts';

/**
 * The filters the dashboard's cards link to (in alarm or not, active or
 * stopped) take their total from the organization's kept counts: the same
 * number as counting the matches, without reading every match.
 */

describe('keptCountOfFilter [FEAT-KEPT-COUNTS]', () => {
  it('names the kept count of exactly the filters it gives', () => {
    expect(keptCountOfFilter('computed_status__is=Alarm')).toEqual({
      count: 'alarmRecords',
      complement: false,
    });
    expect(keptCountOfFilter('computed_status__is=alarm')?.count).toBe('alarmRecords');
    expect(keptCountOfFilter('computed_status__not=Alarm')).toEqual({
      count: 'alarmRecords',
      complement: true,
    });
    expect(keptCountOfFilter('computed_status__ne=Alarm')?.complement).toBe(true);
    expect(keptCountOfFilter('active__is=true')).toEqual({
      count: 'activeRecords',
      complement: false,
    });
    expect(keptCountOfFilter('active__is=false')?.complement).toBe(true);
    expect(keptCountOfFilter('active__not=false')?.complement).toBe(false);
    for (const other of [
      undefined,
      '',
      'computed_status__is=OK',
      'status__is=Alarm',
      'computed_status__isAnyOf=Alarm,OK',
      'computed_status__isEmpty',
      'active__is=true&computed_status__is=Alarm',
      'active__is=true|carrier__contains=DHL',
      'carrier__contains=DHL',
      '((',
    ]) {
      expect(keptCountOfFilter(other), String(other)).toBeUndefined();
    }
  });
});

describe('the dashboard cards\u2019 filters on All Records [FEAT-KEPT-COUNTS]', () => {
  let t: TestApp;
  let org: TestOrg;
  beforeAll(async () => {
    t = await createTestApp();
    org = await t.createOrg();
    const tag = await recordFactories(t.db).tag(org);
    // 20,000 records (enough that PostgreSQL reads a page in order rather than
    // the table); 400 in alarm, 300 stopped, spread over the list's order.
    await t.db.execute(sql`
      INSERT INTO records (organization_id, tag_id, tag_serial_number, tag_type, measurement_interval,
        start_time_seconds, last_action_taken, computed_status, active)
      SELECT ${org.id}::uuid, ${tag.id}, ${tag.serialNumber}, ${tag.tagType}, 60, g,
        now() - g * interval '1 minute', CASE WHEN g % 50 = 0 THEN 'Alarm' ELSE 'OK' END, g % 67 <> 0
      FROM generate_series(1, 20000) g`);
    await t.ownerDb.execute(sql`ANALYZE records`);
  });
  afterAll(() => t.close());

  it('gives the counted total and reads a page, not every match', async () => {
    const rec = recordingRecords(t, org);
    try {
      for (const [filter, condition] of [
        ['computed_status__is=Alarm', sql`computed_status = 'Alarm'`],
        ['computed_status__not=Alarm', sql`computed_status IS DISTINCT FROM 'Alarm'`],
        ['active__is=true', sql`active`],
        ['active__is=false', sql`NOT active`],
      ] as const) {
        const { rows } = await t.db.execute<{ n: number }>(
          sql`SELECT count(*)::int AS n FROM records WHERE organization_id = ${org.id} AND ${condition}`,
        );
        rec.clear();
        const page = await rec.service.records(rec.organizationId, {
          page_number: 1,
          page_size: 20,
          filter,
        });
        expect(page.total, filter).toBe(rows[0]!.n);
        expect(page.items, filter).toHaveLength(20);
        const plans = await Promise.all(
          rec.sent
            .filter((s) => s.text.includes('"records"'))
            .map((s) => rec.explain<PlanNode>(s, 'ANALYZE')),
        );
        for (const plan of plans) {
          expect(rowsRead(plan, 'records'), filter).toBeLessThan(rows[0]!.n < 1000 ? 5000 : 100);
        }
      }
      // With anything else the matches are counted, as before.
      rec.clear();
      const both = await rec.service.records(rec.organizationId, {
        page_number: 1,
        page_size: 20,
        filter: 'computed_status__is=Alarm',
        review_state: 'AWAITING_DECISION',
      });
      expect(both.total).toBe(400);
    } finally {
      await rec.pool.end();
    }
  });

  it("takes a card's first page in one statement, the start of the pages after it", async () => {
    // Every page in one statement, the first a named one (list-performance.md, "One-statement pages").
    const rec = recordingRecords(t, org);
    try {
      const ids = async (filter: string, page_number: number, page_size: number) => {
        rec.clear();
        const page = await rec.service.records(rec.organizationId, {
          page_number,
          page_size,
          filter,
        });
        const statements = rec.sent.filter((s) => s.text.includes('"records"'));
        expect(statements, `${filter} page ${page_number}`).toHaveLength(1);
        if (page_number === 1) expect(statements[0]!.name, filter).toBeDefined();
        return { total: page.total, ids: page.items.map((r) => r.id) };
      };
      for (const [filter, condition] of [
        ['computed_status__is=Alarm', sql`computed_status = 'Alarm'`],
        ['active__is=false', sql`NOT active`],
      ] as const) {
        const { rows } = await t.db.execute<{ id: string }>(
          sql`SELECT id::text FROM records WHERE organization_id = ${org.id} AND ${condition}
            ORDER BY last_action_taken DESC NULLS LAST, id DESC LIMIT 30`,
        );
        const first = await ids(filter, 1, 10);
        const paged = [
          ...first.ids,
          ...(await ids(filter, 2, 10)).ids,
          ...(await ids(filter, 3, 10)).ids,
        ];
        expect(paged, filter).toEqual(rows.map((r) => r.id));
        const { rows: counted } = await t.db.execute<{ n: number }>(
          sql`SELECT count(*)::int AS n FROM records WHERE organization_id = ${org.id} AND ${condition}`,
        );
        expect(first.total, filter).toBe(counted[0]!.n);
      }
    } finally {
      await rec.pool.end();
    }
  });
});
