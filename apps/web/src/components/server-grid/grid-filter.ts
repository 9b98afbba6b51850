import type { TDegreesUnit } from '@coldtrace/contract';
import {
  DEFAULT_FILTER_LOGIC,
  fromDisplayUnit,
  serializeFilter,
  serializeOrderBy,
  type FilterItem,
  type FilterLogic,
  type FilterOperator,
  type OrderByItem,
} from '@coldtrace/domain';
import { zonedDayBounds } from './zoned-day';

/**
 * The filter model of a server-mode grid and its mapping to the API's
 * `filter` and `order_by` parameters (docs/decisions/record-queries.md).
 *
 * The model has the shape of MUI X's `GridFilterModel` (items of field,
 * operator and value, and a logic operator), and its operator names are
 * MUI's, which are also the grammar's: contains, equals, startsWith,
 * endsWith, isEmpty, isNotEmpty, isAnyOf, =, !=, >, >=, <, <=, is, not,
 * after, onOrAfter, before, onOrBefore. Each field offers only the operators
 * the server accepts for its type; an item the server would refuse (an
 * unknown field or operator, a value that is not a number where one is
 * needed) is left out of the request rather than failing it, and the filter
 * editor says what is wrong with it.
 *
 * Values are what the user typed, in the user's terms:
 * - temperatures in the user's unit, converted to °C (2 decimals);
 * - dates as calendar days (`YYYY-MM-DD`) in the user's time zone, sent as
 *   the first or last minute of that day with the zone's offset (`after` a
 *   day is after its last minute, `onOrAfter` from its first minute...).
 *   `is` a day is "from its first to its last minute" and `not` a day is
 *   "before its first or after its last minute": two items, joined by `and`
 *   and `or`; when the rest of the filter is joined the other way, the day is
 *   sent as a date, which the server reads as the UTC day.
 */

export type FilterFieldType =
  'text' | 'id' | 'number' | 'temperature' | 'date' | 'enum' | 'boolean';

export interface FilterOption {
  value: string;
  label: string;
}

/** A filterable column: its field (the API's name), label and type. */
export interface FilterFieldSpec {
  field: string;
  label: string;
  type: FilterFieldType;
  /** The values of an enum or boolean field. */
  options?: readonly FilterOption[];
}

export interface GridFilterItemLike {
  id?: number | string;
  field: string;
  operator: string;
  value?: unknown;
}

/** `GridFilterModel` of MUI X, as far as the server-mode grids use it. */
export interface GridFilterModelLike {
  items: GridFilterItemLike[];
  logicOperator?: string;
}

export interface GridSortItemLike {
  field: string;
  sort: 'asc' | 'desc' | null | undefined;
}

/** What a value means to the person who typed it. */
export interface FilterContext {
  unit: TDegreesUnit;
  timeZone: string;
}

interface OperatorInfo {
  label: string;
  /** isEmpty, isNotEmpty. */
  noValue?: boolean;
  /** isAnyOf. */
  list?: boolean;
}

/** Every operator the grids offer, labelled as MUI X labels them. */
export const GRID_OPERATORS: Readonly<Record<FilterOperator, OperatorInfo>> = {
  contains: { label: 'contains' },
  equals: { label: 'equals' },
  startsWith: { label: 'starts with' },
  endsWith: { label: 'ends with' },
  '=': { label: '=' },
  '!=': { label: '!=' },
  '>': { label: '>' },
  '>=': { label: '>=' },
  '<': { label: '<' },
  '<=': { label: '<=' },
  is: { label: 'is' },
  not: { label: 'is not' },
  after: { label: 'is after' },
  onOrAfter: { label: 'is on or after' },
  before: { label: 'is before' },
  onOrBefore: { label: 'is on or before' },
  isAnyOf: { label: 'is any of', list: true },
  isEmpty: { label: 'is empty', noValue: true },
  isNotEmpty: { label: 'is not empty', noValue: true },
};

/**
 * The operators of each type, as the server accepts them (record-queries.md,
 * "Operators per type"), in the order the editor offers them.
 */
