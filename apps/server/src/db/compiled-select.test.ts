import { desc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers';
import { recordFactories } from '../../test/record-factories';
import type { Db } from './client';
import { records, travelLocations } from './schema-shipments';
import { compiledSelect, MAX_PREPARED } from './compiled-select';
import { seed, type World } from '../modules/records/records.fixtures';

/**
 * A select rendered once answers exactly the rows Drizzle's own select
 * answers: a whole table, columns of left-joined tables (one of them nullable
 * as a whole), SQL fields with and without a decoder, timestamps, bigints.
 */
describe('compiledSelect', () => {
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
  const compiled = compiledSelect<Awaited<ReturnType<ReturnType<typeof build>['execute']>>[number]>(
    selection,
    build,
    { nullable: ['origin'] },
  );

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
      expect(first).toEqual(unnamed);
      expect(again).toEqual(unnamed);
      const { rows } = await tx.execute<{ name: string; calls: number }>(
        sql`SELECT name, generic_plans + custom_plans AS calls FROM pg_prepared_statements WHERE name LIKE 'cs_%'`,
      );
      expect(rows).toHaveLength(1);
      expect(Number(rows[0]!.calls)).toBe(2);
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

  it('refuses a head that binds a parameter', async () => {
    const withParam = compiledSelect(selection, (db) =>
      build(db).where(eq(records.organizationId, w.orgA.id)),
    );
    await expect(withParam.run(t.db, sql``)).rejects.toThrow(/binds parameters/);
  });
});
