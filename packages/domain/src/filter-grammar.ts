/**
 * The table filter grammar (spec sections 5 and 9, domain rules section 9).
 *
 * A filter is items joined by one logic: `^` for and, `|` for or (default or).
 * An item is `field__operator=value`:
 * - `field` is an identifier: letters, digits, `_` and `.`, not starting with a
 *   digit or `.` (`primary_reference`, `shipper_name_address.name`); it may
 *   contain `__` itself, the operator being the part after the last `__`.
 * - `operator` is its spec name, the symbolic ones spelled `=` eq, `!=` ne,
 *   `>` gt, `>=` gte, `<` lt, `<=` lte.
 * - In values `\` escapes `^`, `|`, `=`, `,` and `\`. Writing always escapes
 *   all five. Reading rejects any other escape, a trailing `\` and an
 *   unescaped `=`; it accepts an unescaped `,` in a single value.
 * - `isAnyOf` takes a comma-separated list; `isEmpty` and `isNotEmpty` take no
 *   value (`field__isEmpty=`).
 *
 * Values are trimmed, and an item with nothing left to compare with is left
 * out: an empty value, or an `isAnyOf` whose list is empty once its elements
 * are trimmed and the empty ones dropped. A list given to a single-value
 * operator is also left out; a single string given to `isAnyOf` is a list of
 * one. Reading applies the same rules, so `parseFilter(serializeFilter(x))` is
 * `x` normalized.
 *
 * Errors: `parseFilter` throws `FilterSyntaxError` naming the bad item (unknown
 * operator, missing `__` or `=`, bad field, bad escape, value on a valueless
 * operator, empty item, `^` mixed with `|`). `serializeFilter` throws it only
 * for a field name that cannot be written, which is a programming error.
 */

export const FILTER_OPERATORS = [
  'contains',
  'equals',
  'startsWith',
  'endsWith',
  '=',
  '!=',
  '>',
  '>=',
  '<',
  '<=',
  'is',
  'not',
  'after',
  'onOrAfter',
  'before',
  'onOrBefore',
  'isAnyOf',
  'isEmpty',
  'isNotEmpty',
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

export const FILTER_LOGICS = ['and', 'or'] as const;
export type FilterLogic = (typeof FILTER_LOGICS)[number];
export const DEFAULT_FILTER_LOGIC: FilterLogic = 'or';

export interface FilterItem {
  field: string;
  operator: FilterOperator;
  /** A list for `isAnyOf`, absent for `isEmpty` / `isNotEmpty`, else one string. */
  value?: string | string[];
}

export interface Filter {
  items: FilterItem[];
  logic: FilterLogic;
}

export class FilterSyntaxError extends Error {
  override readonly name = 'FilterSyntaxError';
  /** The item (or order-by entry) at fault, as written. */
  readonly item: string;

  constructor(item: string, reason: string, kind = 'filter item') {
    super(`Invalid ${kind} '${item}': ${reason}`);
    this.item = item;
  }
}

const WIRE_NAMES: Readonly<Record<FilterOperator, string>> = {
  contains: 'contains',
  equals: 'equals',
  startsWith: 'startsWith',
  endsWith: 'endsWith',
  '=': 'eq',
  '!=': 'ne',
  '>': 'gt',
  '>=': 'gte',
  '<': 'lt',
  '<=': 'lte',
  is: 'is',
  not: 'not',
  after: 'after',
  onOrAfter: 'onOrAfter',
  before: 'before',
  onOrBefore: 'onOrBefore',
  isAnyOf: 'isAnyOf',
  isEmpty: 'isEmpty',
  isNotEmpty: 'isNotEmpty',
};

const OPERATOR_BY_WIRE_NAME: ReadonlyMap<string, FilterOperator> = new Map(
  FILTER_OPERATORS.map((operator) => [WIRE_NAMES[operator], operator]),
);

/** `>=` -> `gte`; word operators are spelled as they are. */
export function operatorWireName(operator: FilterOperator): string {
  return WIRE_NAMES[operator];
}

/** `gte` -> `>=`; undefined for a name the grammar does not know. */
export function operatorFromWireName(name: string): FilterOperator | undefined {
  return OPERATOR_BY_WIRE_NAME.get(name);
}

export function isFilterOperator(value: unknown): value is FilterOperator {
  return typeof value === 'string' && (FILTER_OPERATORS as readonly string[]).includes(value);
}

export function takesNoValue(operator: FilterOperator): boolean {
  return operator === 'isEmpty' || operator === 'isNotEmpty';
}

export function takesValueList(operator: FilterOperator): boolean {
  return operator === 'isAnyOf';
}

const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_.]*$/;

