import { getTableName, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { records, tags } from '../../db/schema-shipments';
import { createTestApp, type TestApp } from '../../../test/helpers';
import { RECORD_FIELDS, TAG_FIELDS } from './fields';
import type { FieldCatalog } from './filter-sql';

/**
 * A field ordered without `NULLS LAST` (filter-sql.ts `withNeverNull`) must
 * never be NULL in the database itself, not only in the Drizzle schema:
 * otherwise a descending order would put its NULLs first.
 */
describe('fields ordered without NULLS LAST are NOT NULL in the database [RULE-FILTER-3]', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it.each([
    ['records', RECORD_FIELDS, records],
    ['details (tags)', TAG_FIELDS, tags],
  ] as const)('%s', async (_, catalog: FieldCatalog, base) => {
    const { rows } = await t.db.execute<{ column_name: string; is_nullable: string }>(
      sql`SELECT column_name, is_nullable FROM information_schema.columns
        WHERE table_schema = 'public' AND table_name = ${getTableName(base)}`,
    );
    const nullable = new Map(rows.map((r) => [r.column_name, r.is_nullable === 'YES']));
    const neverNull = Object.entries(catalog).filter(([, spec]) => spec.neverNull);
    // The common orders are among them (an index serves them both ways).
    expect(neverNull.map(([name]) => name)).toEqual(expect.arrayContaining(['id', 'created']));
    for (const [name, spec] of neverNull) {
      const column = (spec.expr as unknown as { name: string }).name;
      expect(nullable.get(column), `${name} (${column})`).toBe(false);
    }
  });
});