export const OPERATORS_BY_TYPE: Readonly<Record<FilterFieldType, readonly FilterOperator[]>> = {
  text: ['contains', 'equals', '!=', 'startsWith', 'endsWith', 'isAnyOf', 'isEmpty', 'isNotEmpty'],
  id: ['=', '!=', '>', '>=', '<', '<=', 'isAnyOf', 'contains', 'startsWith', 'endsWith'],
  number: ['=', '!=', '>', '>=', '<', '<=', 'isAnyOf', 'isEmpty', 'isNotEmpty'],
  temperature: ['=', '!=', '>', '>=', '<', '<=', 'isAnyOf', 'isEmpty', 'isNotEmpty'],
  date: ['is', 'not', 'after', 'onOrAfter', 'before', 'onOrBefore', 'isEmpty', 'isNotEmpty'],
  enum: ['is', 'not', 'isAnyOf', 'isEmpty', 'isNotEmpty'],
  boolean: ['is'],
};

/** The label of an operator for a type (`!=` on text reads "does not equal"). */
export function operatorLabel(type: FilterFieldType, operator: FilterOperator): string {
  if (type === 'text' && operator === '!=') return 'does not equal';
  return GRID_OPERATORS[operator].label;
}

export function operatorsFor(spec: FilterFieldSpec): readonly FilterOperator[] {
  return OPERATORS_BY_TYPE[spec.type];
}

export function isOperatorAllowed(
  spec: FilterFieldSpec,
  operator: string,
): operator is FilterOperator {
  return (operatorsFor(spec) as readonly string[]).includes(operator);
}

export function operatorTakesNoValue(operator: string): boolean {
  return operator === 'isEmpty' || operator === 'isNotEmpty';
}

export function operatorTakesList(operator: string): boolean {
  return operator === 'isAnyOf';
}

/** A decimal number as the server reads it: `8`, `-2.5`, `+8`, `.5`, `1e1`. */
const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const DIGITS = /^\d+$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The value's entries as trimmed text, empty ones dropped (a list for isAnyOf). */
export function valueEntries(value: unknown): string[] {
  const raw = Array.isArray(value)
    ? (value as unknown[])
    : typeof value === 'string' && value.includes(',')
      ? value.split(',')
      : [value];
  return raw
    .map((entry) =>
      typeof entry === 'string'
        ? entry.trim()
        : typeof entry === 'number' || typeof entry === 'boolean'
          ? String(entry)
          : '',
    )
    .filter((entry) => entry !== '');
}

function singleValue(value: unknown): string {
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return String(value);
  return '';
}

/** Why one entry cannot be sent, or null when it can. */
function entryProblem(spec: FilterFieldSpec, entry: string): string | null {
  switch (spec.type) {
    case 'number':
    case 'temperature':
      return NUMBER.test(entry) ? null : `'${entry}' is not a number`;
    case 'id':
      return DIGITS.test(entry) ? null : `'${entry}' is not a record id (digits only)`;
    case 'date':
      return DAY.test(entry) && zonedDayBounds(entry, 'UTC') !== null
        ? null
        : `'${entry}' is not a date`;
    case 'enum':
    case 'boolean': {
      const known = spec.options?.some((o) => o.value.toLowerCase() === entry.toLowerCase());
      return known ? null : `'${entry}' is not one of the choices`;
    }
    case 'text':
      return null;
  }
}

/**
 * What is wrong with an item, for the editor: null when it can be sent, or
 * when it is simply not filled in yet (an empty value is left out, as the
 * spec says).
 */
export function filterItemProblem(spec: FilterFieldSpec, item: GridFilterItemLike): string | null {
  if (!isOperatorAllowed(spec, item.operator)) {
    return `'${item.operator}' does not apply to ${spec.label}`;
  }
  if (operatorTakesNoValue(item.operator)) return null;
  const entries = operatorTakesList(item.operator)
    ? valueEntries(item.value)
    : [singleValue(item.value)].filter((entry) => entry !== '');
  for (const entry of entries) {
    const problem = entryProblem(spec, entry);
    if (problem !== null) return problem;
  }
  return null;
}

