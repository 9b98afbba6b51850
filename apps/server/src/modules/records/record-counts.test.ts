import { ZRecordStatistics } from '@coldtrace/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestClient } from '../../../test/helpers';
import { recordFactories } from '../../../test/record-factories';
import { XT1, seed, total, type World } from './records.fixtures';
import type { Statistics } from '../lists/statistics';
import { COUNT_ROWS_TO_FOLD } from './kept-counts';

/**
 * The counts kept by triggers (migration 0007, docs/decisions/list-performance.md,
 * "Kept counts")
 * answer exactly what count(*) over the rows answers, through inserts, updates
 * that change what is counted, deletes, a tag moving to another organization,
 * the folding of many count rows into one, and an organization's deletion.
 */
describe('record counts kept by triggers [FEAT-KEPT-COUNTS]', () => {
  let t: TestApp;
  let w: World;
  let f: ReturnType<typeof recordFactories>;
  beforeAll(async () => {
    t = await createTestApp();
    f = recordFactories(t.db);
    w = await seed(t, f);
  });
  afterAll(() => t.close());

  /** The counts as count(*) over the rows says them, in the shape of the summary. */
  async function counted(organizationId: string): Promise<Statistics> {
    const { rows } = await t.db.execute<Statistics & Record<string, unknown>>(sql`SELECT
      (SELECT count(*)::int FROM records WHERE organization_id = ${organizationId}) AS num_records,
      (SELECT count(*)::int FROM records WHERE organization_id = ${organizationId} AND computed_status = 'Alarm') AS num_alarm_records,
      (SELECT count(*)::int FROM records WHERE organization_id = ${organizationId} AND computed_status <> 'Alarm') AS num_no_alarm_records,
      (SELECT count(*)::int FROM records WHERE organization_id = ${organizationId} AND active) AS num_active_records,
      (SELECT count(*)::int FROM records WHERE organization_id = ${organizationId} AND NOT active) AS num_stopped_records,
      (SELECT count(*)::int FROM scans WHERE organization_id = ${organizationId}) AS scans_made,
      (SELECT count(*)::int FROM tags WHERE organization_id = ${organizationId} AND running) AS running_tags,
      (SELECT count(*)::int FROM tags WHERE organization_id = ${organizationId} AND NOT running) AS idle_tags`);
    return rows[0]!;
  }

  /** The summary, the records list's and the scan list's x-total-count agree with count(*). */
  async function expectExact(client: TestClient, organizationId: string) {
    const truth = await counted(organizationId);
    const summary = await client.get(`${XT1}/records/statistics/summary/`);
    expect(summary.statusCode).toBe(200);
    expect(ZRecordStatistics.parse(summary.json())).toEqual(truth);
    const list = await client.get(`${XT1}/records/?page_size=1`);
    expect(total(list)).toBe(truth.num_records);
    const scanList = await client.get(`${XT1}/scans/?page_size=1`);
    expect(total(scanList)).toBe(truth.scans_made);
    return truth;
  }

  it('are exact after the seed, in each organization', async () => {
    const a = await expectExact(w.admin, w.orgA.id);
    expect(a.num_records).toBeGreaterThan(0);
    expect(a.scans_made).toBeGreaterThan(0);
    await expectExact(w.bClient, w.orgB.id);
  });

  it('follow inserts, counted changes, deletes and a tag moving organization', async () => {
    const before = await counted(w.orgA.id);
    const tag = await f.tag(w.orgA, { running: true });
    const record = await f.record(w.orgA, tag, { computedStatus: 'Alarm', active: true });
    await f.scan(record);
    await f.scan(record);
    let now = await expectExact(w.admin, w.orgA.id);
    expect(now.num_records).toBe(before.num_records + 1);
    expect(now.num_alarm_records).toBe(before.num_alarm_records + 1);
    expect(now.scans_made).toBe(before.scans_made + 2);
    expect(now.running_tags).toBe(before.running_tags + 1);

    // Changes of what is counted, and one that is not (a reference).
    await t.db.execute(
      sql`UPDATE records SET computed_status = 'OK', active = false, primary_reference = 'PR-9' WHERE id = ${record.id}`,
    );
    await t.db.execute(sql`UPDATE tags SET running = false WHERE id = ${tag.id}`);
    now = await expectExact(w.admin, w.orgA.id);
    expect(now.num_alarm_records).toBe(before.num_alarm_records);
    expect(now.num_stopped_records).toBe(before.num_stopped_records + 1);
    expect(now.idle_tags).toBe(before.idle_tags + 1);

    // A deleted record takes its scans with it (cascade).
    await t.db.execute(sql`DELETE FROM records WHERE id = ${record.id}`);
    now = await expectExact(w.admin, w.orgA.id);
    expect(now).toEqual({ ...before, idle_tags: before.idle_tags + 1 });

    // The tag moves to organization B.
    const bBefore = await counted(w.orgB.id);
    await t.db.execute(sql`UPDATE tags SET organization_id = ${w.orgB.id} WHERE id = ${tag.id}`);
    expect(await expectExact(w.admin, w.orgA.id)).toEqual(before);
    const bNow = await expectExact(w.bClient, w.orgB.id);
    expect(bNow.idle_tags).toBe(bBefore.idle_tags + 1);
  });

  it('fold many count rows into one with the same sums', async () => {
    const tag = await f.tag(w.orgA, { running: false });
    const record = await f.record(w.orgA, tag, { active: true });
    for (let i = 0; i < COUNT_ROWS_TO_FOLD + 5; i++) {
      await t.db.execute(sql`UPDATE records SET active = NOT active WHERE id = ${record.id}`);
    }
    const rowsOf = async () =>
      (
        await t.db.execute<{ n: number }>(
          sql`SELECT count(*)::int AS n FROM record_count_deltas WHERE organization_id = ${w.orgA.id}`,
        )
      ).rows[0]!.n;
    expect(await rowsOf()).toBeGreaterThan(COUNT_ROWS_TO_FOLD);
    // The tags with records (latest=true's count, migration 0025) fold with the others.
    const tagsWithRecords = async () =>
      (
        await t.db.execute<{ n: number }>(sql`SELECT coalesce(sum(tags_with_records), 0)::int AS n
          FROM record_count_deltas WHERE organization_id = ${w.orgA.id}`)
      ).rows[0]!.n;
    const withRecords = await tagsWithRecords();
    expect(withRecords).toBeGreaterThan(0);
    await expectExact(w.admin, w.orgA.id); // the read folds them
    expect(await rowsOf()).toBe(1);
    expect(await tagsWithRecords()).toBe(withRecords);
    await expectExact(w.admin, w.orgA.id);
  });

  it('the records list reads its count with its page, folds, and keeps the total past the last page', async () => {
    const tag = await f.tag(w.orgA, { running: false });
    const record = await f.record(w.orgA, tag, { active: true });
    for (let i = 0; i < COUNT_ROWS_TO_FOLD + 5; i++) {
      await t.db.execute(sql`UPDATE records SET active = NOT active WHERE id = ${record.id}`);
    }
    const truth = await counted(w.orgA.id);
    // The list alone (page 1, prepared; page 2, not): its count is exact, and it folds the rows.
    for (const page of [1, 2]) {
      const list = await w.admin.get(`${XT1}/records/?page_size=1&page_number=${page}`);
      expect(total(list)).toBe(truth.num_records);
      expect(list.json()).toHaveLength(1);
    }
    const { rows } = await t.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM record_count_deltas WHERE organization_id = ${w.orgA.id}`,
    );
    expect(rows[0]!.n).toBe(1);
    const past = await w.admin.get(
      `${XT1}/records/?page_size=1&page_number=${truth.num_records + 1}`,
    );
    expect(total(past)).toBe(truth.num_records);
    expect(past.json()).toEqual([]);
  });

  it('go with a deleted organization, whose rows are not counted on the way out', async () => {
    const org = await t.createOrg('Short-lived');
    const tag = await f.tag(org, { running: true });
    const record = await f.record(org, tag);
    await f.scan(record);
    const { rows } = await t.ownerDb.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM record_count_deltas WHERE organization_id = ${org.id}`,
    );
    expect(rows[0]!.n).toBeGreaterThan(0);
    await t.ownerDb.execute(sql`DELETE FROM organizations WHERE id = ${org.id}`);
    const after = await t.ownerDb.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM record_count_deltas WHERE organization_id = ${org.id}`,
    );
    expect(after.rows[0]!.n).toBe(0);
  });
});
