import {
  DISPOSITION_DECISION_LABELS,
  REVIEW_STATE_LABELS,
  TAG_TYPES,
  type TDegreesUnit,
  type TRecord,
} from '@coldtrace/contract';
import { MISSING_VALUE, formatDuration } from '@coldtrace/domain';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import type { GridColDef } from '@mui/x-data-grid';
import { Link as RouterLink } from 'react-router';
import { DecisionChip } from './components/decision-chip';
import { RecordAlarmChip, TripChip } from './components/status-chips';
import { dateTimeColumn, temperatureColumn } from '../../components/server-grid/columns';
import type { FilterFieldSpec } from '../../components/server-grid/grid-filter';
import { isFieldHidden, type DisplayRuleField } from '../../lib/display-rule';
import { useNow } from '../../lib/use-now';
import { lastTransmissionText } from './last-transmission';
import { recordHref } from './record-links';

/** The columns of All Records and what may be filtered (docs/decisions/record-queries.md). */

export const ALARM_STATUS_OPTIONS = [
  { value: 'OK', label: 'OK' },
  { value: 'Alarm', label: 'Alarm' },
] as const;

export const TRIP_STATUS_OPTIONS = [
  { value: 'NOT_DEPARTED', label: 'Not departed' },
  { value: 'IN_TRANSIT', label: 'In transit' },
  { value: 'ARRIVED', label: 'Arrived' },
] as const;

export const TAG_TYPE_OPTIONS = TAG_TYPES.map((type) => ({ value: type, label: type }));

/** Filterable fields of records/, the most used first. */
export const RECORD_FILTER_SPECS: readonly FilterFieldSpec[] = [
  { field: 'primary_reference', label: 'Primary reference', type: 'text' },
  { field: 'tag_serial_number', label: 'Tag serial', type: 'text' },
  { field: 'computed_status', label: 'Status', type: 'enum', options: ALARM_STATUS_OPTIONS },
  { field: 'trip_status', label: 'Trip', type: 'enum', options: TRIP_STATUS_OPTIONS },
  {
    field: 'active',
    label: 'Recording',
    type: 'boolean',
    options: [
      { value: 'true', label: 'Active' },
      { value: 'false', label: 'Stopped' },
    ],
  },
  { field: 'id', label: 'Record', type: 'id' },
  { field: 'tag_type', label: 'Tag type', type: 'enum', options: TAG_TYPE_OPTIONS },
  { field: 'secondary_reference', label: 'Secondary reference', type: 'text' },
  { field: 'shipping_reference', label: 'Shipping reference', type: 'text' },
  { field: 'shipper_name_address', label: 'Shipper', type: 'text' },
  { field: 'receiver_name_address', label: 'Receiver', type: 'text' },
  { field: 'carrier', label: 'Carrier', type: 'text' },
  { field: 'product_designation', label: 'Product', type: 'text' },
  { field: 'po_number', label: 'PO number', type: 'text' },
  { field: 'program_name', label: 'Program', type: 'text' },
  { field: 'highest_recorded_temperature', label: 'Highest', type: 'temperature' },
  { field: 'lowest_recorded_temperature', label: 'Lowest', type: 'temperature' },
  { field: 'high_threshold', label: 'High threshold', type: 'temperature' },
  { field: 'low_threshold', label: 'Low threshold', type: 'temperature' },
  { field: 'number_of_points', label: 'Points', type: 'number' },
  { field: 'created', label: 'Created', type: 'date' },
  { field: 'last_action_taken', label: 'Last action', type: 'date' },
  { field: 'last_scanned', label: 'Last scanned', type: 'date' },
];

/** Shown until the user chooses otherwise: the columns a dispatcher reads first. */
export const RECORD_DEFAULT_VISIBILITY: Record<string, boolean> = {
  tag_type: false,
  secondary_reference: false,
  carrier: false,
  product_designation: false,
  record_duration: false,
  created: false,
};

export interface DisplayContext {
  unit: TDegreesUnit;
  timeZone: string;
  /** Decimals of temperatures (the display rule's); one when absent. */
  decimals?: number;
  /** Record fields the display rule hides: no column, no filter. */
  hiddenFields?: readonly DisplayRuleField[];
}

/** A column or filter of a field the display rule hides is left out. */
function shown(field: string, hiddenFields: readonly DisplayRuleField[]): boolean {
  return !isFieldHidden({ hiddenFields }, field as DisplayRuleField);
}

/** The filterable fields without those the display rule hides (filtering on them would reveal them). */
export function recordFilterSpecs(
  hiddenFields: readonly DisplayRuleField[] = [],
): readonly FilterFieldSpec[] {
  return hiddenFields.length === 0
    ? RECORD_FILTER_SPECS
    : RECORD_FILTER_SPECS.filter((spec) => shown(spec.field, hiddenFields));
}

const text = (value: string | null | undefined) =>
  value == null || value.trim() === '' ? MISSING_VALUE : value;

const textColumn = (
  field: string,
  headerName: string,
  extra: Partial<GridColDef<TRecord>> = {},
): GridColDef<TRecord> => ({
  field,
  headerName,
  flex: 1,
  minWidth: 130,
  valueFormatter: (v: string | null | undefined) => text(v),
  // The whole text on hover when the column is too narrow for it.
  renderCell: ({ formattedValue }) => (
    <Box
      component="span"
      title={formattedValue === MISSING_VALUE ? undefined : String(formattedValue ?? '')}
      sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
    >
      {formattedValue as string}
    </Box>
  ),
  ...extra,
});

