import { z } from 'zod';

/**
 * The two kinds of id a call names, defined once for the contract, the server
 * and the web (issue 12). Text that cannot be an id cannot name a row: a
 * schema field answers 400 naming it, a path or free-text lookup 404, and
 * neither reaches the database.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids of people, organizations, roles, rules, reports...: UUIDs. */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

/**
 * Row ids (records, alarms, tags, travel locations, notification settings and
 * rules...) written as decimal text, the way the server writes them: no sign,
 * no leading zero, at most 16 digits.
 */
export const ROW_ID = /^[1-9][0-9]{0,15}$/;

/** The row a decimal id names, or undefined when the text cannot name one (also beyond 2^53). */
export function parseRowId(value: string): number | undefined {
  if (!ROW_ID.test(value)) return undefined;
  const id = Number(value);
  return Number.isSafeInteger(id) ? id : undefined;
}

/** A row id field of a body or query (surrounding spaces ignored); 400 naming the field otherwise. */
export const zRowId = () =>
  z
    .string()
    .trim()
    .regex(ROW_ID, { message: 'must be a decimal id', abort: true })
    .refine((text) => parseRowId(text) !== undefined, 'must be a decimal id');
