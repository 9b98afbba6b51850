import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestOrg } from '../../../test/helpers';
import { recordFactories } from '../../../test/record-factories';
import { recordingRecords } from '../../../test/recording-records';
import { rowsRead, type PlanNode } from '../../../test/plans';

/**
 * A search is two statements, each sent once: the look-up of the tags and
 * travel locations its words name (one named statement for any words, which
 * PostgreSQL keeps one plan for), then the page in the list's one page shape,
 * planned for the values the look-up found (lists/search.ts,
 * docs/decisions/list-performance.md, "Search statement"). The service runs
 * on one connection here, so its prepared statements can be read back.
 */

describe('search: a named look-up, then one page statement [SPEC-5.5, FEAT-PERFORMANCE]', () => {
  let t: TestApp;
  let org: TestOrg;
  let rec: ReturnType<typeof recordingRecords>;
  let f: ReturnType<typeof recordFactories>;
  /** Record ids (newest first) by tag serial number. */
  const bySerial = new Map<string, string[]>();

  beforeAll(async () => {
    t = await createTestApp();
    org = await t.createOrg();
    const other = await t.createOrg();
    f = recordFactories(t.db);
    await f.travelLocation(org, { name: 'Basel Depot' });
    for (let i = 0; i < 10; i++) {
      const serial = `TRG${String(i).padStart(4, '0')}`;
      const tag = await f.tag(org, { serialNumber: serial });
      const ids: string[] = [];
      for (let k = 0; k < 3; k++) ids.unshift(String((await f.record(org, tag)).id));
      bySerial.set(serial, ids);
      // The same serial number in another organization never answers.
      await f.record(other, await f.tag(other, { serialNumber: serial }));
    }
    // Enough other records that the plan depends on what the planner knows of
    // the words: on a few rows every plan reads the whole table and costs alike.
    const filler = await f.tag(org, { serialNumber: 'FILLER' });
    await t.db.execute(sql`
      INSERT INTO records (organization_id, tag_id, tag_serial_number, tag_type, measurement_interval,
        start_time_seconds, primary_reference, po_number)
      SELECT ${org.id}::uuid, ${filler.id}, 'FILLER', 'XT1_NFC_MU', 60, g, 'REF-' || g, 'PO-' || (g * 7919 % 100000)
      FROM generate_series(1, 20000) g`);
    // And as many serial-number suffixes as 10,000 tags have (stand-in rows of
    // no record), so the look-up's estimates are those of a large organization.
    await t.db.execute(sql`
      INSERT INTO record_tag_serials (organization_id, suffix, tag_id)
      SELECT ${org.id}::uuid, 'zz' || g, 2000000000 + g / 10 FROM generate_series(1, 100000) g`);
    await t.ownerDb.execute(sql`ANALYZE records, record_tag_serials`); // the owner: the application role may not
    rec = recordingRecords(t, org);
  });
  afterAll(async () => {
    await rec.pool.end();
    await t.close();
  });

  const search = async (words: string, page = 1) => {
    rec.clear();
    const reply = await rec.service.records(rec.organizationId, {
      search: words,
      page_number: page,
      page_size: 2,
      order_by: ['-id'],
    });
    return { total: reply.total, ids: reply.items.map((r) => r.id), statements: [...rec.sent] };
  };

  it('answers each serial number in two statements, the look-up through its generic plan', async () => {
    for (const [serial, ids] of bySerial) {
      const got = await search(serial.toLowerCase());
      expect(got.total).toBe(3);
      expect(got.ids).toEqual(ids.slice(0, 2));
      // The look-up, named (prepared), then the page.
      expect(got.statements).toHaveLength(2);
      expect(got.statements[0]!.name).toBeDefined();
      expect(got.statements[0]!.text).toContain('record_tag_serials');
      expect(got.statements[1]!.text).toContain('"hits"');
    }
    // A search whose page is empty is not asked again: the look-up and the page, once each.
    for (let i = 0; i < bySerial.size; i++) {
      const none = await search(`TRGX${i}`);
      expect(none.total).toBe(0);
      expect(none.statements).toHaveLength(2);
    }
    // The look-up keeps its generic plan: with DISTINCT it was planned on
    // every call on the 1,000,000-record bench (list-performance.md, "Search").
    const lookup = await rec.pool.query<{ generic_plans: string; custom_plans: string }>(
      `SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE statement LIKE '%record_tag_serials%' AND statement NOT LIKE '%"hits"%'`,
    );
    expect(lookup.rows).toHaveLength(1);
    expect(Number(lookup.rows[0]!.custom_plans)).toBeLessThanOrEqual(5);
    expect(Number(lookup.rows[0]!.generic_plans)).toBeGreaterThanOrEqual(2 * bySerial.size - 5);
  });

  it('reads the records a word finds, not the organization, for a word of 3 records and of 20,000', async () => {
    // The page is planned for the words and the tags the look-up found: a
    // word of three records reads those, by the trigram index and the tag id.
    const { statements, total } = await search('TRG0001');
    expect(total).toBe(3);
    const plan = await rec.explain<PlanNode>(statements[1]!, 'ANALYZE');
    expect(rowsRead(plan, 'records')).toBeLessThan(100);
    expect((await search('FILLER')).total).toBe(20_000);
  });

  it('the trigram index keeps at most 64 kB of pending entries (migration 0020)', async () => {
    // Every search reads the whole pending list; uploads fill it (their record
    // updates are not HOT), to 4 MB by default.
    const { rows } = await rec.pool.query<{ reloptions: string[] | null }>(
      `SELECT reloptions FROM pg_class WHERE relname = 'records_search_fields_idx'`,
    );
    expect(rows[0]!.reloptions).toContain('gin_pending_list_limit=64');
  });

  it('pages past the last match with the total, and answers none for no match', async () => {
    const [serial, ids] = [...bySerial][0]!;
    expect(await search(serial, 2)).toMatchObject({ total: 3, ids: ids.slice(2) });
    expect(await search(serial, 3)).toMatchObject({ total: 3, ids: [] });
    expect(await search('TRGX999')).toMatchObject({ total: 0, ids: [] });
  });

  it('a word naming a travel location, or without a trigram, goes the same way', async () => {
    const basel = await search('basel');
    expect(basel.total).toBe(0);
    // The look-up, then the page, planned for its values (unnamed).
    expect(basel.statements).toHaveLength(2);
    expect(basel.statements[1]!.name).toBeUndefined();
    const short = await search('g0');
    expect(short.total).toBe(30); // TRG0000 to TRG0009, three records each
    expect(short.statements).toHaveLength(2); // the look-up, the page with the count
    expect(short.statements[1]!.name).toBeUndefined();
  });

  it('finds a travel location, and every serial number past too many tags', async () => {
    // A record that names a word in its own text, and one the word finds
    // otherwise: at a travel location it names, or by a serial number past
    // the look-up's first MAX_SEARCH_TAGS + 1 suffixes (the stand-ins
    // 'zz9', 'zz90', … 'zz99999' come first): the look-up tells, so the
    // page tests every serial number.
    const lugano = await f.travelLocation(org, { name: 'Lugano Hub' });
    const byText = await f.record(org, await f.tag(org, { serialNumber: 'LUG1' }), {
      primaryReference: 'TO-LUGANO zz9',
    });
    const atLugano = await f.record(org, await f.tag(org, { serialNumber: 'LUG2' }), {
      shipperLocationId: lugano.id,
    });
    const bySerialPastLimit = await f.record(org, await f.tag(org, { serialNumber: 'ZZ99999X' }));
    const byId = (ids: (string | number | undefined)[]) => ids.map(String).sort();
    const located = await search('lugano');
    expect(located.total).toBe(2);
    expect(byId(located.ids)).toEqual(byId([byText.id, atLugano.id]));
    expect(located.statements.length).toBeGreaterThan(1);
    const many = await search('zz9');
    expect(many.total).toBe(2);
    expect(byId(many.ids)).toEqual(byId([byText.id, bySerialPastLimit.id]));
    expect(many.statements.length).toBeGreaterThan(1);
  });
});
