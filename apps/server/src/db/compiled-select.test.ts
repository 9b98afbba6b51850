import { desc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers';
import { recordFactories } from '../../test/record-factories';
import type { Db } from './client';
import { records, travelLocations } from './schema-shipments';
import { compiledSelect } from './compiled-select';
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

  it('refuses a head that binds a parameter', async () => {
    const withParam = compiledSelect(selection, (db) =>
      build(db).where(eq(records.organizationId, w.orgA.id)),
    );
    await expect(withParam.run(t.db, sql``)).rejects.toThrow(/binds parameters/);
  });
});
