import {
  DEFAULT_FILTER_LOGIC,
  isFilterField,
  isFilterOperator,
  type FilterItem,
  type FilterLogic,
  type OrderByItem,
} from './filter-grammar';

/**
 * URL state of the tabular views (spec section 2, "Tabular views"):
 * - `filterItems`, repeated, each a JSON object `{field, operator, value}`;
 * - `filterLogicOperator`, `and` or `or`, default `or`;
 * - `orderBy`, repeated, each a JSON object `{field, sort}`;
 * - `pageNumber`, an integer of at least 0, default 0;
 * - `pageSize`, an integer of at least 1, default given by the view.
 *
 * Writing leaves out the defaults that need no view knowledge (`or`, page 0)
 * and keeps filter items exactly as the grid holds them, half-typed ones
 * included: trimming and dropping empty items is the filter grammar's job when
 * the request is built. Reading is forgiving, because people edit URLs: an
 * entry that is not valid JSON of the right shape is skipped, an unknown logic
 * is `or`, and a page number or size that is not a number takes the default
 * while one out of range is clamped (fractions truncated).
 *
 * The domain package has neither DOM nor Node typings, so the reader is the
 * structural part of `URLSearchParams` it needs and the writer returns entries:
 * `new URLSearchParams(tableStateToSearchParams(state))`.
 */

export interface TableState {
  filterItems: FilterItem[];
  filterLogicOperator: FilterLogic;
  orderBy: OrderByItem[];
  pageNumber: number;
  pageSize: number;
}

export const TABLE_STATE_PARAMS = {
  filterItems: 'filterItems',
  filterLogicOperator: 'filterLogicOperator',
  orderBy: 'orderBy',
  pageNumber: 'pageNumber',
  pageSize: 'pageSize',
} as const;

/** The part of `URLSearchParams` that `searchParamsToTableState` reads. */
export interface SearchParamsReader {
  get(name: string): string | null;
  getAll(name: string): string[];
}

/** Search-parameter entries for the state, in a stable order. */
export function tableStateToSearchParams(state: TableState): [string, string][] {
  const entries: [string, string][] = [];
  for (const item of state.filterItems) {
    entries.push([TABLE_STATE_PARAMS.filterItems, filterItemJson(item)]);
  }
  if (state.filterLogicOperator !== DEFAULT_FILTER_LOGIC) {
    entries.push([TABLE_STATE_PARAMS.filterLogicOperator, state.filterLogicOperator]);
  }
  for (const { field, sort } of state.orderBy) {
    entries.push([TABLE_STATE_PARAMS.orderBy, JSON.stringify({ field, sort })]);
  }
  const pageNumber = clampPageNumber(state.pageNumber, 0);
  if (pageNumber !== 0) entries.push([TABLE_STATE_PARAMS.pageNumber, String(pageNumber)]);
  entries.push([TABLE_STATE_PARAMS.pageSize, String(clampPageSize(state.pageSize, 1))]);
  return entries;
}

function filterItemJson({ field, operator, value }: FilterItem): string {
  return JSON.stringify(value === undefined ? { field, operator } : { field, operator, value });
}

/** The state the URL holds; `defaultPageSize` when the URL gives none. */
export function searchParamsToTableState(
  params: SearchParamsReader,
  defaultPageSize: number,
): TableState {
  return {
    filterItems: params
      .getAll(TABLE_STATE_PARAMS.filterItems)
      .map(readFilterItem)
      .filter((item) => item !== null),
    filterLogicOperator:
      params.get(TABLE_STATE_PARAMS.filterLogicOperator) === 'and' ? 'and' : 'or',
    orderBy: params
      .getAll(TABLE_STATE_PARAMS.orderBy)
      .map(readOrderByItem)
      .filter((item) => item !== null),
    pageNumber: clampPageNumber(readInteger(params.get(TABLE_STATE_PARAMS.pageNumber)), 0),
    pageSize: clampPageSize(
      readInteger(params.get(TABLE_STATE_PARAMS.pageSize)),
      clampPageSize(defaultPageSize, 1),
    ),
  };
}

/** An integer of at least 0; `fallback` when `value` is not a number. */
export function clampPageNumber(value: number | null, fallback: number): number {
  return clampInteger(value, 0, fallback);
}

/** An integer of at least 1; `fallback` when `value` is not a number. */
export function clampPageSize(value: number | null, fallback: number): number {
  return clampInteger(value, 1, fallback);
}

function clampInteger(value: number | null, minimum: number, fallback: number): number {
  if (value === null || !Number.isFinite(value)) return fallback;
  return Math.min(Math.max(Math.trunc(value), minimum), Number.MAX_SAFE_INTEGER);
}

function readInteger(text: string | null): number | null {
  if (text === null || text.trim() === '') return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

function parseJsonObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

function readFilterItem(text: string): FilterItem | null {
  const json = parseJsonObject(text);
  if (json === null) return null;
  const { field, operator, value } = json;
  if (typeof field !== 'string' || !isFilterField(field) || !isFilterOperator(operator)) {
    return null;
  }
  if (value === undefined || value === null) return { field, operator };
  const read = readFilterValue(value);
  return read === null ? null : { field, operator, value: read };
}

/** Strings as they are; numbers and booleans as text (grids hold numeric values too). */
function readFilterValue(value: unknown): string | string[] | null {
  if (Array.isArray(value)) {
    const list = value.map(readScalar);
    return list.every((element) => element !== null) ? (list as string[]) : null;
  }
  return readScalar(value);
}

function readScalar(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return String(value);
  return null;
}

function readOrderByItem(text: string): OrderByItem | null {
  const json = parseJsonObject(text);
  if (json === null) return null;
  const { field, sort } = json;
  if (typeof field !== 'string' || !isFilterField(field)) return null;
  return sort === 'asc' || sort === 'desc' ? { field, sort } : null;
}
