import {
  FilterSyntaxError,
  parseFilter,
  parseOrderBy,
  serializeFilter,
  type FilterItem,
  type FilterOperator,
} from '@coldtrace/domain';
import { Column, is, sql, type SQL, type SQLWrapper, type Table } from 'drizzle-orm';
import { AppError } from '../../kernel/errors';
import { parseInstantRange, sqlTimestamp } from './iso-range';

/**
 * The table filter (domain rules section 9) and `order_by` as SQL, over a
 * whitelist of fields per list. The filter text is parsed by the domain
 * grammar; each item must name a known field and an operator its type allows,
 * with a value of the field's type. Values only ever become bound parameters:
 * the SQL text depends on the fields, operators and the number of values,
 * never on the values themselves. Semantics per type and operator are written
 * down in docs/decisions/record-queries.md; in short:
 *
 * - text: contains / startsWith / endsWith are ILIKE with `%`, `_` and `\`
 *   escaped; equals, `=`, `!=` and isAnyOf compare ignoring case; isEmpty is
 *   NULL or ''.
 * - number: `=` `!=` `>` `>=` `<` `<=` isAnyOf over double precision.
 * - id: the numeric operators with integer values, plus equals and the
 *   contains family on the id's decimal text.
 * - date: is / not / after / onOrAfter / before / onOrBefore over the span the
 *   value names at its precision (a date is a whole UTC day).
 * - enum: is / not / equals / `=` / `!=` / isAnyOf with one of the field's
 *   values (case-insensitive, answered canonical).
 * - boolean: is / not / `=` / `!=` with true or false.
 * - Every type: isEmpty / isNotEmpty.
 *
 * The negative operators (`!=`, `not`) match an empty field; the others never
 * do. An item whose comparison is NULL counts as false (COALESCE), so `and` /
 * `or` combine plain booleans.
 */

export type FieldType = 'text' | 'number' | 'id' | 'date' | 'enum' | 'boolean';

export interface FieldSpec {
  type: FieldType;
  /** The field as SQL: a column or an expression over the query's tables. */
  expr: SQLWrapper;
  /** The allowed values of an `enum` field. */
  values?: readonly string[];
  /** Never NULL in its list (`withNeverNull`): ordered without `NULLS LAST`. */
  neverNull?: boolean;
}

/** Whitelist of one list: field name (as the client spells it) to its spec. */
export type FieldCatalog = Readonly<Record<string, FieldSpec>>;

export const OPERATORS_BY_TYPE: Readonly<Record<FieldType, readonly FilterOperator[]>> = {
  text: [
    'contains',
    'equals',
    'startsWith',
    'endsWith',
    '=',
    '!=',
    'isAnyOf',
    'isEmpty',
    'isNotEmpty',
  ],
  number: ['=', '!=', '>', '>=', '<', '<=', 'isAnyOf', 'isEmpty', 'isNotEmpty'],
  id: [
    '=',
    '!=',
    '>',
    '>=',
    '<',
    '<=',
    'equals',
    'contains',
    'startsWith',
    'endsWith',
    'isAnyOf',
    'isEmpty',
    'isNotEmpty',
  ],
  date: ['is', 'not', 'after', 'onOrAfter', 'before', 'onOrBefore', 'isEmpty', 'isNotEmpty'],
  enum: ['is', 'not', 'equals', '=', '!=', 'isAnyOf', 'isEmpty', 'isNotEmpty'],
  boolean: ['is', 'not', '=', '!=', 'isEmpty', 'isNotEmpty'],
};

/** `a%b_c\` -> `a\%b\_c\\`: the text matches itself under LIKE / ILIKE (escape character `\`). */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

const NUMBER_TEXT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const INTEGER_TEXT = /^[+-]?\d+$/;

class ItemError extends Error {}

function itemText(item: FilterItem): string {
  try {
    return serializeFilter([item]);
  } catch {
    return item.field;
  }
}

function filterError(message: string): AppError {
  return new AppError('VALIDATION_ERROR', `Invalid filter: ${message}`, { filter: message });
}

function valuesOf(item: FilterItem): string[] {
  if (item.value === undefined) return [];
  return Array.isArray(item.value) ? item.value : [item.value];
}

function toNumber(text: string): number {
  const n = NUMBER_TEXT.test(text) ? Number(text) : NaN;
  if (!Number.isFinite(n)) throw new ItemError(`'${text}' is not a number`);
  return n;
}

function toInteger(text: string): number {
  const n = INTEGER_TEXT.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n)) throw new ItemError(`'${text}' is not an integer`);
  return n;
}

function toBoolean(text: string): boolean {
  const lower = text.toLowerCase();
  if (lower === 'true') return true;
  if (lower === 'false') return false;
  throw new ItemError(`'${text}' is not true or false`);
}

