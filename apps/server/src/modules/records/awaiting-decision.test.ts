import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordRow } from '../../db/schema-shipments';
import { createTestApp, type TestApp, type TestOrg } from '../../../test/helpers';
import { recordFactories } from '../../../test/record-factories';
import { recordingRecords } from '../../../test/recording-records';
import { rowsRead, type PlanNode } from '../../../test/plans';

/**
 * `records_awaiting_decision` (migration 0026) holds exactly the records
 * without a release decision in their own organization, and
 * `record_latest_decisions` (0027) each record's latest decision per
 * organization, after every kind of write that could change them; and the
 * review-state filters read the records they match, not the organization's.
 */

describe('records awaiting a decision [FEAT-REVIEW-QUEUE]', () => {
  let t: TestApp;
  let a: TestOrg;
  let b: TestOrg;

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createOrg();
    b = await t.createOrg();
  });
  afterAll(() => t.close());

  /** The kept rows against the definition, over every organization. */
  async function expectKept(step: string) {
    const kept = await t.db.execute<{ o: string; r: string }>(sql`
      SELECT organization_id::text AS o, record_id::text AS r FROM records_awaiting_decision ORDER BY 1, 2`);
    const defined = await t.db.execute<{ o: string; r: string }>(sql`
      SELECT r.organization_id::text AS o, r.id::text AS r FROM records r
      WHERE NOT EXISTS (SELECT 1 FROM record_dispositions d
        WHERE d.organization_id = r.organization_id AND d.record_id = r.id)
      ORDER BY 1, 2`);
    expect(kept.rows, step).toEqual(defined.rows);
    const latest = await t.db.execute(sql`
      SELECT organization_id::text AS o, record_id::text AS r, disposition_id::text AS d, decision
      FROM record_latest_decisions ORDER BY 1, 2`);
    const latestDefined = await t.db.execute(sql`
      SELECT DISTINCT ON (organization_id::text, record_id::text)
        organization_id::text AS o, record_id::text AS r, id::text AS d, decision
      FROM record_dispositions ORDER BY organization_id::text, record_id::text, id DESC`);
    expect(latest.rows, `${step}: latest decisions`).toEqual(latestDefined.rows);
    return kept.rows.length;
  }

  it('follows inserts, upserts, decisions, moves between organizations and deletions', async () => {
    const f = recordFactories(t.db);
    const tag = await f.tag(a);
    const one = await f.record(a, tag);
    expect(await expectKept('one record')).toBeGreaterThanOrEqual(1);

    // Many in one statement, then an upsert that updates one of them (adds nothing).
    await t.db.execute(sql`
      INSERT INTO records (organization_id, tag_id, tag_serial_number, tag_type, measurement_interval, start_time_seconds)
      SELECT ${a.id}::uuid, ${tag.id}, ${tag.serialNumber}, ${tag.tagType}, 60, g FROM generate_series(1, 30) g`);
    await expectKept('thirty in one statement');
    await t.db.execute(sql`
      INSERT INTO records (organization_id, tag_id, tag_serial_number, tag_type, measurement_interval, start_time_seconds)
      VALUES (${a.id}, ${tag.id}, ${tag.serialNumber}, ${tag.tagType}, 60, 1), (${a.id}, ${tag.id}, ${tag.serialNumber}, ${tag.tagType}, 60, 31)
      ON CONFLICT (organization_id, tag_id, start_time_seconds) DO UPDATE SET carrier = 'Upserted'`);
    await expectKept('an upsert that updates one row and inserts one');

    // Decisions: the first takes the record out; a later one, and one for two records at once.
    await f.decision(one, { decision: 'QUARANTINED' });
    await expectKept('a first decision');
    await f.decision(one);
    await expectKept('a second decision');
    // Two decisions for one record in one statement: the higher id is its latest.
    await t.db.execute(sql`
      INSERT INTO record_dispositions
        (organization_id, record_id, decision, comment, meaning, user_id, printed_name, signed_at, client_type)
      VALUES (${a.id}, ${one.id}, 'REJECTED', 'ok', 'APPROVED', gen_random_uuid(), 'Q. A.', now(), 'WEB'),
        (${a.id}, ${one.id}, 'QUARANTINED', 'ok', 'APPROVED', gen_random_uuid(), 'Q. A.', now(), 'WEB')`);
    await expectKept('two decisions for one record at once');
    const { rows: two } = await t.db.execute<{ id: number }>(
      sql`SELECT id FROM records WHERE organization_id = ${a.id} AND start_time_seconds IN (2, 3)`,
    );
    await t.db.execute(sql`
      INSERT INTO record_dispositions
        (organization_id, record_id, decision, comment, meaning, user_id, printed_name, signed_at, client_type)
      SELECT ${a.id}, id, 'REJECTED', 'ok', 'APPROVED', gen_random_uuid(), 'Q. A.', now(), 'WEB'
      FROM records WHERE id IN (${two[0]!.id}, ${two[1]!.id})`);
    await expectKept('two decisions in one statement');

    // A decided record moved to B awaits a decision there; moved back, it has its decision in A.
    await t.db.execute(sql`UPDATE records SET organization_id = ${b.id} WHERE id = ${one.id}`);
    await expectKept('a decided record moved away');
    await t.db.execute(sql`UPDATE records SET organization_id = ${a.id} WHERE id = ${one.id}`);
    await expectKept('moved back');
    // An undecided record moved, decided in B, then moved back to A (no decision in A).
    const other: RecordRow = await f.record(a, tag);
    await t.db.execute(sql`UPDATE records SET organization_id = ${b.id} WHERE id = ${other.id}`);
    await f.decision({ organizationId: b.id, id: other.id });
    await expectKept('an undecided record moved and decided there');
    await t.db.execute(sql`UPDATE records SET organization_id = ${a.id} WHERE id = ${other.id}`);
    await expectKept('moved back without a decision in A');

    // An update that does not move the record changes nothing; a deletion takes it out.
    await t.db.execute(sql`UPDATE records SET carrier = 'Changed' WHERE organization_id = ${a.id}`);
    await expectKept('updates that do not move');
    await t.db.execute(
      sql`DELETE FROM records WHERE organization_id = ${a.id} AND start_time_seconds = 30`,
    );
    await expectKept('a deletion');
  });

  it('"Needs review", "Awaiting decision" and a decision read the records they match', async () => {
    const c = await t.createOrg();
    const tag = await recordFactories(t.db).tag(c);
    // 20,000 records (enough that PostgreSQL reads the few matches by id rather than the table), all decided but 10; 5 of the decided ones with an alarm nobody acknowledged.
    await t.db.execute(sql`
      INSERT INTO records (organization_id, tag_id, tag_serial_number, tag_type, measurement_interval, start_time_seconds)
      SELECT ${c.id}::uuid, ${tag.id}, ${tag.serialNumber}, ${tag.tagType}, 60, g FROM generate_series(1, 20000) g`);
    // Statistics for the 20,000, as autovacuum would take them before long. Without
    // them the decisions below can take 20 s instead of 1 (30 s and a time-out on
    // CI): a pool connection of the first test keeps the decision counts' trigger
    // plan (0029) made for a handful of records, a scan of records per decided row,
    // and ANALYZE invalidates it.
    await t.ownerDb.execute(sql`ANALYZE records`);
    await t.db.execute(sql`
      INSERT INTO record_dispositions
        (organization_id, record_id, decision, comment, meaning, user_id, printed_name, signed_at, client_type)
      SELECT organization_id, id, 'RELEASED', 'ok', 'APPROVED', gen_random_uuid(), 'Q. A.', now(), 'WEB'
      FROM records WHERE organization_id = ${c.id} AND start_time_seconds > 10`);
    await t.db.execute(sql`
      INSERT INTO alarms (organization_id, record_id, tag_id, tag_serial_number, kind, above_or_below,
        first_point_idx, last_point_idx, degree_minutes, duration, start_time, end_time)
      SELECT organization_id, id, tag_id, tag_serial_number, 'excursion', 'ABOVE', 0, 2, 12, 180, now(), now()
      FROM records WHERE organization_id = ${c.id} AND start_time_seconds BETWEEN 11 AND 15`);
    // Three of the decided records quarantined afterwards.
    await t.db.execute(sql`
      INSERT INTO record_dispositions
        (organization_id, record_id, decision, comment, meaning, user_id, printed_name, signed_at, client_type)
      SELECT organization_id, id, 'QUARANTINED', 'ok', 'APPROVED', gen_random_uuid(), 'Q. A.', now(), 'WEB'
      FROM records WHERE organization_id = ${c.id} AND start_time_seconds BETWEEN 100 AND 102`);
    await t.ownerDb.execute(
      sql`ANALYZE records, record_dispositions, records_awaiting_decision, record_latest_decisions, alarms`,
    );
    const rec = recordingRecords(t, c);
    try {
      for (const [state, matches] of [
        ['NEEDS_REVIEW', 15],
        ['AWAITING_DECISION', 10],
        ['QUARANTINED', 3],
      ] as const) {
        rec.clear();
        const page = await rec.service.records(rec.organizationId, {
          page_number: 1,
          page_size: 20,
          review_state: state,
        });
        expect(page.total, state).toBe(matches);
        const plans = await Promise.all(
          rec.sent
            .filter((s) => s.text.includes('"records"'))
            .map((s) => rec.explain<PlanNode>(s, 'ANALYZE')),
        );
        // The page in one statement: each match read for its hits, then its row by row version.
        for (const plan of plans) {
          expect(rowsRead(plan, 'records'), state).toBeLessThanOrEqual(2 * matches);
        }
      }
    } finally {
      await rec.pool.end();
    }
  });
});
