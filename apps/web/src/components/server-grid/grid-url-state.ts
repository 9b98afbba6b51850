import {
  TABLE_STATE_PARAMS,
  isFilterOperator,
  searchParamsToTableState,
  tableStateToSearchParams,
  type FilterItem,
  type OrderByItem,
  type SearchParamsReader,
  type TableState,
} from '@coldtrace/domain';
import type { GridFilterItemLike, GridFilterModelLike, GridSortItemLike } from './grid-filter';
import { filterLogicOf } from './grid-filter';

/**
 * The state of a server-mode grid in the URL (spec section 2, "Tabular
 * views"): `filterItems` (repeated JSON `{field, operator, value}`),
 * `filterLogicOperator` (`and` or `or`, default `or`), `orderBy` (repeated
 * JSON `{field, sort}`), `pageNumber` (0-based, at least 0) and `pageSize`
 * (at least 1). The domain's `tableStateToSearchParams` /
 * `searchParamsToTableState` write and read it; this module converts between
 * that and the grid's models, and leaves the URL's other parameters alone.
 */

export interface GridViewState {
  filterModel: GridFilterModelLike & { logicOperator: 'and' | 'or' };
  /** Every orderBy entry of the URL (the community grid shows the first). */
  orderBy: OrderByItem[];
  /** 0-based. */
  pageNumber: number;
  pageSize: number;
}

/** Reads the URL; filter items get their position as id. */
export function readGridViewState(
  params: SearchParamsReader,
  defaultPageSize: number,
): GridViewState {
  const table = searchParamsToTableState(params, defaultPageSize);
  return {
    filterModel: {
      items: table.filterItems.map((item, index) => ({ id: index, ...item })),
      logicOperator: table.filterLogicOperator,
    },
    orderBy: table.orderBy,
    pageNumber: table.pageNumber,
    pageSize: table.pageSize,
  };
}

/** A grid filter item as the URL holds it (half-typed values included). */
function toTableItem(item: GridFilterItemLike): FilterItem | null {
  if (!isFilterOperator(item.operator)) return null;
  const { field, operator, value } = item;
  if (value === undefined || value === null) return { field, operator };
  if (Array.isArray(value)) {
    return { field, operator, value: (value as unknown[]).map((entry) => String(entry)) };
  }
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    return { field, operator, value: String(value) };
  }
  return { field, operator };
}

function toTableState(state: GridViewState): TableState {
  return {
    filterItems: state.filterModel.items.map(toTableItem).filter((item) => item !== null),
    filterLogicOperator: filterLogicOf(state.filterModel),
    orderBy: state.orderBy,
    pageNumber: state.pageNumber,
    pageSize: state.pageSize,
  };
}

const TABLE_PARAM_NAMES: readonly string[] = Object.values(TABLE_STATE_PARAMS);

/** The URL parameters for the state: the table's replaced, every other one kept. */
export function writeGridViewState(
  current: URLSearchParams,
  state: GridViewState,
): URLSearchParams {
  const next = new URLSearchParams();
  for (const [key, value] of current) {
    if (!TABLE_PARAM_NAMES.includes(key)) next.append(key, value);
  }
  for (const [key, value] of tableStateToSearchParams(toTableState(state))) {
    next.append(key, value);
  }
  return next;
}

/** A text that changes exactly when the URL form of the filter changes. */
export function filterKey(filterModel: GridFilterModelLike): string {
  return tableStateToSearchParams({
    filterItems: filterModel.items.map(toTableItem).filter((item) => item !== null),
    filterLogicOperator: filterLogicOf(filterModel),
    orderBy: [],
    pageNumber: 0,
    pageSize: 1,
  })
    .filter(([key]) => key !== TABLE_STATE_PARAMS.pageSize)
    .map(([key, value]) => `${key}=${value}`)
    .join('&');
}

/** The grid's sort model: the first orderBy entry (the community grid sorts by one column). */
export function orderByToSortModel(orderBy: readonly OrderByItem[]): GridSortItemLike[] {
  return orderBy.slice(0, 1).map(({ field, sort }) => ({ field, sort }));
}

/** The grid's new sort model as orderBy entries. */
export function sortModelToOrderByItems(sortModel: readonly GridSortItemLike[]): OrderByItem[] {
  return sortModel
    .filter((item): item is OrderByItem => item.sort === 'asc' || item.sort === 'desc')
    .map(({ field, sort }) => ({ field, sort }));
}

/** Page sizes offered: the standard ones, plus the URL's when it is another. */
export function pageSizeOptions(standard: readonly number[], current: number): number[] {
  return standard.includes(current) ? [...standard] : [...standard, current].sort((a, b) => a - b);
}

/** A link to a grid view: `path?filterItems=...&pageSize=...`. */
export function gridViewHref(path: string, state: GridViewState): string {
  const search = writeGridViewState(new URLSearchParams(), state).toString();
  return search ? `${path}?${search}` : path;
}
