import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { inject } from 'vitest';
import { createTestApp, type TestApp, type TestOrg } from '../../../test/helpers';
import { recordFactories } from '../../../test/record-factories';
import { recordingRecords } from '../../../test/recording-records';

/**
 * `tag_latest_records` (migrations 0021, 0022) names the latest record
 * (highest id) of each tag in each organization and its last action, and
 * the organization's count of its rows is kept (migration 0025),
 * whatever wrote the records: single and many-row inserts, two uploads of one
 * tag at once, a record moved or deleted, a record's last action changed.
 * `GET records/?latest=true` and the tag list's default order read it
 * (docs/decisions/list-performance.md, "Latest records", "Tag list").
 */

/** What the table should say: the highest record id of each (organization, tag) and its last action, from the records. */
const EXPECTED = sql`SELECT DISTINCT ON (organization_id, tag_id) organization_id::text AS org, tag_id::int AS tag,
    id::int AS record, last_action_taken AS action
  FROM records ORDER BY organization_id, tag_id, id DESC`;
const MAINTAINED = sql`SELECT organization_id::text AS org, tag_id::int AS tag, record_id::int AS record,
    last_action_taken AS action
  FROM tag_latest_records ORDER BY 1, 2`;

describe('tag_latest_records: the latest record of each tag, kept by the database [FEAT-KEPT-COUNTS]', () => {
  let t: TestApp;
  let org: TestOrg;
  let other: TestOrg;
  let tagIds: number[];

  // Every record its own start (a tag's records differ in start time).
  let started = 0;
  const starts = (count: number) => {
    started += count;
    return sql`generate_series(${started - count + 1}::int, ${started}::int) g`;
  };
  const insertRecords = (organizationId: string, tagId: number, count: number) =>
    sql`INSERT INTO records (organization_id, tag_id, tag_serial_number, tag_type, measurement_interval, start_time_seconds)
      SELECT ${organizationId}::uuid, ${tagId}, 'LATEST', 'XT1_NFC_MU', 60, g FROM ${starts(count)}`;

  /** The table agrees with the records, and each organization's kept count of tags with records with the table. */
  const agree = async () => {
    const expected = (await t.ownerDb.execute(EXPECTED)).rows;
    const maintained = (await t.ownerDb.execute(MAINTAINED)).rows;
    expect(maintained).toEqual(expected);
    const counts = (
      await t.ownerDb.execute<{ org: string; n: number }>(sql`SELECT o.id::text AS org,
        (SELECT coalesce(sum(tags_with_records), 0)::int FROM record_count_deltas d
          WHERE d.organization_id = o.id) AS n
        FROM organizations o ORDER BY 1`)
    ).rows;
    expect(counts).toEqual(
      counts.map(({ org: id }) => ({ org: id, n: expected.filter((r) => r.org === id).length })),
    );
    return maintained;
  };

  beforeAll(async () => {
    t = await createTestApp();
    org = await t.createOrg();
    other = await t.createOrg();
    const f = recordFactories(t.db);
    tagIds = [];
    for (let i = 0; i < 4; i += 1) {
      tagIds.push((await f.tag(org, { serialNumber: `LATEST-${i}` })).id);
    }
  });
  afterAll(async () => {
    await t.close();
  });

  it('inserts of one and of many records, of several tags in one statement', async () => {
    await t.db.execute(insertRecords(org.id, tagIds[0]!, 1));
    await t.db.execute(insertRecords(org.id, tagIds[0]!, 5));
    await t.db.execute(sql`
      INSERT INTO records (organization_id, tag_id, tag_serial_number, tag_type, measurement_interval, start_time_seconds)
      SELECT ${org.id}::uuid, (ARRAY[${tagIds[1]!}, ${tagIds[2]!}]::bigint[])[1 + g % 2], 'LATEST', 'XT1_NFC_MU', 60, g
      FROM ${starts(9)}`);
    const rows = await agree();
    expect(rows.filter((r) => r.org === org.id).map((r) => r.tag)).toEqual(tagIds.slice(0, 3));
  });

  it('the same tag in another organization has its own latest record', async () => {
    await t.db.execute(insertRecords(other.id, tagIds[0]!, 2));
    const rows = await agree();
    expect(rows.filter((r) => r.tag === tagIds[0])).toHaveLength(2);
  });

  it('two uploads of one tag at once: the higher id stays, whichever commits first', async () => {
    const pool = new pg.Pool({
      connectionString: `${inject('pgAppBaseUrl')}/${t.databaseName}`,
      max: 2,
    });
    try {
      const first = await pool.connect();
      const second = await pool.connect();
      const insert = `INSERT INTO records (organization_id, tag_id, tag_serial_number, tag_type, measurement_interval, start_time_seconds)
        VALUES ($1, $2, 'LATEST', 'XT1_NFC_MU', 60, $3) RETURNING id`;
      const start = () => (started += 1);
      const secondPid = (await second.query<{ pid: number }>('SELECT pg_backend_pid() AS pid'))
        .rows[0]!.pid;
      // The second upload has reached the first's lock (not merely been sent).
      const secondWaits = () =>
        vi.waitFor(
          async () => {
            const { rows } = await t.db.execute(
              sql`SELECT wait_event_type FROM pg_stat_activity WHERE pid = ${secondPid}`,
            );
            expect(rows).toEqual([{ wait_event_type: 'Lock' }]);
          },
          { timeout: 5_000, interval: 20 },
        );
      await first.query('BEGIN');
      await second.query('BEGIN');
      const low = await first.query<{ id: string }>(insert, [org.id, tagIds[3], start()]);
      // The second upload waits on the first's row of the tag, then keeps the higher id.
      const highPending = second.query<{ id: string }>(insert, [org.id, tagIds[3], start()]);
      await secondWaits();
      await first.query('COMMIT');
      const high = await highPending;
      expect(Number(high.rows[0]!.id)).toBeGreaterThan(Number(low.rows[0]!.id));
      await second.query('COMMIT');
      // The other order: the higher id commits first, the lower one after it.
      await first.query('BEGIN');
      await second.query('BEGIN');
      await first.query(insert, [org.id, tagIds[3], start()]);
      const racing = second.query<{ id: string }>(insert, [org.id, tagIds[3], start()]);
      await secondWaits();
      await first.query('COMMIT');
      await racing;
      await second.query('COMMIT');
      // A lower id committed after a higher one (its statement took longer):
      // the higher stays. Ids given here, far above the sequence.
      const withId = `INSERT INTO records (id, organization_id, tag_id, tag_serial_number, tag_type, measurement_interval, start_time_seconds)
        VALUES ($1, $2, $3, 'LATEST', 'XT1_NFC_MU', 60, $4)`;
      await first.query(withId, [900_002, org.id, tagIds[3], start()]);
      await first.query(withId, [900_001, org.id, tagIds[3], start()]);
      first.release();
      second.release();
    } finally {
      await pool.end();
    }
    const rows = await agree();
    expect(rows.find((r) => r.org === org.id && r.tag === tagIds[3])?.record).toBe(900_002);
  });

  it('a record moved to another tag or organization, or deleted, leaves both tags right', async () => {
    const latestOf = async (tagId: number) =>
      Number(
        (
          await t.ownerDb.execute<{ id: string }>(
            sql`SELECT max(id) AS id FROM records WHERE organization_id = ${org.id} AND tag_id = ${tagId}`,
          )
        ).rows[0]!.id,
      );
    const moved = await latestOf(tagIds[1]!);
    await t.ownerDb.execute(sql`UPDATE records SET tag_id = ${tagIds[2]!} WHERE id = ${moved}`);
    await agree();
    const movedAway = await latestOf(tagIds[2]!);
    await t.ownerDb.execute(
      sql`UPDATE records SET organization_id = ${other.id} WHERE id = ${movedAway}`,
    );
    await agree();
    await t.ownerDb.execute(sql`DELETE FROM records WHERE id = ${await latestOf(tagIds[0]!)}`);
    await agree();
  });

  it('GET records/?latest=true answers one record per tag: its latest', async () => {
    const rec = recordingRecords(t, org);
    try {
      const first = await rec.service.records(rec.organizationId, {
        latest: true,
        page_number: 1,
        page_size: 50,
      });
      expect(first.total).toBe(4);
      // The page's ids and their count from the table, in the list's order,
      // not by a window over every latest record.
      const pageIds = rec.sent[0]!;
      expect(pageIds.text).toContain('sum("record_count_deltas"."tags_with_records")');
      expect(pageIds.text).toContain(
        'order by "tag_latest_records"."last_action_taken" DESC NULLS LAST',
      );
      expect(pageIds.text).not.toContain('over ()');
      // Two tags' latest records share a last action (the newer record first), one has none (last).
      const latestIds = (
        await t.ownerDb.execute<{ record: number }>(
          sql`SELECT max(id)::int AS record FROM records WHERE organization_id = ${org.id} GROUP BY tag_id ORDER BY 1`,
        )
      ).rows.map((r) => r.record);
      const setAction = (id: number, value: string | null) =>
        t.db.execute(
          sql`UPDATE records SET last_action_taken = ${value}::timestamptz WHERE id = ${id}`,
        );
      await setAction(latestIds[0]!, '2026-11-02T10:00:00Z');
      await setAction(latestIds[1]!, '2026-11-02T10:00:00Z');
      await setAction(latestIds[2]!, null);
      await setAction(latestIds[3]!, '2026-11-03T10:00:00Z');
      const expected = (
        await t.ownerDb.execute<{ record: number }>(
          sql`SELECT r.id::int AS record FROM records r
            WHERE r.organization_id = ${org.id} AND r.id = (SELECT max(id) FROM records n
              WHERE n.organization_id = r.organization_id AND n.tag_id = r.tag_id)
            ORDER BY r.last_action_taken DESC NULLS LAST, r.id DESC`,
        )
      ).rows.map((r) => String(r.record));
      expect(expected).toEqual(
        [latestIds[3], latestIds[1], latestIds[0], latestIds[2]].map(String),
      );
      const whole = await rec.service.records(rec.organizationId, {
        latest: true,
        page_number: 1,
        page_size: 50,
      });
      expect(whole.total).toBe(4);
      expect(whole.items.map((r) => r.id)).toEqual(expected);
      // Another order goes the general way: the same records.
      const reversed = await rec.service.records(rec.organizationId, {
        latest: true,
        page_number: 1,
        page_size: 50,
        order_by: ['last_action_taken'],
      });
      expect(reversed.items.map((r) => r.id).sort()).toEqual([...expected].sort());
      // Paging: one record a page, and three a page past the last one.
      const ids: string[] = [];
      for (let n = 1; n <= 4; n += 1) {
        const one = await rec.service.records(rec.organizationId, {
          latest: true,
          page_number: n,
          page_size: 1,
        });
        expect(one.total).toBe(4);
        ids.push(one.items[0]!.id!);
      }
      expect(ids).toEqual(expected);
      const past = await rec.service.records(rec.organizationId, {
        latest: true,
        page_number: 3,
        page_size: 3,
      });
      expect(past).toEqual({ total: 4, items: [] });
      // With a filter too, the matches are counted over the page's scan: the
      // latest record of the tag whose serial number the filter names.
      const tag3 = (
        await t.ownerDb.execute<{ record: number }>(
          sql`SELECT record_id::int AS record FROM tag_latest_records WHERE organization_id = ${org.id} AND tag_id = ${tagIds[3]!}`,
        )
      ).rows[0]!.record;
      await t.ownerDb.execute(
        sql`UPDATE records SET tag_serial_number = 'LATEST-3' WHERE organization_id = ${org.id} AND tag_id = ${tagIds[3]!}`,
      );
      const filtered = await rec.service.records(rec.organizationId, {
        latest: true,
        filter: 'tag_serial_number__equals=LATEST-3',
        page_number: 1,
        page_size: 20,
      });
      expect(filtered.total).toBe(1);
      expect(rec.sent.at(-1)!.text).toContain('over ()');
      expect(filtered.items.map((r) => r.id)).toEqual([String(tag3)]);
    } finally {
      await rec.pool.end();
    }
  });

  it("the latest record's last action is kept, and the tag list's default order reads it", async () => {
    const f = recordFactories(t.db);
    const third = await t.createOrg();
    // Tags with records (some sharing a last action, one whose latest record
    // has none, one with an older record's action newer than its latest's)
    // and tags without a record, created in an order unlike the list's.
    const tags: number[] = [];
    for (let i = 0; i < 9; i += 1) {
      tags.push((await f.tag(third, { serialNumber: `ORDER-${i}` })).id);
    }
    const withRecords = [tags[1]!, tags[2]!, tags[4]!, tags[5]!, tags[7]!, tags[8]!];
    for (const tag of withRecords) await t.db.execute(insertRecords(third.id, tag, 2));
    const at = (minutes: number) => new Date(Date.UTC(2026, 10, 1, 12, minutes)).toISOString();
    const setAction = (tag: number, latest: boolean, value: string | null) =>
      t.db.execute(sql`UPDATE records SET last_action_taken = ${value}::timestamptz
        WHERE id = (SELECT ${latest ? sql`max(id)` : sql`min(id)`} FROM records
                    WHERE organization_id = ${third.id} AND tag_id = ${tag})`);
    await setAction(tags[1]!, true, at(10));
    await setAction(tags[2]!, true, at(30));
    await setAction(tags[4]!, true, at(10)); // the same action as tags[1]: the newer tag first
    await setAction(tags[5]!, true, null); // no last action: after every tag with one
    await setAction(tags[7]!, true, at(20));
    await setAction(tags[8]!, true, at(5));
    await setAction(tags[8]!, false, at(50)); // an older record's action does not count
    await agree();
    // An upload moves a tag to the top; a new record of a tag brings its own action.
    await setAction(tags[1]!, true, at(40));
    await t.db.execute(insertRecords(third.id, tags[7]!, 1));
    await setAction(tags[7]!, true, at(1));
    await agree();

    /** The list's order by its definition: the latest record's action (NULLS LAST), then the tag, newest first. */
    const expected = (
      await t.ownerDb.execute<{ id: number }>(sql`SELECT t.id::int AS id FROM tags t
        LEFT JOIN LATERAL (SELECT r.last_action_taken FROM records r
          WHERE r.organization_id = t.organization_id AND r.tag_id = t.id ORDER BY r.id DESC LIMIT 1) l ON true
        WHERE t.organization_id = ${third.id}
        ORDER BY l.last_action_taken DESC NULLS LAST, t.id DESC`)
    ).rows.map((r) => r.id);
    expect(expected.slice(0, 4)).toEqual([tags[1], tags[2], tags[4], tags[8]]);
    const rec = recordingRecords(t, third);
    try {
      const list = async (page_number: number, page_size: number) =>
        rec.service.details(rec.organizationId, { page_number, page_size });
      const whole = await list(1, 20);
      expect(whole.total).toBe(9);
      expect(whole.items.map((tag) => tag.id)).toEqual(expected);
      expect(rec.sent.some((s) => s.text.includes('"tag_latest_records"'))).toBe(true);
      // Every page size, every page: pages across the tags without an action too.
      for (const size of [1, 2, 4, 5]) {
        const ids: (number | undefined)[] = [];
        for (let n = 1; (n - 1) * size < 9; n += 1) {
          const page = await list(n, size);
          expect(page.total).toBe(9);
          ids.push(...page.items.map((tag) => tag.id));
        }
        expect(ids).toEqual(expected);
      }
      expect((await list(4, 4)).items).toEqual([]);
      // Another order, or a filter, reads the tags' latest records as before: the same tags.
      const filtered = await rec.service.details(rec.organizationId, {
        page_number: 1,
        page_size: 20,
        filter: 'serial_number__contains=ORDER',
      });
      expect(filtered.items.map((tag) => tag.id)).toEqual(expected);
    } finally {
      await rec.pool.end();
    }
  });

  it("the tag list's page of ids keeps one generic plan (its LIMIT bound plan-stable)", async () => {
    // An organization large enough that the planner's estimates follow the values: 20,000 tags.
    const many = await t.createOrg('Latest, many');
    await t.db.execute(sql`INSERT INTO tags (organization_id, serial_number, tag_type)
      SELECT ${many.id}::uuid, 'GP' || g, 'XT1_NFC_MU' FROM generate_series(1, 20000) g`);
    await t.db
      .execute(sql`INSERT INTO records (organization_id, tag_id, tag_serial_number, tag_type,
        measurement_interval, last_action_taken)
      SELECT ${many.id}::uuid, id, serial_number, 'XT1_NFC_MU', 60, now() - id * interval '1 second'
      FROM tags WHERE organization_id = ${many.id}`);
    await t.ownerDb.execute(sql`ANALYZE tags, records, tag_latest_records`); // the owner: the application role may not
    const rec = recordingRecords(t, many);
    try {
      for (let i = 0; i < 12; i++) {
        const page = await rec.service.details(rec.organizationId, {
          page_number: 1 + (i % 3),
          page_size: 20,
        });
        expect(page.items).toHaveLength(20);
      }
      const { rows } = await rec.pool.query<{ generic_plans: string; custom_plans: string }>(
        `SELECT generic_plans, custom_plans FROM pg_prepared_statements
          WHERE statement LIKE '%from "tag_latest_records"%' AND statement LIKE '%limit%'`,
      );
      expect(rows).toHaveLength(1);
      // Five plans for the values, then the generic one: with the page as plain
      // parameters the plans for the values were estimated cheaper, and
      // PostgreSQL planned it on every call (list-performance.md, "Plan-stable values").
      expect(Number(rows[0]!.custom_plans)).toBeLessThanOrEqual(5);
      expect(Number(rows[0]!.generic_plans)).toBeGreaterThanOrEqual(7);
    } finally {
      await rec.pool.end();
    }
  });
});
