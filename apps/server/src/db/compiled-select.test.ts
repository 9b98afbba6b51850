import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import { alias, PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers';
import { recordFactories } from '../../test/record-factories';
import type { Db } from './client';
import { records, travelLocations } from './schema-shipments';
import { renderSql } from './render-sql';
import {
  compiledSelect,
  compiledSelects,
  MAX_PREPARED,
  renderedOnce,
  renderedTemplate,
} from './compiled-select';
import { seed, type World } from '../modules/records/records.fixtures';

/**
 * A select rendered once answers exactly the rows Drizzle's own select
 * answers: a whole table, columns of left-joined tables (one of them nullable
 * as a whole), SQL fields with and without a decoder, timestamps, bigints.
 */
describe('compiledSelect [FEAT-PERFORMANCE]', () => {
  // The app's own (its modules are imported with the test helpers), before this file adds its.
  const appSelects = [...compiledSelects];
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
  const build = (db: Db, fields = selection) =>
    db
      .select(fields)
      .from(records)
      .leftJoin(origin, eq(origin.id, records.shipperLocationId))
      .leftJoin(destination, eq(destination.id, records.receiverLocationId));
  const compiled = compiledSelect<
    Awaited<ReturnType<ReturnType<typeof build>['execute']>>[number],
    typeof selection
  >(selection, build, { nullable: ['origin'] });

  it('answers the rows Drizzle answers, with the tail’s parameters', async () => {
    const organizationId = w.orgA.id;
    const direct = await build(t.db)
      .where(eq(records.organizationId, organizationId))
      .orderBy(desc(records.id))
      .limit(10);
    const rendered = await compiled.run(
      t.db,
      sql`where ${eq(records.organizationId, organizationId)} order by ${desc(records.id)} limit ${10}`,
    );
    expect(direct.length).toBeGreaterThan(1);
    expect(direct.some((r) => r.origin === null)).toBe(true);
    expect(direct.some((r) => r.origin !== null)).toBe(true);
    expect(rendered).toEqual(direct);
    expect(rendered[0]!.record.created).toBeInstanceOf(Date);
    expect(typeof rendered[0]!.doubled).toBe('number');
  });

  it('prepared: a named statement, parsed once per connection, same rows', async () => {
    const organizationId = w.orgA.id;
    const tail = sql`where ${eq(records.organizationId, organizationId)} order by ${desc(records.id)} limit 10`;
    const unnamed = await compiled.run(t.db, tail);
    await t.db.transaction(async (tx) => {
      const first = await compiled.run(tx, tail, { prepared: true });
      const again = await compiled.run(tx, tail, { prepared: true });
      // The same tail already rendered, and run by runNamed: the same statement.
      const asRendered = await compiled.run(tx, renderSql(tail), { prepared: true });
      const byRunNamed = await compiled.runNamed(tx, renderSql(tail));
      for (const rows of [first, again, asRendered, byRunNamed]) expect(rows).toEqual(unnamed);
      const { rows } = await tx.execute<{ name: string; calls: number; statement: string }>(
        sql`SELECT name, generic_plans + custom_plans AS calls, statement FROM pg_prepared_statements WHERE name LIKE 'cs_%'`,
      );
      expect(rows).toHaveLength(1);
      expect(Number(rows[0]!.calls)).toBe(4);
      expect(rows[0]!.statement).toMatch(
        / where "records"\."organization_id" = \$1 order by "records"\."id" desc limit 10$/,
      );
    });
  });

  it('names at most MAX_PREPARED texts per select; the others run unnamed', async () => {
    const few = compiledSelect(selection, build);
    await t.db.transaction(async (tx) => {
      for (let n = 1; n <= MAX_PREPARED + 3; n++) {
        const rows = await few.run(tx, sql`where ${records.id} > 0 limit ${sql.raw(String(n))}`, {
          prepared: true,
        });
        expect(rows.length).toBeLessThanOrEqual(n);
      }
      const { rows } = await tx.execute<{ n: number }>(
        sql`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name LIKE 'cs_%' AND statement LIKE '%> 0 limit %'`,
      );
      expect(rows[0]!.n).toBe(MAX_PREPARED);
    });
  });

  it('sends each row as one JSON array of its fields', async () => {
    await t.db.transaction(async (tx) => {
      await compiled.run(tx, sql`limit 1`, { prepared: true });
      const { rows } = await tx.execute<{ statement: string }>(
        sql`SELECT statement FROM pg_prepared_statements WHERE name LIKE 'cs_%'`,
      );
      expect(rows[0]!.statement).toMatch(/^select json_build_array\("records"\."id", /);
    });
  });

  it('refuses a head that binds a parameter', async () => {
    const withParam = compiledSelect(selection, (db, fields) =>
      build(db, fields).where(eq(records.organizationId, w.orgA.id)),
    );
    await expect(withParam.run(t.db, sql``)).rejects.toThrow(/binds parameters/);
  });

  it('renderedOnce: the text Drizzle renders in place, as one raw chunk; a bound value is refused', async () => {
    const fragment = sql`${records.programName} || ${origin.name}`;
    const once = renderedOnce(fragment);
    const inPlace = t.db
      .select({ id: records.id })
      .from(records)
      .where(sql`${fragment} = 'x'`);
    const rendered = t.db
      .select({ id: records.id })
      .from(records)
      .where(sql`${once} = 'x'`);
    expect(rendered.toSQL()).toEqual(inPlace.toSQL());
    expect(once.queryChunks).toHaveLength(1);
    expect(() => renderedOnce(sql`${records.programName} = ${'x'}`)).toThrow(/binds values/);
  });

  it('renderedTemplate: the statement Drizzle renders with the values in place, composed or whole; refuses bound values', async () => {
    // The organization twice (one placeholder, two places), a list, a number.
    const fragmentOf = (org: unknown, names: unknown, min: unknown) =>
      sql`${records.organizationId} = ${org} AND ${origin.name} ILIKE ANY(${sql.param(names)}::text[]) AND (SELECT ${org}::uuid) IS NOT NULL AND ${records.numberOfPoints} >= ${min}`;
    const template = renderedTemplate<'org' | 'names' | 'min'>(
      fragmentOf(sql.placeholder('org'), sql.placeholder('names'), sql.placeholder('min')),
    );
    const values = { org: w.orgA.id, names: ['%a%', '%b%'], min: 3 };
    const query = (where: SQL) =>
      t.db
        .select({ id: records.id })
        .from(records)
        .leftJoin(origin, eq(origin.id, records.shipperLocationId))
        .where(and(eq(records.id, 7), where))
        .toSQL();
    // Composed into a larger statement: the same text and values as the fragment built with them.
    const inPlace = query(fragmentOf(values.org, values.names, values.min));
    expect(inPlace.params).toEqual([7, values.org, values.names, values.org, 3]);
    expect(query(template.sql(values))).toEqual(inPlace);
    // Whole: its own text, the values as $1 … $n in order.
    const whole = new PgDialect().sqlToQuery(fragmentOf(values.org, values.names, values.min));
    expect(template.query(values)).toEqual({ sql: whole.sql, params: whole.params });
    // And it runs: the rows of the same statement built with the values.
    const count = (where: SQL) =>
      t.db
        .select({ n: sql<number>`count(*)::int` })
        .from(records)
        .leftJoin(origin, eq(origin.id, records.shipperLocationId))
        .where(where);
    const [viaTemplate] = await count(template.sql({ org: w.orgA.id, names: ['%'], min: 0 }));
    const [built] = await count(fragmentOf(w.orgA.id, ['%'], 0));
    expect(viaTemplate).toEqual(built);
    expect(built!.n).toBeGreaterThan(0);

    // A value that is SQL takes its placeholder's place as SQL (composed only).
    const withCondition = renderedTemplate<'where' | 'org'>(
      sql`${sql.placeholder('where')} AND ${records.organizationId} = ${sql.placeholder('org')}`,
    );
    const condition = sql`${records.numberOfPoints} >= ${3}`;
    expect(query(withCondition.sql({ where: condition, org: w.orgA.id }))).toEqual(
      query(sql`${condition} AND ${records.organizationId} = ${w.orgA.id}`),
    );
    expect(() => withCondition.query({ where: condition, org: w.orgA.id })).toThrow(
      /values only, not SQL/,
    );

    expect(() => renderedTemplate(sql`${records.id} = ${7}`)).toThrow(/binds values/);
    expect(() =>
      renderedTemplate(sql`${records.id} = $1 OR ${records.id} = ${sql.placeholder('a')}`),
    ).toThrow(/not one of its placeholders/);
    expect(() => template.sql({ org: w.orgA.id } as never)).toThrow(
      /no value for placeholder names/,
    );
  });

  it('refuses more fields than one json_build_array takes', async () => {
    const wide = Object.fromEntries(
      Array.from({ length: 101 }, (_, i) => [`f${i}`, sql<number>`${sql.raw(String(i))}`]),
    );
    const tooWide = compiledSelect(wide, (db, fields) => db.select(fields).from(records));
    await expect(tooWide.run(t.db, sql`limit 1`)).rejects.toThrow(/101 fields, more than 100/);
  });

  /**
   * Every compiled select of the app (the record, tag and alarm views, the
   * counts, the session look-up) answers what Drizzle's own select of the
   * same selection answers, on rows that hold the values JSON could change:
   * a year after 9999 and microseconds, quotes, backslashes, a line break and
   * accents in text, NaN and infinities in floats, NULL in an array, nested
   * JSON with a trailing zero.
   */
  it('every compiled select of the app answers the rows Drizzle answers', async () => {
    const odd = `a "quoted" \\ back\nslash é ✓`;
    await t.db.execute(sql`
      UPDATE ${records} SET created = '10000-06-01 12:00:00.123456+00', program_name = ${odd},
        high_threshold = 'NaN', low_threshold = '-Infinity', alarm_recipients = ARRAY['x"y', NULL],
        trip_inputs = '{"k": [1, 2.50, "z"]}', start_time_seconds = 253402300799
      WHERE id = ${w.r1.id}`);
    await t.db.execute(sql`
      UPDATE ${records} SET last_action_taken = '2026-11-17 12:05:46.8+05:30', stop_time = '1000-01-01 00:00:00+00'
      WHERE id = ${w.r2.id}`);
    // Imported by createTestApp's app: every module that compiles a select.
    expect(appSelects.length).toBeGreaterThanOrEqual(6);
    // In one order (the selects have none); toEqual then tells NaN from null and compares Dates.
    const inOrder = (rows: unknown[]) =>
      rows
        .map((row) => ({ row, key: JSON.stringify(row) }))
        .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
        .map(({ row }) => row);
    // In one transaction: a field of now() is the same in both.
    await t.db.transaction(async (tx) => {
      for (const { selection, build: head, select } of appSelects) {
        // A select of fields its tail joins (the page's hits, the counts, a
        // card's kept count) needs that tail; its other fields are the plain
        // record view's, compared here.
        if (['countTotal', 'hitTotal', 'keptTotal'].some((k) => k in selection)) continue;
        const direct = await (head(tx, selection) as unknown as PromiseLike<unknown[]>);
        const rendered = await select.run(tx, sql``);
        expect(direct.length, Object.keys(selection).join()).toBeGreaterThan(0);
        expect(rendered.length).toBe(direct.length);
        expect(inOrder(rendered)).toEqual(inOrder(direct));
      }
    });
    const [oddRecord] = (
      await t.db.select({ created: records.created, program: records.programName }).from(records)
    ).filter((r) => r.program === odd);
    expect(oddRecord!.created.toISOString()).toBe('+010000-06-01T12:00:00.123Z');
  });
});
