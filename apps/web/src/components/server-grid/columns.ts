import type { TDegreesUnit } from '@coldtrace/contract';
import { formatDateTime, TEMPERATURE_DISPLAY_DECIMALS } from '@coldtrace/domain';
import type { GridColDef } from '@mui/x-data-grid';
import { formatTemperatureWith } from '../../lib/display-rule';

/** A right-aligned temperature column in the user's unit, one decimal unless told (`4.5 °C`). */
export function temperatureColumn<R extends object>(
  field: string,
  headerName: string,
  value: (row: R) => number | null | undefined,
  unit: TDegreesUnit,
  decimals: number = TEMPERATURE_DISPLAY_DECIMALS,
): GridColDef<R> {
  return {
    field,
    headerName,
    width: 110,
    align: 'right',
    headerAlign: 'right',
    cellClassName: 'tabular-nums',
    valueGetter: (_value, row) => value(row) ?? null,
    valueFormatter: (v: number | null) => formatTemperatureWith(v, unit, decimals),
  };
}

/** A date-time column, en-US 24-hour in the user's zone. */
export function dateTimeColumn<R extends object>(
  field: string,
  headerName: string,
  value: (row: R) => string | null | undefined,
  timeZone: string,
): GridColDef<R> {
  return {
    field,
    headerName,
    width: 175,
    cellClassName: 'tabular-nums',
    valueGetter: (_value, row) => value(row) ?? null,
    valueFormatter: (v: string | null) => formatDateTime(v, timeZone),
  };
}
