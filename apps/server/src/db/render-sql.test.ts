import { and, desc, eq, gt, inArray, sql, type SQL } from 'drizzle-orm';
import { alias, PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { renderSql } from './render-sql';
import { records, travelLocations } from './schema-shipments';

/**
 * renderSql is Drizzle's own rendering without the parameter typings
 * (node-postgres takes none): the same text and the same values, for
 * columns of tables and aliases, values a column encodes (a timestamp, a
 * JSON column), lists, nested fragments and quoted names.
 */
describe('renderSql [FEAT-PERFORMANCE]', () => {
  const dialect = new PgDialect();
  const origin = alias(travelLocations, 'origin');
  const at = new Date('2026-11-29T12:34:56.789Z');
  const fragments: [string, SQL][] = [
    ['a column and a uuid', eq(records.organizationId, '00000000-0000-4000-8000-000000000001')],
    ['a timestamp the column encodes', gt(records.created, at)],
    ['a JSON column', eq(records.tripInputs, { legs: [1, 2] } as never)],
    ['a list', inArray(records.id, [1, 2, 3])],
    ['an alias', sql`${origin.name} ILIKE ${'%a%'} ORDER BY ${desc(origin.id)}`],
    [
      'nested, with an array bound whole',
      and(
        sql`${records.tagSerialNumber} = ANY(${sql.param(['A', 'B'])}::text[])`,
        sql`(SELECT ${sql.raw('"x""y"')} FROM ${records} WHERE ${records.id} = ${7}) IS NOT NULL`,
      )!,
    ],
  ];
  it.each(fragments)('%s: the text and values Drizzle renders', (_name, fragment) => {
    const { sql: text, params } = dialect.sqlToQuery(fragment);
    expect(renderSql(fragment)).toEqual({ sql: text, params });
  });
});
