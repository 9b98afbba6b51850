import { getTableColumns, type Table } from 'drizzle-orm';

/**
 * A row as the driver answers a plain statement (`select *`, `returning *`:
 * column names), mapped the way Drizzle maps the rows of its own queries.
 */
export function fromDriverRow<T extends Table>(
  table: T,
  raw: Record<string, unknown>,
): T['$inferSelect'] {
  const out: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const value = raw[column.name];
    out[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return out as T['$inferSelect'];
}
