import { desc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers';
import { recordFactories } from '../../test/record-factories';
import type { Db } from './client';
import { records, travelLocations } from './schema-shipments';
import { jsonRow, jsonRowSelections } from './json-rows';
import { seed, type World } from '../modules/records/records.fixtures';

/**
 * A select of one JSON array a row answers exactly the rows Drizzle's own
 * select answers: a whole table, columns of left-joined tables (one of them
 * nullable as a whole), SQL fields with and without a decoder, timestamps,
 * bigints; and through Drizzle's `.prepare(name)`, a named statement.
 */
describe('jsonRow [FEAT-PERFORMANCE]', () => {
  // The app's own (its modules are imported with the test helpers), before this file adds its.
  const appSelections = [...jsonRowSelections];
  let t: TestApp;
  let w: World;
  beforeAll(async () => {
    t = await createTestApp();
    w = await seed(t, recordFactories(t.db));
  });
  afterAll(() => t.close());

  const origin = alias(travelLocations, 'origin');
  const destination = alias(travelLocations, 'destination');
  const selection = {
    record: records,
    origin,
    destinationName: destination.name,
    idText: sql<string>`${records.id}::text`,
    doubled: sql`${records.numberOfPoints} * 2`.mapWith(Number),
    names: sql<string[]>`ARRAY[${records.tagSerialNumber}, 'x']`,
  };
  const build = (db: Db) =>
    db
      .select(selection)
      .from(records)
      .leftJoin(origin, eq(origin.id, records.shipperLocationId))
      .leftJoin(destination, eq(destination.id, records.receiverLocationId));
  type Row = Awaited<ReturnType<ReturnType<typeof build>['execute']>>[number];
  const row = jsonRow<Row>(
    selection,
    ((db: Db, fields: Record<string, never>) =>
      db
        .select(fields)
        .from(records)
        .leftJoin(origin, eq(origin.id, records.shipperLocationId))
        .leftJoin(destination, eq(destination.id, records.receiverLocationId))) as never,
    { nullable: ['origin'] },
  );
  const buildRows = (db: Db) =>
    db
      .select({ row })
      .from(records)
      .leftJoin(origin, eq(origin.id, records.shipperLocationId))
      .leftJoin(destination, eq(destination.id, records.receiverLocationId));

  it('answers the rows Drizzle answers', async () => {
    const organizationId = w.orgA.id;
    const direct = await build(t.db)
      .where(eq(records.organizationId, organizationId))
      .orderBy(desc(records.id))
      .limit(10);
    const viaJson = (
      await buildRows(t.db)
        .where(eq(records.organizationId, organizationId))
        .orderBy(desc(records.id))
        .limit(10)
    ).map((r) => r.row);
    expect(direct.length).toBeGreaterThan(1);
    expect(direct.some((r) => r.origin === null)).toBe(true);
    expect(direct.some((r) => r.origin !== null)).toBe(true);
    expect(viaJson).toEqual(direct);
    expect(viaJson[0]!.record.created).toBeInstanceOf(Date);
    expect(typeof viaJson[0]!.doubled).toBe('number');
  });

  it("a named statement through Drizzle's prepare: parsed once per connection, same rows", async () => {
    const organizationId = w.orgA.id;
    const unnamed = (
      await buildRows(t.db)
        .where(eq(records.organizationId, organizationId))
        .orderBy(desc(records.id))
        .limit(10)
    ).map((r) => r.row);
    await t.db.transaction(async (tx) => {
      const named = buildRows(tx)
        .where(eq(records.organizationId, sql.placeholder('org')))
        .orderBy(desc(records.id))
        .limit(10)
        .prepare('json_rows_test');
      for (let i = 0; i < 2; i++) {
        const rows = await named.execute({ org: organizationId });
        expect(rows.map((r) => r.row)).toEqual(unnamed);
      }
      const { rows } = await tx.execute<{ calls: number; statement: string }>(
        sql`SELECT generic_plans + custom_plans AS calls, statement FROM pg_prepared_statements WHERE name = 'json_rows_test'`,
      );
      expect(rows).toHaveLength(1);
      expect(Number(rows[0]!.calls)).toBe(2);
      // Each row as one JSON array of its fields.
      expect(rows[0]!.statement).toMatch(/^select json_build_array\("records"\."id", /);
      expect(rows[0]!.statement).toMatch(
        / where "records"\."organization_id" = \$1 order by "records"\."id" desc limit \$2$/,
      );
    });
  });

  it('refuses more fields than one json_build_array takes', () => {
    const wide = Object.fromEntries(
      Array.from({ length: 101 }, (_, i) => [`f${i}`, sql<number>`${sql.raw(String(i))}`]),
    );
    expect(() => jsonRow(wide, (() => []) as never)).toThrow(/101 fields, more than 100/);
  });

  /**
   * Every JSON-array select of the app (the record, tag and alarm views, the
   * session look-up) answers what Drizzle's own select of the same selection
   * answers, on rows that hold the values JSON could change: a year after
   * 9999 and microseconds, quotes, backslashes, a line break and accents in
   * text, NaN and infinities in floats, NULL in an array, nested JSON with a
   * trailing zero.
   */
  it('every JSON-array select of the app answers the rows Drizzle answers', async () => {
    const odd = `a "quoted" \\ back\nslash é ✓`;
    await t.db.execute(sql`
      UPDATE ${records} SET created = '10000-06-01 12:00:00.123456+00', program_name = ${odd},
        high_threshold = 'NaN', low_threshold = '-Infinity', alarm_recipients = ARRAY['x"y', NULL],
        trip_inputs = '{"k": [1, 2.50, "z"]}', start_time_seconds = 253402300799
      WHERE id = ${w.r1.id}`);
    await t.db.execute(sql`
      UPDATE ${records} SET last_action_taken = '2026-11-17 12:05:46.8+05:30', stop_time = '1000-01-01 00:00:00+00'
      WHERE id = ${w.r2.id}`);
    // Imported by createTestApp's app: every module that selects JSON arrays.
    expect(appSelections.length).toBeGreaterThanOrEqual(4);
    // In one order (the selects have none); toEqual then tells NaN from null and compares Dates.
    const inOrder = (rows: unknown[]) =>
      rows
        .map((r) => ({ row: r, key: JSON.stringify(r) }))
        .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
        .map(({ row: r }) => r);
    // In one transaction: a field of now() is the same in both.
    await t.db.transaction(async (tx) => {
      for (const { selection: fields, field, build: head } of appSelections) {
        const of = head as unknown as (db: Db, f: object) => PromiseLike<unknown[]>;
        const direct = await of(tx, fields);
        const viaJson = ((await of(tx, { row: field })) as { row: unknown }[]).map((r) => r.row);
        expect(direct.length, Object.keys(fields).join()).toBeGreaterThan(0);
        expect(viaJson.length).toBe(direct.length);
        expect(inOrder(viaJson)).toEqual(inOrder(direct));
      }
    });
    const [oddRecord] = (
      await t.db.select({ created: records.created, program: records.programName }).from(records)
    ).filter((r) => r.program === odd);
    expect(oddRecord!.created.toISOString()).toBe('+010000-06-01T12:00:00.123Z');
  });
});
