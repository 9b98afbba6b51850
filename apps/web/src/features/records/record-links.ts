import {
  DEFAULT_FILTER_LOGIC,
  tableStateToSearchParams,
  type FilterItem,
  type FilterLogic,
  type OrderByItem,
} from '@coldtrace/domain';

/** Where the record screens live (spec section 2). */
export const ALL_RECORDS_PATH = '/allrecords';
export const ALL_DEVICES_PATH = '/alldevices';
/** Rows per page of the grids when the URL gives no size (spec section 9's list size). */
export const GRID_DEFAULT_PAGE_SIZE = 20;
export const GRID_PAGE_SIZES: readonly number[] = [20, 50, 100];

/** `/recorddetails/{record_id}`. */
export function recordHref(recordId: string): string {
  return `/recorddetails/${encodeURIComponent(recordId)}`;
}

export interface GridLink {
  filterItems?: readonly FilterItem[];
  filterLogicOperator?: FilterLogic;
  orderBy?: readonly OrderByItem[];
}

function gridHref(path: string, link: GridLink): string {
  const search = new URLSearchParams(
    tableStateToSearchParams({
      filterItems: [...(link.filterItems ?? [])],
      filterLogicOperator: link.filterLogicOperator ?? DEFAULT_FILTER_LOGIC,
      orderBy: [...(link.orderBy ?? [])],
      pageNumber: 0,
      pageSize: GRID_DEFAULT_PAGE_SIZE,
    }),
  ).toString();
  return `${path}?${search}`;
}

/** All Records showing the records the filter selects, first page. */
export function allRecordsHref(link: GridLink = {}): string {
  return gridHref(ALL_RECORDS_PATH, link);
}

/** All Devices showing the tags the filter selects, first page. */
export function allDevicesHref(link: GridLink = {}): string {
  return gridHref(ALL_DEVICES_PATH, link);
}