function toEnum(text: string, spec: FieldSpec): string {
  const found = spec.values?.find((v) => v.toLowerCase() === text.toLowerCase());
  if (found === undefined) {
    throw new ItemError(`'${text}' is not one of ${(spec.values ?? []).join(', ')}`);
  }
  return found;
}

function toRange(text: string) {
  const range = parseInstantRange(text);
  if (!range) {
    throw new ItemError(`'${text}' is not an ISO 8601 date (YYYY-MM-DD) or date-time`);
  }
  return { from: sqlTimestamp(range.from), to: sqlTimestamp(range.to) };
}

const list = (parts: SQL[]) => sql.join(parts, sql`, `);

function isEmptySql(spec: FieldSpec): SQL {
  const e = spec.expr;
  return spec.type === 'text' || spec.type === 'enum'
    ? sql`(${e} IS NULL OR ${e} = '')`
    : sql`${e} IS NULL`;
}

/** One item as a boolean SQL expression (may be NULL; the caller COALESCEs). */
function itemSql(item: FilterItem, spec: FieldSpec): SQL {
  const e = spec.expr;
  const op = item.operator;
  if (op === 'isEmpty') return isEmptySql(spec);
  if (op === 'isNotEmpty') return sql`NOT ${isEmptySql(spec)}`;
  const values = valuesOf(item);
  const one = values[0] ?? '';

  switch (spec.type) {
    case 'text':
      return textSql(e, op, one, values);
    case 'number': {
      if (op === 'isAnyOf') {
        return sql`${e} IN (${list(values.map((v) => sql`${toNumber(v)}::double precision`))})`;
      }
      return compareSql(e, op, sql`${toNumber(one)}::double precision`);
    }
    case 'id': {
      if (op === 'contains' || op === 'startsWith' || op === 'endsWith') {
        return textSql(sql`(${e})::text`, op, one, values);
      }
      if (op === 'isAnyOf') {
        return sql`${e} IN (${list(values.map((v) => sql`${toInteger(v)}::bigint`))})`;
      }
      return compareSql(e, op === 'equals' ? '=' : op, sql`${toInteger(one)}::bigint`);
    }
    case 'date': {
      const { from, to } = toRange(one);
      const lo = sql`${from}::timestamptz`;
      const hi = sql`${to}::timestamptz`;
      switch (op) {
        case 'is':
          return sql`(${e} >= ${lo} AND ${e} < ${hi})`;
        case 'not':
          return sql`NOT COALESCE(${e} >= ${lo} AND ${e} < ${hi}, false)`;
        case 'after':
          return sql`${e} >= ${hi}`;
        case 'onOrAfter':
          return sql`${e} >= ${lo}`;
        case 'before':
          return sql`${e} < ${lo}`;
        case 'onOrBefore':
          return sql`${e} < ${hi}`;
        default:
          break;
      }
      break;
    }
    case 'enum': {
      if (op === 'isAnyOf') {
        return sql`${e} IN (${list(values.map((v) => sql`${toEnum(v, spec)}`))})`;
      }
      const value = toEnum(one, spec);
      return op === 'not' || op === '!='
        ? sql`${e} IS DISTINCT FROM ${value}`
        : sql`${e} = ${value}`;
    }
    case 'boolean': {
      const value = toBoolean(one);
      return op === 'not' || op === '!='
        ? sql`${e} IS DISTINCT FROM ${value}::boolean`
        : sql`${e} = ${value}::boolean`;
    }
  }
  throw new ItemError(`operator '${op}' is not supported`);
}

function textSql(e: SQLWrapper, op: FilterOperator, one: string, values: string[]): SQL {
  switch (op) {
    case 'contains':
      return sql`${e} ILIKE ${`%${escapeLike(one)}%`}`;
    case 'startsWith':
      return sql`${e} ILIKE ${`${escapeLike(one)}%`}`;
    case 'endsWith':
      return sql`${e} ILIKE ${`%${escapeLike(one)}`}`;
    case 'equals':
    case '=':
      return sql`lower(${e}) = lower(${one})`;
    case '!=':
      return sql`lower(${e}) IS DISTINCT FROM lower(${one})`;
    case 'isAnyOf':
      return sql`lower(${e}) IN (${list(values.map((v) => sql`lower(${v})`))})`;
    default:
      throw new ItemError(`operator '${op}' is not supported`);
  }
}

function compareSql(e: SQLWrapper, op: FilterOperator, value: SQL): SQL {
  switch (op) {
    case '=':
      return sql`${e} = ${value}`;
    case '!=':
      return sql`${e} IS DISTINCT FROM ${value}`;
    case '>':
      return sql`${e} > ${value}`;
    case '>=':
      return sql`${e} >= ${value}`;
    case '<':
      return sql`${e} < ${value}`;
    case '<=':
      return sql`${e} <= ${value}`;
    default:
      throw new ItemError(`operator '${op}' is not supported`);
  }
}

