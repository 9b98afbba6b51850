import { TAG_TYPES, type TDegreesUnit, type TTagExtended } from '@coldtrace/contract';
import { MISSING_VALUE } from '@coldtrace/domain';
import Link from '@mui/material/Link';
import type { GridColDef } from '@mui/x-data-grid';
import { Link as RouterLink } from 'react-router';
import { CalibrationChip } from '../../components/calibration-chip';
import { dateTimeColumn, temperatureColumn } from '../../components/server-grid/columns';
import type { FilterFieldSpec } from '../../components/server-grid/grid-filter';
import { RunningChip, recordHref } from '../records';

/** The columns of All Devices and what may be filtered (details/, record-queries.md). */

export const DEVICE_FILTER_SPECS: readonly FilterFieldSpec[] = [
  { field: 'serial_number', label: 'Serial number', type: 'text' },
  {
    field: 'running',
    label: 'State',
    type: 'boolean',
    options: [
      { value: 'true', label: 'Running' },
      { value: 'false', label: 'Idle' },
    ],
  },
  {
    field: 'tag_type',
    label: 'Tag type',
    type: 'enum',
    options: TAG_TYPES.map((type) => ({ value: type, label: type })),
  },
  { field: 'primary_reference', label: 'Primary reference', type: 'text' },
  { field: 'secondary_reference', label: 'Secondary reference', type: 'text' },
  { field: 'last_record_id', label: 'Last record', type: 'id' },
  { field: 'id', label: 'Tag id', type: 'id' },
  { field: 'shipper_name_address', label: 'Shipper', type: 'text' },
  { field: 'receiver_name_address', label: 'Receiver', type: 'text' },
  { field: 'carrier', label: 'Carrier', type: 'text' },
  { field: 'product_designation', label: 'Product', type: 'text' },
  { field: 'last_temp', label: 'Last temperature', type: 'temperature' },
  { field: 'created', label: 'Created', type: 'date' },
  { field: 'last_scanned', label: 'Last scanned', type: 'date' },
  { field: 'last_action_taken', label: 'Last action', type: 'date' },
];

export const DEVICE_DEFAULT_VISIBILITY: Record<string, boolean> = {
  secondary_reference: false,
};

const text = (value: string | null | undefined) =>
  value == null || value.trim() === '' ? MISSING_VALUE : value;

export function deviceColumns({
  unit,
  timeZone,
}: {
  unit: TDegreesUnit;
  timeZone: string;
}): GridColDef<TTagExtended>[] {
  return [
    {
      field: 'serial_number',
      headerName: 'Serial number',
      minWidth: 150,
      flex: 1,
      valueFormatter: (v: string | null | undefined) => text(v),
    },
    {
      field: 'tag_type',
      headerName: 'Tag type',
      width: 116,
      valueFormatter: (v: string | null | undefined) => text(v),
    },
    {
      field: 'running',
      headerName: 'State',
      width: 124,
      renderCell: ({ row }) => <RunningChip running={row.running} />,
    },
    {
      field: 'calibration_state',
      headerName: 'Calibration',
      description: "The tag's calibration now: valid, due soon or expired, with the due date",
      width: 220,
      sortable: false,
      renderCell: ({ row }) => (
        <CalibrationChip
          state={row.calibration_state}
          due={row.calibration_due}
          timeZone={timeZone}
        />
      ),
    },
    {
      field: 'last_record_id',
      headerName: 'Last record',
      width: 104,
      align: 'right',
      headerAlign: 'right',
      cellClassName: 'tabular-nums',
      renderCell: ({ row }) =>
        row.last_record_id ? (
          <Link
            component={RouterLink}
            to={recordHref(row.last_record_id)}
            onClick={(event) => event.stopPropagation()}
            tabIndex={-1}
            aria-label={`Record ${row.last_record_id}`}
          >
            {row.last_record_id}
          </Link>
        ) : (
          MISSING_VALUE
        ),
    },
    {
      field: 'primary_reference',
      headerName: 'Primary ref.',
      description: 'Primary reference',
      flex: 1,
      minWidth: 130,
      valueFormatter: (v: string | null | undefined) => text(v),
    },
    {
      field: 'secondary_reference',
      headerName: 'Secondary reference',
      flex: 1,
      minWidth: 160,
      valueFormatter: (v: string | null | undefined) => text(v),
    },
    {
      ...temperatureColumn<TTagExtended>('last_temp', 'Last temp.', (row) => row.last_temp, unit),
      width: 108,
    },
    {
      ...dateTimeColumn<TTagExtended>(
        'last_scanned',
        'Last scanned',
        (row) => row.last_scanned,
        timeZone,
      ),
      width: 176,
    },
    {
      ...dateTimeColumn<TTagExtended>(
        'last_action_taken',
        'Last action',
        (row) => row.last_action_taken,
        timeZone,
      ),
      width: 176,
    },
  ];
}
