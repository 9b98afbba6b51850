import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordRow, TagRow } from '../../db/schema-shipments';
import { TAG_SET_BITS } from '../../db/schema-record-counts';
import { createTestApp, type TestApp, type TestOrg } from '../../../test/helpers';
import { recordFactories } from '../../../test/record-factories';
import { FOLD_COUNTS_JOB } from '../../jobs/catalogue';
import { COUNT_ROWS_TO_FOLD } from './fold-lock';
import { wholeDaysOf } from './tag-sets';

const DAY = 86_400_000;
const BASE = Date.parse('2025-03-01T00:00:00Z');

/**
 * The kept tag sets (migration 0028) say exactly what their definitions say:
 * `tag_day_sets` OR-ed per organization, UTC day and set is the set of tags
 * with a record of that organization created that day; `tag_state_sets`
 * XOR-ed per organization, kind and set is the organization's tags, and its
 * running tags. Checked after every kind of write, two transactions at once,
 * and the folds.
 */
describe('kept tag sets [FEAT-KEPT-COUNTS]', () => {
  let t: TestApp;
  let f: ReturnType<typeof recordFactories>;
  let org: TestOrg;
  let other: TestOrg;
  const tagsOf: TagRow[] = [];
  const recs: RecordRow[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    f = recordFactories(t.db);
    org = await t.createOrg('Tag sets');
    other = await t.createOrg('Tag sets beside');
  });
  afterAll(() => t.close());

  /** Kept rows against the definitions, as text, per organization of the test. */
  async function expectKeptExact() {
    const orgs = sql`(${org.id}::uuid, ${other.id}::uuid)`;
    const q = async (text: ReturnType<typeof sql>) =>
      (await t.ownerDb.execute<{ k: string }>(text)).rows.map((r) => r.k).sort();
    const keptDays =
      await q(sql`SELECT concat_ws(' ', organization_id, day, chunk, bit_or(bits)) AS k
      FROM tag_day_sets WHERE organization_id IN ${orgs} GROUP BY organization_id, day, chunk`);
    const days = await q(sql`SELECT concat_ws(' ', organization_id, tag_day_of(created),
        tag_set_of(tag_id), bit_or(tag_bit_of(tag_id))) AS k
      FROM records WHERE organization_id IN ${orgs}
      GROUP BY organization_id, tag_day_of(created), tag_set_of(tag_id)`);
    expect(keptDays).toEqual(days);
    const keptStates =
      await q(sql`SELECT concat_ws(' ', organization_id, kind, chunk, bit_xor(bits)) AS k
      FROM tag_state_sets WHERE organization_id IN ${orgs} GROUP BY organization_id, kind, chunk
      HAVING bit_count(bit_xor(bits)) > 0`);
    const states = await q(sql`SELECT concat_ws(' ', organization_id, kind, tag_set_of(id),
        bit_or(tag_bit_of(id))) AS k
      FROM tags CROSS JOIN (VALUES ('tags'), ('running')) AS v(kind)
      WHERE organization_id IN ${orgs} AND (kind = 'tags' OR running) GROUP BY organization_id, kind, tag_set_of(id)`);
    expect(keptStates).toEqual(states);
    return { days: days.length, states: states.length };
  }

  it('split a range into its whole UTC days', () => {
    const at = (iso: string) => new Date(iso);
    expect(
      wholeDaysOf({ from: at('2025-03-01T00:00:00Z'), to: at('2025-03-31T00:00:00Z') }),
    ).toEqual({ first: at('2025-03-01T00:00:00Z'), end: at('2025-03-31T00:00:00Z') });
    // A month in UTC+1: 23:00 to 23:00, the whole days between.
    expect(
      wholeDaysOf({ from: at('2025-02-28T23:00:00Z'), to: at('2025-03-30T23:00:00Z') }),
    ).toEqual({ first: at('2025-03-01T00:00:00Z'), end: at('2025-03-30T00:00:00Z') });
    expect(
      wholeDaysOf({ from: at('2025-03-01T00:00:00.001Z'), to: at('2025-03-02T23:59:59Z') }),
    ).toBeNull();
  });

  it('follow inserts of tags and records, one and many at a time, in several sets', async () => {
    // Ids in three sets of bits, the last bit of one and the first of the next.
    for (const id of [100_001, 5 * TAG_SET_BITS - 1, 5 * TAG_SET_BITS, 7 * TAG_SET_BITS + 3]) {
      tagsOf.push(await f.tag(org, { id, running: id % 2 === 0 }));
    }
    tagsOf.push(await f.tag(other, { id: 5 * TAG_SET_BITS + 1, running: true }));
    for (let i = 0; i < 24; i++) {
      const created = new Date(BASE + (i % 6) * DAY + ((i * 7) % 24) * 3_600_000 + i);
      recs.push(await f.record(i % 5 === 4 ? other : org, tagsOf[i % 5], { created }));
    }
    // Thirty records in one statement (a COPY or a multi-row insert runs the statement trigger once).
    await t.db
      .execute(sql`INSERT INTO records (organization_id, tag_id, tag_serial_number, tag_type,
        measurement_interval, start_time_seconds, created)
      SELECT ${org.id}, tg.id, tg.serial_number, tg.tag_type, 60, 1740787200 + g,
        ${new Date(BASE).toISOString()}::timestamptz + g * interval '5 hours'
      FROM generate_series(1, 30) g
      JOIN tags tg ON tg.id = (ARRAY[${tagsOf[0]!.id}, ${tagsOf[1]!.id}, ${tagsOf[3]!.id}]::bigint[])[1 + g % 3]`);
    const n = await expectKeptExact();
    expect(n.days).toBeGreaterThan(10);
    expect(n.states).toBeGreaterThan(4);
  });

  it('follow tags started, stopped, moved and deleted', async () => {
    await t.db.execute(
      sql`UPDATE tags SET running = NOT running WHERE id IN (${tagsOf[0]!.id}, ${tagsOf[1]!.id})`,
    );
    await expectKeptExact();
    // Moved to the other organization, running (its records stay where they are).
    await t.db.execute(
      sql`UPDATE tags SET organization_id = ${other.id}, running = true WHERE id = ${tagsOf[2]!.id}`,
    );
    await expectKeptExact();
    // An update that changes neither leaves no row.
    const before = await t.ownerDb.execute(sql`SELECT count(*)::int AS n FROM tag_state_sets`);
    await t.db.execute(sql`UPDATE tags SET tag_type = tag_type WHERE id = ${tagsOf[3]!.id}`);
    expect(
      (await t.ownerDb.execute(sql`SELECT count(*)::int AS n FROM tag_state_sets`)).rows,
    ).toEqual(before.rows);
    const spare = await f.tag(org, { running: true });
    await t.db.execute(sql`DELETE FROM tags WHERE id = ${spare.id}`);
    await expectKeptExact();
  });

  it('follow records deleted and moved to another organization, tag or day', async () => {
    await t.db.execute(sql`DELETE FROM records WHERE id IN (${recs[0]!.id}, ${recs[1]!.id})`);
    await expectKeptExact();
    await t.db.execute(
      sql`UPDATE records SET organization_id = ${other.id} WHERE id = ${recs[2]!.id}`,
    );
    await t.db.execute(sql`UPDATE records SET tag_id = ${tagsOf[4]!.id} WHERE id = ${recs[5]!.id}`);
    await t.db.execute(
      sql`UPDATE records SET created = created + interval '2 days' WHERE id = ${recs[6]!.id}`,
    );
    // Within its day: nothing to do, still exact.
    await t.db.execute(
      sql`UPDATE records SET created = date_trunc('day', created) WHERE id = ${recs[7]!.id}`,
    );
    await expectKeptExact();
    // Every record of a day deleted at once: the day's rows go.
    await t.db.execute(sql`DELETE FROM records WHERE organization_id = ${org.id}
      AND tag_day_of(created) = ${new Date(BASE + 3 * DAY).toISOString().slice(0, 10)}::date`);
    await expectKeptExact();
  });

  it('stay exact when a record of a day is added while another of it is deleted', async () => {
    const created = new Date(BASE + 4 * DAY + 3_600_000);
    const leaving = await f.record(org, tagsOf[1], { created });
    const fresh = await f.tag(org);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let inserted!: () => void;
    const insertedYet = new Promise<void>((resolve) => (inserted = resolve));
    // A: adds a record of that day and holds its transaction open.
    const a = t.db.transaction(async (tx) => {
      await tx.execute(sql`INSERT INTO records (organization_id, tag_id, tag_serial_number, tag_type,
          measurement_interval, start_time_seconds, created)
        VALUES (${org.id}, ${fresh.id}, ${fresh.serialNumber}, ${fresh.tagType}, 60, 1741136400,
          ${created.toISOString()}::timestamptz)`);
      inserted();
      await held;
    });
    await insertedYet;
    // B: deletes a record of the same day (a recount of it) and commits first.
    await t.db.execute(sql`DELETE FROM records WHERE id = ${leaving.id}`);
    release();
    await a;
    await expectKeptExact();
  });

  it('fold piled rows (by the job, and by a read of their range) to the same sets', async () => {
    const rows = async (table: 'tag_day_sets' | 'tag_state_sets') =>
      (
        await t.ownerDb.execute<{ n: number }>(
          sql`SELECT count(*)::int AS n FROM ${sql.raw(table)} WHERE organization_id = ${org.id}`,
        )
      ).rows[0]!.n;
    for (let i = 0; i < COUNT_ROWS_TO_FOLD + 5; i++) {
      await f.record(org, tagsOf[i % 2], { created: new Date(BASE + (i % 3) * DAY + i) });
      await t.db.execute(sql`UPDATE tags SET running = NOT running WHERE id = ${tagsOf[3]!.id}`);
    }
    /** One row per day and set of the organization: folded. */
    const dayGroups = async () =>
      (
        await t.ownerDb.execute<{ n: number }>(sql`SELECT count(DISTINCT (day, chunk))::int AS n
          FROM tag_day_sets WHERE organization_id = ${org.id}`)
      ).rows[0]!.n;
    await expectKeptExact();
    expect(await rows('tag_day_sets')).toBeGreaterThan((await dayGroups()) + COUNT_ROWS_TO_FOLD);
    expect(await rows('tag_state_sets')).toBeGreaterThan(COUNT_ROWS_TO_FOLD);
    await t.app.jobs.send(FOLD_COUNTS_JOB, {});
    await t.app.jobs.waitForIdle([FOLD_COUNTS_JOB]);
    await expectKeptExact();
    expect(await rows('tag_day_sets')).toBe(await dayGroups());
    const stateGroups = await t.ownerDb.execute<{ n: number }>(sql`SELECT
      count(DISTINCT (kind, chunk))::int AS n FROM tag_state_sets WHERE organization_id = ${org.id}`);
    expect(await rows('tag_state_sets')).toBe(stateGroups.rows[0]!.n);

    // Piled again, read through the statistics of their days: the read folds them.
    for (let i = 0; i < COUNT_ROWS_TO_FOLD + 5; i++) {
      await f.record(org, tagsOf[i % 2], { created: new Date(BASE + (i % 3) * DAY + 7 + i) });
    }
    const { client } = await t.signIn({ role: 'Administrator', orgs: [org] });
    const res = await client.get(
      `/api/devices/xt1/records/statistics/filtered/?start_date=${new Date(BASE).toISOString()}&end_date=${new Date(BASE + 3 * DAY - 1).toISOString()}`,
    );
    expect(res.statusCode).toBe(200);
    await expectKeptExact();
    expect(await rows('tag_day_sets')).toBe(await dayGroups());
  });

  it('go with a deleted organization', async () => {
    const gone = await t.createOrg('Tag sets gone');
    await f.record(gone, await f.tag(gone, { running: true }), { created: new Date(BASE) });
    const rowsOf = async () =>
      (
        await t.ownerDb.execute<{ n: number }>(sql`SELECT
          (SELECT count(*) FROM tag_day_sets WHERE organization_id = ${gone.id})
          + (SELECT count(*) FROM tag_state_sets WHERE organization_id = ${gone.id}) AS n`)
      ).rows[0]!.n;
    expect(Number(await rowsOf())).toBe(3);
    await t.ownerDb.execute(sql`DELETE FROM organizations WHERE id = ${gone.id}`);
    expect(Number(await rowsOf())).toBe(0);
  });
});
