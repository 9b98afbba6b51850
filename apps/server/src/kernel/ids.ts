/**
 * The two kinds of id a call may name. Text that cannot be one cannot name a
 * row, and answers 404 rather than reaching the database.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids of people, organizations, roles, rules, reports...: UUIDs. */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

/** Row ids (records, configuration rows) written as decimal text: no sign, no leading zero. */
const ROW_ID = /^[1-9][0-9]{0,15}$/;

/** A row id sent as decimal text, or undefined when the text cannot name a row. */
export function parseRowId(value: string): number | undefined {
  if (!ROW_ID.test(value)) return undefined;
  const id = Number(value);
  return Number.isSafeInteger(id) ? id : undefined;
}