/** One entry as the server wants it. */
function apiValue(spec: FilterFieldSpec, entry: string, context: FilterContext): string {
  if (spec.type === 'temperature') return String(fromDisplayUnit(Number(entry), context.unit));
  return entry;
}

/** An item ready for the grammar, or several that must be joined with one logic. */
interface Clause {
  items: FilterItem[];
  /** How `items` are joined when there are several. */
  logic?: FilterLogic;
  /** A single item meaning nearly the same, for when `logic` cannot be kept. */
  fallback?: FilterItem;
}

function dateClause(field: string, operator: FilterOperator, day: string, zone: string): Clause {
  const bounds = zonedDayBounds(day, zone);
  if (bounds === null || bounds.utc) return { items: [{ field, operator, value: day }] };
  switch (operator) {
    case 'after':
      return { items: [{ field, operator, value: bounds.end }] };
    case 'onOrAfter':
      return { items: [{ field, operator, value: bounds.start }] };
    case 'before':
      return { items: [{ field, operator, value: bounds.start }] };
    case 'onOrBefore':
      return { items: [{ field, operator, value: bounds.end }] };
    case 'is':
      return {
        items: [
          { field, operator: 'onOrAfter', value: bounds.start },
          { field, operator: 'onOrBefore', value: bounds.end },
        ],
        logic: 'and',
        fallback: { field, operator, value: day },
      };
    default:
      // not
      return {
        items: [
          { field, operator: 'before', value: bounds.start },
          { field, operator: 'after', value: bounds.end },
        ],
        logic: 'or',
        fallback: { field, operator, value: day },
      };
  }
}

function clauseOf(
  spec: FilterFieldSpec,
  item: GridFilterItemLike,
  context: FilterContext,
): Clause | null {
  const operator = item.operator;
  if (!isOperatorAllowed(spec, operator) || filterItemProblem(spec, item) !== null) return null;
  const field = spec.field;
  if (operatorTakesNoValue(operator)) return { items: [{ field, operator }] };
  if (operatorTakesList(operator)) {
    const entries = valueEntries(item.value);
    if (entries.length === 0) return null;
    return { items: [{ field, operator, value: entries.map((e) => apiValue(spec, e, context)) }] };
  }
  const entry = singleValue(item.value);
  if (entry === '') return null;
  if (spec.type === 'date') return dateClause(field, operator, entry, context.timeZone);
  return { items: [{ field, operator, value: apiValue(spec, entry, context) }] };
}

export function filterLogicOf(model: GridFilterModelLike): FilterLogic {
  return String(model.logicOperator) === 'and' ? 'and' : DEFAULT_FILTER_LOGIC;
}

/**
 * The API's `filter` parameter for the model, or undefined when no item is
 * complete (the parameter is then left out).
 */
export function filterModelToApiFilter(
  model: GridFilterModelLike,
  specs: readonly FilterFieldSpec[],
  context: FilterContext,
): string | undefined {
  const byField = new Map(specs.map((spec) => [spec.field, spec]));
  const clauses = model.items
    .map((item) => {
      const spec = byField.get(item.field);
      return spec ? clauseOf(spec, item, context) : null;
    })
    .filter((clause) => clause !== null);
  if (clauses.length === 0) return undefined;

  const only = clauses.length === 1 ? clauses[0] : undefined;
  if (only?.logic !== undefined) return serializeFilter(only.items, only.logic) || undefined;

  const logic = filterLogicOf(model);
  const items = clauses.flatMap((clause) =>
    clause.items.length > 1 && clause.logic !== logic && clause.fallback
      ? [clause.fallback]
      : clause.items,
  );
  return serializeFilter(items, logic) || undefined;
}

/** The API's `order_by` for the grid's sort model (unsorted columns left out). */
export function sortModelToOrderBy(sortModel: readonly GridSortItemLike[]): string[] {
  const items: OrderByItem[] = sortModel
    .filter((item): item is OrderByItem => item.sort === 'asc' || item.sort === 'desc')
    .map(({ field, sort }) => ({ field, sort }));
  return serializeOrderBy(items);
}
