import { DISPOSITION_DECISIONS, type TDispositionDecision } from '@coldtrace/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordRow } from '../../db/schema-shipments';
import { createTestApp, type TestApp, type TestOrg } from '../../../test/helpers';
import { rowsRead, type PlanNode } from '../../../test/plans';
import { recordFactories } from '../../../test/record-factories';
import { recordingRecords } from '../../../test/recording-records';
import { foldCounts } from './kept-counts';

type Decision = TDispositionDecision;
const DECISIONS = DISPOSITION_DECISIONS;

/**
 * The kept counts of each latest decision (migration 0029) say what counting
 * the records whose latest decision in their organization it is says, after
 * every kind of write; All Records filtered by a decision alone (`disposition`,
 * or a decision's `review_state`) takes its total from them and reads a page,
 * not every match.
 */
describe('kept decision counts [FEAT-KEPT-COUNTS]', () => {
  let t: TestApp;
  let f: ReturnType<typeof recordFactories>;
  let org: TestOrg;
  let other: TestOrg;
  const recs: RecordRow[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    f = recordFactories(t.db);
    org = await t.createOrg('Decisions');
    other = await t.createOrg('Decisions beside');
    const tag = await f.tag(org);
    for (let i = 0; i < 12; i++) recs.push(await f.record(org, tag));
  });
  afterAll(() => t.close());

  /** Each organization's kept counts against the records' latest decisions. */
  async function expectKeptExact() {
    for (const o of [org, other]) {
      const { rows: kept } = await t.ownerDb.execute<Record<string, number>>(sql`SELECT
        coalesce(sum(released_records), 0)::int AS "RELEASED",
        coalesce(sum(quarantined_records), 0)::int AS "QUARANTINED",
        coalesce(sum(rejected_records), 0)::int AS "REJECTED"
        FROM record_count_deltas WHERE organization_id = ${o.id}`);
      const { rows: counted } = await t.ownerDb.execute<{ decision: Decision; n: number }>(sql`
        SELECT latest.decision, count(*)::int AS n FROM records r
        JOIN LATERAL (SELECT d.decision FROM record_dispositions d
          WHERE d.organization_id = r.organization_id AND d.record_id = r.id
          ORDER BY d.id DESC LIMIT 1) latest ON true
        WHERE r.organization_id = ${o.id} GROUP BY 1`);
      const expected = Object.fromEntries(DECISIONS.map((d) => [d, 0]));
      for (const row of counted) expected[row.decision] = row.n;
      expect(kept[0], o.name).toEqual(expected);
    }
  }

  it('follow decisions: first, changed, repeated, several in one statement', async () => {
    await expectKeptExact();
    await f.decision(recs[0]!);
    await f.decision(recs[1]!, { decision: 'QUARANTINED' });
    await expectKeptExact();
    // Quarantined, then released; released again.
    await f.decision(recs[1]!, { decision: 'RELEASED' });
    await f.decision(recs[0]!, { decision: 'RELEASED' });
    await expectKeptExact();
    // Three records in one statement, one of them twice.
    await t.db
      .execute(sql`INSERT INTO record_dispositions (organization_id, record_id, decision, comment,
        meaning, user_id, printed_name, signed_at, client_type)
      SELECT ${org.id}, r, d, 'ok', 'APPROVED', gen_random_uuid(), 'Q. A.', now(), 'WEB'
      FROM (VALUES (${recs[2]!.id}::bigint, 'REJECTED'), (${recs[3]!.id}::bigint, 'QUARANTINED'),
        (${recs[4]!.id}::bigint, 'QUARANTINED'), (${recs[4]!.id}::bigint, 'RELEASED')) AS v(r, d)`);
    await expectKeptExact();
  });

  it('follow a record moved to another organization and back', async () => {
    // Decided here; moved away, it counts there only by a decision made there.
    await t.db.execute(
      sql`UPDATE records SET organization_id = ${other.id} WHERE id = ${recs[1]!.id}`,
    );
    await expectKeptExact();
    await f.decision({ organizationId: other.id, id: recs[1]!.id }, { decision: 'REJECTED' });
    await expectKeptExact();
    await t.db.execute(
      sql`UPDATE records SET organization_id = ${org.id} WHERE id = ${recs[1]!.id}`,
    );
    await expectKeptExact();
    // A key of a latest decision does not change.
    await expect(
      t.ownerDb.execute(
        sql`UPDATE record_latest_decisions SET organization_id = ${other.id} WHERE record_id = ${recs[0]!.id}`,
      ),
    ).rejects.toThrow();
  });

  it('survive the fold of the count rows', async () => {
    const before = await t.ownerDb.execute(sql`SELECT count(*)::int AS n FROM record_count_deltas
      WHERE organization_id = ${org.id}`);
    expect((before.rows[0] as { n: number }).n).toBeGreaterThan(1);
    await foldCounts(t.db, org.id);
    const after = await t.ownerDb.execute(sql`SELECT count(*)::int AS n FROM record_count_deltas
      WHERE organization_id = ${org.id}`);
    expect(after.rows).toEqual([{ n: 1 }]);
    await expectKeptExact();
  });

  it('give the filters their counted totals (alarms awaiting acknowledgement aside)', async () => {
    const { client } = await t.signIn({ role: 'Administrator', orgs: [org] });
    // A released record with an alarm nobody acknowledged: its state is AWAITING_ACKNOWLEDGEMENT.
    await f.alarm(recs[4]!, { acknowledged: false, dismissed: false });
    const totalOf = async (query: string) => {
      const res = await client.get(`/api/devices/xt1/records/?page_number=1&page_size=20&${query}`);
      expect(res.statusCode, query).toBe(200);
      return {
        total: Number(res.headers['x-total-count']),
        ids: (res.json() as { id: string }[]).map((r) => r.id),
      };
    };
    const counted = async (decision: Decision | 'NONE', review: boolean) => {
      const { rows } = await t.ownerDb.execute<{ id: string }>(sql`
        SELECT r.id::text AS id FROM records r
        LEFT JOIN LATERAL (SELECT d.decision FROM record_dispositions d
          WHERE d.organization_id = r.organization_id AND d.record_id = r.id
          ORDER BY d.id DESC LIMIT 1) latest ON true
        WHERE r.organization_id = ${org.id} AND coalesce(latest.decision, 'NONE') = ${decision}
          AND (${!review} OR NOT EXISTS (SELECT 1 FROM alarms a WHERE a.organization_id = r.organization_id
            AND a.record_id = r.id AND NOT a.acknowledged AND NOT a.dismissed))`);
      return rows.map((r) => r.id).sort();
    };
    for (const decision of [...DECISIONS, 'NONE'] as const) {
      const byDisposition = await totalOf(`disposition=${decision}`);
      expect(byDisposition.total, decision).toBe((await counted(decision, false)).length);
      expect([...byDisposition.ids].sort(), decision).toEqual(await counted(decision, false));
      if (decision === 'NONE') continue;
      const byState = await totalOf(`review_state=${decision}`);
      expect(byState.total, decision).toBe((await counted(decision, true)).length);
      expect([...byState.ids].sort(), decision).toEqual(await counted(decision, true));
    }
    // The released record awaiting acknowledgement: released, but not in the review state's list.
    expect((await totalOf('disposition=RELEASED')).ids).toContain(String(recs[4]!.id));
    expect((await totalOf('review_state=RELEASED')).ids).not.toContain(String(recs[4]!.id));
  });

  it('read a page of a decision that most records have, not every match', async () => {
    const big = await t.createOrg('Decisions at scale');
    const tag = await f.tag(big);
    await t.db.execute(sql`
      INSERT INTO records (organization_id, tag_id, tag_serial_number, tag_type, measurement_interval,
        start_time_seconds, last_action_taken)
      SELECT ${big.id}::uuid, ${tag.id}, ${tag.serialNumber}, ${tag.tagType}, 60, g,
        now() - g * interval '1 minute'
      FROM generate_series(1, 20000) g`);
    // Before the decisions: the decision counts' trigger may otherwise run a plan a
    // pool connection kept from the tests above, made for a handful of records (see
    // awaiting-decision.test.ts).
    await t.ownerDb.execute(sql`ANALYZE records`);
    await t.db
      .execute(sql`INSERT INTO record_dispositions (organization_id, record_id, decision, comment,
        meaning, user_id, printed_name, signed_at, client_type)
      SELECT organization_id, id, CASE WHEN id % 100 = 0 THEN 'QUARANTINED' ELSE 'RELEASED' END, 'ok',
        'APPROVED', gen_random_uuid(), 'Q. A.', now(), 'WEB'
      FROM records WHERE organization_id = ${big.id}`);
    // Five released records with an alarm nobody acknowledged (their state is that instead).
    await t.db.execute(sql`
      INSERT INTO alarms (organization_id, record_id, tag_id, tag_serial_number, kind, above_or_below,
        first_point_idx, last_point_idx, degree_minutes, duration, start_time, end_time)
      SELECT organization_id, id, tag_id, tag_serial_number, 'excursion', 'ABOVE', 0, 2, 12, 180, now(), now()
      FROM records WHERE organization_id = ${big.id} AND start_time_seconds BETWEEN 11 AND 15`);
    await t.ownerDb.execute(sql`ANALYZE records`);
    await t.ownerDb.execute(sql`ANALYZE record_latest_decisions`);
    const rec = recordingRecords(t, big);
    try {
      for (const [q, total] of [
        [{ review_state: 'RELEASED' }, 19800 - 5],
        [{ disposition: 'RELEASED' }, 19800],
      ] as const) {
        rec.clear();
        const page = await rec.service.records(rec.organizationId, {
          page_number: 1,
          page_size: 20,
          ...q,
        });
        expect(page.total, JSON.stringify(q)).toBe(total);
        expect(page.items).toHaveLength(20);
        const plans = await Promise.all(
          rec.sent
            .filter((s) => s.text.includes('"records"'))
            .map((s) => rec.explain<PlanNode>(s, 'ANALYZE')),
        );
        for (const plan of plans)
          expect(rowsRead(plan, 'records'), JSON.stringify(q)).toBeLessThan(100);
      }
    } finally {
      await rec.pool.end();
    }
  });
});
