import type { TRecord } from '@coldtrace/contract';
import { formatDateTime, MISSING_VALUE } from '@coldtrace/domain';
import EditOutlined from '@mui/icons-material/EditOutlined';
import ScheduleOutlined from '@mui/icons-material/ScheduleOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
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

/** The shipment details and the trip, with the edit buttons the user's permissions allow. */
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
        <Row label="Primary reference">{text(record.primary_reference)}</Row>
        <Row label="Secondary reference">{text(record.secondary_reference)}</Row>
        <Row label="Shipping reference">{text(record.shipping_reference)}</Row>
        <Row label="Shipper">{text(record.shipper_name_address?.name)}</Row>
        <Row label="Receiver">{text(record.receiver_name_address?.name)}</Row>
        <Row label="Carrier">{text(record.carrier)}</Row>
        <Row label="Product">{text(record.product_designation)}</Row>
        <Row label="PO number">{text(record.po_number)}</Row>
        <Row label="Program">{text(record.program_name)}</Row>
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