/** Whether a name can be a filter or order-by field. */
export function isFilterField(name: string): boolean {
  return FIELD_NAME.test(name);
}

const LOGIC_SEPARATOR: Readonly<Record<FilterLogic, string>> = { and: '^', or: '|' };
const SPECIAL_CHARACTERS = /[\\^|=,]/g;

/** `a^b` -> `a\^b`; escapes `^`, `|`, `=`, `,` and `\`. */
export function escapeFilterValue(value: string): string {
  return value.replace(SPECIAL_CHARACTERS, (character) => `\\${character}`);
}

/** The item as it will be written, or null when it is left out. */
export function normalizeFilterItem(item: FilterItem): FilterItem | null {
  const { field, operator, value } = item;
  if (takesNoValue(operator)) return { field, operator };
  if (takesValueList(operator)) {
    const list = (Array.isArray(value) ? value : [value ?? ''])
      .map((element) => element.trim())
      .filter((element) => element !== '');
    return list.length === 0 ? null : { field, operator, value: list };
  }
  if (typeof value !== 'string' || value.trim() === '') return null;
  return { field, operator, value: value.trim() };
}

/** The wire filter, e.g. `primary_reference__contains=ACME^high_threshold__gte=8` (and). */
export function serializeFilter(
  items: readonly FilterItem[],
  logic: FilterLogic = DEFAULT_FILTER_LOGIC,
): string {
  return items
    .map(normalizeFilterItem)
    .filter((item) => item !== null)
    .map(serializeFilterItem)
    .join(LOGIC_SEPARATOR[logic]);
}

function serializeFilterItem({ field, operator, value }: FilterItem): string {
  if (!isFilterField(field)) throw new FilterSyntaxError(field, 'invalid field name');
  const values = value === undefined ? [] : Array.isArray(value) ? value : [value];
  return `${field}__${operatorWireName(operator)}=${values.map(escapeFilterValue).join(',')}`;
}

/** The inverse of `serializeFilter`; throws `FilterSyntaxError`. */
export function parseFilter(text: string): Filter {
  const { segments, logic } = splitItems(text.trim());
  const items = segments
    .map((segment, index) => parseFilterItem(segment, index + 1))
    .filter((item) => item !== null);
  return { items, logic };
}

interface SplitFilter {
  segments: string[];
  logic: FilterLogic;
}

/** Splits at unescaped `^` / `|`, keeping escapes in the segments. */
function splitItems(text: string): SplitFilter {
  if (text === '') return { segments: [], logic: DEFAULT_FILTER_LOGIC };
  const segments: string[] = [];
  let logic: FilterLogic | null = null;
  let current = '';
  for (let index = 0; index < text.length; index += 1) {
    const character = text.charAt(index);
    if (character === '\\') {
      current += text.slice(index, index + 2);
      index += 1;
    } else if (character === '^' || character === '|') {
      const separatorLogic: FilterLogic = character === '^' ? 'and' : 'or';
      if (logic !== null && logic !== separatorLogic) {
        throw new FilterSyntaxError(restOfItem(text, index + 1), MIXED_LOGIC);
      }
      logic = separatorLogic;
      segments.push(current);
      current = '';
    } else {
      current += character;
    }
  }
  segments.push(current);
  return { segments, logic: logic ?? DEFAULT_FILTER_LOGIC };
}

const MIXED_LOGIC = "a filter joins all its items with '^' (and) or all with '|' (or), not both";

/** The raw item that starts at `start`, for error messages. */
function restOfItem(text: string, start: number): string {
  return /^(?:\\[\s\S]|[^^|\\])*/.exec(text.slice(start))?.[0] ?? '';
}

