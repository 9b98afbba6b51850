import { serializeOrderBy } from '@coldtrace/domain';
import { useMemo } from 'react';
import { useAppSettings } from '../../lib/app-settings';
import { filterModelToApiFilter, type FilterFieldSpec } from './grid-filter';
import { useGridViewState, type GridViewStateControls } from './use-grid-view-state';

/** The list query of a server-mode grid: filter, order and 1-based page, as the API takes them. */
export interface ServerGridQuery {
  filter?: string;
  order_by?: string[];
  page_number: number;
  page_size: number;
}

/**
 * The view state of a server-mode grid (kept in the URL) and the list query it
 * stands for, with filter values read in the user's unit and time zone.
 */
export function useServerGridQuery(
  specs: readonly FilterFieldSpec[],
  defaultPageSize: number,
): {
  controls: GridViewStateControls;
  query: ServerGridQuery;
  unit: ReturnType<typeof useAppSettings>['degreesUnit'];
  timeZone: string;
  /** Decimals of temperatures (the display rule's; one without a rule). */
  decimals: number;
  /** Record fields the display rule hides. */
  hiddenFields: ReturnType<typeof useAppSettings>['hiddenFields'];
} {
  const {
    degreesUnit: unit,
    timeZone,
    temperatureDecimals: decimals,
    hiddenFields,
  } = useAppSettings();
  const controls = useGridViewState(defaultPageSize);
  const { state } = controls;
  const query = useMemo<ServerGridQuery>(() => {
    const filter = filterModelToApiFilter(state.filterModel, specs, { unit, timeZone });
    return {
      ...(filter ? { filter } : {}),
      ...(state.orderBy.length > 0 ? { order_by: serializeOrderBy(state.orderBy) } : {}),
      page_number: state.pageNumber + 1,
      page_size: state.pageSize,
    };
  }, [state, specs, unit, timeZone]);
  return { controls, query, unit, timeZone, decimals, hiddenFields };
}