/** Checks one parsed item against the catalog and compiles it; throws `ItemError`. */
export function compileFilterItem(item: FilterItem, catalog: FieldCatalog): SQL {
  const spec = Object.hasOwn(catalog, item.field) ? catalog[item.field] : undefined;
  if (!spec) {
    throw new ItemError(
      `unknown field '${item.field}' (fields: ${Object.keys(catalog).join(', ')})`,
    );
  }
  const allowed = OPERATORS_BY_TYPE[spec.type];
  if (!allowed.includes(item.operator)) {
    throw new ItemError(
      `operator '${item.operator}' does not apply to the ${spec.type} field '${item.field}' (operators: ${allowed.join(' ')})`,
    );
  }
  return sql`COALESCE(${itemSql(item, spec)}, false)`;
}

/**
 * The WHERE condition of a filter text, or undefined when it has no item.
 * Throws a 400 `VALIDATION_ERROR` whose `fields.filter` names the item at fault.
 */
export function compileFilter(text: string | undefined, catalog: FieldCatalog): SQL | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  let parsed;
  try {
    parsed = parseFilter(text);
  } catch (error) {
    if (error instanceof FilterSyntaxError) throw filterError(error.message);
    throw error;
  }
  const parts = parsed.items.map((item) => {
    try {
      return compileFilterItem(item, catalog);
    } catch (error) {
      if (error instanceof ItemError) {
        throw filterError(`Invalid filter item '${itemText(item)}': ${error.message}`);
      }
      throw error;
    }
  });
  if (parts.length === 0) return undefined;
  return sql`(${sql.join(parts, parsed.logic === 'and' ? sql` AND ` : sql` OR `)})`;
}

/**
 * The `order_by` entries as parsed, or `fallback`'s when none is given.
 * Throws a 400 `VALIDATION_ERROR` whose `fields.order_by` names the entry at fault.
 */
function orderItems(entries: readonly string[] | undefined, fallback: readonly string[]) {
  try {
    const items = parseOrderBy(entries && entries.length > 0 ? entries : fallback);
    return items.length === 0 ? parseOrderBy(fallback) : items;
  } catch (error) {
    if (error instanceof FilterSyntaxError) {
      throw new AppError('VALIDATION_ERROR', `Invalid order_by: ${error.message}`, {
        order_by: error.message,
      });
    }
    throw error;
  }
}

/**
 * The catalog with each field that is never NULL in its list marked so: a
 * NOT NULL column of the list's own table `base` (a left-joined table's
 * columns may be NULL whatever their schema says; an expression may be NULL).
 */
export function withNeverNull(catalog: Record<string, FieldSpec>, base: Table): FieldCatalog {
  return Object.fromEntries(
    Object.entries(catalog).map(([name, spec]) => [
      name,
      is(spec.expr, Column) && spec.expr.notNull && spec.expr.table === base
        ? { ...spec, neverNull: true }
        : spec,
    ]),
  );
}

/**
 * ORDER BY terms for `order_by` entries (`-field` descending), or for
 * `fallback` when none is given; empty values sort last either way. A field
 * marked `neverNull` is ordered without `NULLS LAST`: the same order, and a
 * btree index on the column serves it in both directions (`DESC NULLS LAST`
 * does not match an ascending index read backwards, so PostgreSQL sorted the
 * whole organization for it: list-performance.md, "Never-null orders"). Throws a
 * 400 `VALIDATION_ERROR` whose `fields.order_by` names the entry at fault.
 */
export function compileOrderBy(
  entries: readonly string[] | undefined,
  catalog: FieldCatalog,
  fallback: readonly string[],
): SQL[] {
  return orderTerms(entries, catalog, fallback);
}

function orderTerms(
  entries: readonly string[] | undefined,
  catalog: FieldCatalog,
  fallback: readonly string[],
): SQL[] {
  return orderItems(entries, fallback).map(({ field, sort }) => {
    const spec = Object.hasOwn(catalog, field) ? catalog[field] : undefined;
    if (!spec) {
      const message = `Invalid order-by entry '${sort === 'desc' ? '-' : ''}${field}': unknown field '${field}' (fields: ${Object.keys(catalog).join(', ')})`;
      throw new AppError('VALIDATION_ERROR', `Invalid order_by: ${message}`, {
        order_by: message,
      });
    }
    const nulls = spec.neverNull ? sql`` : sql` NULLS LAST`;
    return sort === 'desc' ? sql`${spec.expr} DESC${nulls}` : sql`${spec.expr} ASC${nulls}`;
  });
}

/** `order_by` asks for `fallback`'s order (none given, or the same terms), as compileOrderBy reads it. */
export function isFallbackOrder(
  entries: readonly string[] | undefined,
  fallback: readonly string[],
): boolean {
  // None given: the fallback's order (the common case, without parsing).
  if (entries === undefined || entries.length === 0) return true;
  const key = (items: { field: string; sort: string }[]) =>
    items.map((i) => `${i.sort} ${i.field}`).join();
  return key(orderItems(entries, fallback)) === key(orderItems(fallback, fallback));
}