function parseFilterItem(raw: string, position: number): FilterItem | null {
  const item = raw.trim();
  if (item === '') {
    throw new FilterSyntaxError(
      raw,
      `item ${position} is empty (a separator at an end or doubled)`,
    );
  }
  const equals = indexOfUnescaped(item, '=');
  if (equals < 0) throw new FilterSyntaxError(item, "missing '=' after the operator");
  const key = item.slice(0, equals).trim();
  const split = key.lastIndexOf('__');
  if (split < 0) throw new FilterSyntaxError(item, "missing '__' between field and operator");
  const field = key.slice(0, split);
  const wireName = key.slice(split + 2);
  if (!isFilterField(field)) throw new FilterSyntaxError(item, `invalid field name '${field}'`);
  const operator = operatorFromWireName(wireName);
  if (operator === undefined) throw new FilterSyntaxError(item, `unknown operator '${wireName}'`);
  return readValue(item, field, operator, item.slice(equals + 1));
}

function readValue(
  item: string,
  field: string,
  operator: FilterOperator,
  rawValue: string,
): FilterItem | null {
  if (takesNoValue(operator)) {
    if (rawValue.trim() !== '') throw new FilterSyntaxError(item, `'${operator}' takes no value`);
    return { field, operator };
  }
  if (takesValueList(operator)) {
    const list = splitUnescaped(rawValue, ',').map((element) => unescapeValue(item, element));
    return normalizeFilterItem({ field, operator, value: list });
  }
  return normalizeFilterItem({ field, operator, value: unescapeValue(item, rawValue) });
}

function indexOfUnescaped(text: string, target: string): number {
  for (let index = 0; index < text.length; index += 1) {
    const character = text.charAt(index);
    if (character === '\\') index += 1;
    else if (character === target) return index;
  }
  return -1;
}

function splitUnescaped(text: string, separator: string): string[] {
  const parts: string[] = [];
  let rest = text;
  for (let index = indexOfUnescaped(rest, separator); index >= 0;) {
    parts.push(rest.slice(0, index));
    rest = rest.slice(index + 1);
    index = indexOfUnescaped(rest, separator);
  }
  parts.push(rest);
  return parts;
}

const ESCAPABLE = new Set(['\\', '^', '|', '=', ',']);

function unescapeValue(item: string, raw: string): string {
  let value = '';
  for (let index = 0; index < raw.length; index += 1) {
    const character = raw.charAt(index);
    if (character === '=') throw new FilterSyntaxError(item, "unescaped '=' in the value");
    if (character !== '\\') {
      value += character;
      continue;
    }
    const escaped = raw.charAt(index + 1);
    if (!ESCAPABLE.has(escaped)) {
      const reason = escaped === '' ? "value ends with '\\'" : `invalid escape '\\${escaped}'`;
      throw new FilterSyntaxError(item, reason);
    }
    value += escaped;
    index += 1;
  }
  return value;
}

const ORDER_BY_ENTRY = 'order-by entry';
const INVALID_FIELD = 'not a field name';

export type SortDirection = 'asc' | 'desc';

export interface OrderByItem {
  field: string;
  sort: SortDirection;
}

/** `[{last_action_taken desc}, {id asc}]` -> `['-last_action_taken', 'id']` (domain rules section 9). */
export function serializeOrderBy(items: readonly OrderByItem[]): string[] {
  return items.map(({ field, sort }) => {
    if (!isFilterField(field)) throw new FilterSyntaxError(field, INVALID_FIELD, ORDER_BY_ENTRY);
    return sort === 'desc' ? `-${field}` : field;
  });
}

/**
 * `['-last_action_taken', 'id']` -> items. Each entry may also hold several
 * names separated by commas; blank entries are skipped. Throws
 * `FilterSyntaxError` naming an entry that is not a field name.
 */
export function parseOrderBy(entries: string | readonly string[]): OrderByItem[] {
  const names = (typeof entries === 'string' ? [entries] : entries)
    .flatMap((entry) => entry.split(','))
    .map((name) => name.trim())
    .filter((name) => name !== '');
  return names.map((name) => {
    const descending = name.startsWith('-');
    const field = descending ? name.slice(1) : name;
    if (!isFilterField(field)) throw new FilterSyntaxError(name, INVALID_FIELD, ORDER_BY_ENTRY);
    return { field, sort: descending ? 'desc' : 'asc' };
  });
}