/** An rt or nanotag row's last transmission, its age kept moving; `—` for an xt1 row. */
function LastTransmissionCell({ row, timeZone }: { row: TRecord; timeZone: string }) {
  const now = useNow();
  return <>{lastTransmissionText(row, timeZone, now) ?? MISSING_VALUE}</>;
}

const partyName = (party: { name?: string | null } | null | undefined) => party?.name ?? null;

/**
 * The columns, the ones that identify a shipment first (so a phone, which
 * scrolls the grid sideways, shows them without scrolling).
 */
export function recordColumns({
  unit,
  timeZone,
  decimals,
  hiddenFields = [],
}: DisplayContext): GridColDef<TRecord>[] {
  const columns: GridColDef<TRecord>[] = [
    {
      field: 'id',
      headerName: 'Record',
      width: 70,
      align: 'right',
      headerAlign: 'right',
      cellClassName: 'tabular-nums',
      renderCell: ({ row }) =>
        row.id ? (
          <Link
            component={RouterLink}
            to={recordHref(row.id)}
            onClick={(event) => event.stopPropagation()}
            tabIndex={-1}
            aria-label={`Record ${row.id}`}
          >
            {row.id}
          </Link>
        ) : (
          MISSING_VALUE
        ),
    },
    {
      field: 'computed_status',
      headerName: 'Status',
      // "Alarms acknowledged" whole, with the cell's padding.
      width: 208,
      renderCell: ({ row }) => <RecordAlarmChip record={row} />,
    },
    // Wide enough for a whole serial ('DEMO-NANO-0036') and reference: they identify the shipment.
    textColumn('tag_serial_number', 'Tag serial', { flex: undefined, width: 150 }),
    textColumn('primary_reference', 'Primary ref.', {
      description: 'Primary reference',
      minWidth: 128,
    }),
    {
      field: 'trip_status',
      headerName: 'Trip',
      width: 148,
      valueGetter: (_value, row) => row.trip?.trip_status ?? null,
      renderCell: ({ row }) => <TripChip status={row.trip?.trip_status} />,
    },
    {
      // Computed from the alarms and the decision (issue 14 item 1); filtered above the grid.
      field: 'review_state',
      headerName: 'Review state',
      width: 228,
      sortable: false,
      filterable: false,
      valueGetter: (_value, row) => (row.review_state ? REVIEW_STATE_LABELS[row.review_state] : ''),
    },
    {
      // The current signed release decision (issue 14 item 2); filtered above the grid.
      field: 'disposition',
      headerName: 'Release decision',
      width: 160,
      sortable: false,
      filterable: false,
      valueGetter: (_value, row) =>
        row.disposition ? DISPOSITION_DECISION_LABELS[row.disposition.decision] : 'None',
      renderCell: ({ row }) =>
        row.disposition ? <DecisionChip decision={row.disposition.decision} /> : 'None',
    },
    textColumn('tag_type', 'Tag type', { flex: undefined, width: 120 }),
    textColumn('secondary_reference', 'Secondary ref.', { description: 'Secondary reference' }),
    textColumn('shipper_name_address', 'Shipper', {
      minWidth: 90,
      valueGetter: (_value, row) => partyName(row.shipper_name_address),
    }),
    textColumn('receiver_name_address', 'Receiver', {
      minWidth: 90,
      valueGetter: (_value, row) => partyName(row.receiver_name_address),
    }),
    textColumn('carrier', 'Carrier'),
    textColumn('product_designation', 'Product'),
    {
      ...temperatureColumn<TRecord>(
        'highest_recorded_temperature',
        'Highest',
        (row) => row.highest_recorded_temperature,
        unit,
        decimals,
      ),
      width: 80,
    },
    {
      ...temperatureColumn<TRecord>(
        'lowest_recorded_temperature',
        'Lowest',
        (row) => row.lowest_recorded_temperature,
        unit,
        decimals,
      ),
      width: 80,
    },
    {
      field: 'record_duration',
      headerName: 'Duration',
      width: 110,
      align: 'right',
      headerAlign: 'right',
      cellClassName: 'tabular-nums',
      valueFormatter: (v: number | null | undefined) => formatDuration(v),
    },
    dateTimeColumn<TRecord>('created', 'Created', (row) => row.created, timeZone),
    {
      // rt and nanotag records (issue 35 item 6): when their data last arrived, and how long ago.
      field: 'last_transmission',
      headerName: 'Last transmission',
      width: 270,
      sortable: false,
      filterable: false,
      cellClassName: 'tabular-nums',
      valueGetter: (_value, row) => row.last_transmission ?? null,
      renderCell: ({ row }) => <LastTransmissionCell row={row} timeZone={timeZone} />,
    },
    {
      ...dateTimeColumn<TRecord>(
        'last_action_taken',
        'Last action',
        (row) => row.last_action_taken,
        timeZone,
      ),
      width: 170,
    },
  ];
  return columns.filter((column) => shown(column.field, hiddenFields));
}
