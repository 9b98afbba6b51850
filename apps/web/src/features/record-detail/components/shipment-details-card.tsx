import type { TRecord } from '@coldtrace/contract';
import { formatDateTime, MISSING_VALUE } from '@coldtrace/domain';
import EditOutlined from '@mui/icons-material/EditOutlined';
import ScheduleOutlined from '@mui/icons-material/ScheduleOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useAppSettings } from '../../../lib/app-settings';
import type { DisplayRuleField } from '../../../lib/display-rule';
import { TripChip } from '../../records';
import { SectionCard } from './section-card';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <Typography component="dt" variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography
        component="dd"
        variant="body2"
        sx={{ m: 0, fontWeight: 500, overflowWrap: 'anywhere' }}
      >
        {children}
      </Typography>
    </>
  );
}

const text = (value: string | null | undefined) =>
  value && value.trim() !== '' ? value : MISSING_VALUE;

/** The rows of the shipment details, in order: label, field, value. */
export function shipmentDetailRows(
  record: TRecord,
  hiddenFields: readonly DisplayRuleField[] = [],
): { label: string; field: DisplayRuleField; value: string }[] {
  const rows: { label: string; field: DisplayRuleField; value: string }[] = [
    {
      label: 'Primary reference',
      field: 'primary_reference',
      value: text(record.primary_reference),
    },
    {
      label: 'Secondary reference',
      field: 'secondary_reference',
      value: text(record.secondary_reference),
    },
    {
      label: 'Shipping reference',
      field: 'shipping_reference',
      value: text(record.shipping_reference),
    },
    {
      label: 'Shipper',
      field: 'shipper_name_address',
      value: text(record.shipper_name_address?.name),
    },
    {
      label: 'Receiver',
      field: 'receiver_name_address',
      value: text(record.receiver_name_address?.name),
    },
    { label: 'Carrier', field: 'carrier', value: text(record.carrier) },
    { label: 'Product', field: 'product_designation', value: text(record.product_designation) },
    { label: 'PO number', field: 'po_number', value: text(record.po_number) },
    { label: 'Program', field: 'program_name', value: text(record.program_name) },
  ];
  return rows.filter((row) => !hiddenFields.includes(row.field));
}

/**
 * The shipment details and the trip, with the edit buttons the user's
 * permissions allow. Fields the display rule hides are left out (the edit
 * dialog still offers them to whoever may change them).
 */
export function ShipmentDetailsCard({
  record,
  timeZone,
  canEditShipment,
  canEditTrip,
  onEditShipment,
  onEditTrip,
}: {
  record: TRecord;
  timeZone: string;
  canEditShipment: boolean;
  canEditTrip: boolean;
  onEditShipment: () => void;
  onEditTrip: () => void;
}) {
  const trip = record.trip;
  const { hiddenFields } = useAppSettings();
  const rows = shipmentDetailRows(record, hiddenFields);
  return (
    <SectionCard
      title="Shipment details"
      action={
        canEditShipment ? (
          <Button
            size="small"
            variant="outlined"
            startIcon={<EditOutlined />}
            onClick={onEditShipment}
          >
            Edit shipment details
          </Button>
        ) : undefined
      }
    >
      <Box
        component="dl"
        sx={{
          m: 0,
          display: 'grid',
          gridTemplateColumns: { xs: '132px minmax(0, 1fr)', sm: '160px minmax(0, 1fr)' },
          columnGap: 2,
          rowGap: 1,
        }}
      >
        {rows.map((row) => (
          <Row key={row.field} label={row.label}>
            {row.value}
          </Row>
        ))}
      </Box>
      <Box sx={{ mt: 2, pt: 2, borderTop: 1, borderColor: 'divider' }}>
        <Stack
          direction="row"
          spacing={1}
          useFlexGap
          sx={{
            alignItems: 'center',
            justifyContent: 'space-between',
            flexWrap: 'wrap',
            rowGap: 1,
            mb: 1,
          }}
        >
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <Typography component="h3" sx={{ fontWeight: 600, fontSize: '0.9375rem' }}>
              Trip
            </Typography>
            <TripChip status={trip?.trip_status} />
          </Stack>
          {canEditTrip ? (
            <Button size="small" startIcon={<ScheduleOutlined />} onClick={onEditTrip}>
              Edit trip times
            </Button>
          ) : null}
        </Stack>
        <Box
          component="dl"
          sx={{
            m: 0,
            display: 'grid',
            gridTemplateColumns: { xs: '132px minmax(0, 1fr)', sm: '160px minmax(0, 1fr)' },
            columnGap: 2,
            rowGap: 1,
          }}
        >
          <Row label="Departure">
            {trip?.begin_time ? formatDateTime(trip.begin_time, timeZone) : 'Not departed'}
          </Row>
          <Row label="Arrival">
            {trip?.end_time ? formatDateTime(trip.end_time, timeZone) : 'Not arrived'}
          </Row>
        </Box>
      </Box>
    </SectionCard>
  );
}
