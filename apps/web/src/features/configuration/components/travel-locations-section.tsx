import type { TNameAndAddressLocation } from '@coldtrace/contract';
import { timeZoneLabel } from '@coldtrace/domain';
import Add from '@mui/icons-material/Add';
import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useState } from 'react';
import type { DataColumn } from '../../../components/data-table';
import type { ConfigurationAccess } from '../access';
import { useTravelLocations } from '../api/list-travel-locations';
import { formatCoordinate } from '../travel-location-form';
import { ConfigList, ConfigSection, EditButton } from './config-list';
import { TravelLocationDialog } from './travel-location-dialog';

/** Yes with a tick, or a muted No: the word carries the meaning, the colour only helps. */
function YesNo({ value }: { value: boolean | undefined }) {
  return value ? (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
      <CheckCircleOutlined fontSize="small" color="success" aria-hidden />
      Yes
    </Box>
  ) : (
    <Box component="span" sx={{ color: 'text.secondary' }}>
      No
    </Box>
  );
}

const COLUMNS: DataColumn<TNameAndAddressLocation>[] = [
  {
    key: 'name',
    header: 'Name',
    render: (row) => row.name,
    sortValue: (row) => row.name,
    minWidth: 140,
    maxWidth: 240,
  },
  {
    key: 'address',
    header: 'Address',
    render: (row) => (
      <Box component="span" sx={{ whiteSpace: 'pre-line' }}>
        {row.address}
      </Box>
    ),
    sortValue: (row) => row.address,
    minWidth: 200,
    maxWidth: 320,
  },
  {
    key: 'latitude',
    header: 'Latitude',
    numeric: true,
    nowrap: true,
    render: (row) => formatCoordinate(row.latitude),
    sortValue: (row) => row.latitude,
  },
  {
    key: 'longitude',
    header: 'Longitude',
    numeric: true,
    nowrap: true,
    render: (row) => formatCoordinate(row.longitude),
    sortValue: (row) => row.longitude,
  },
  {
    key: 'origin',
    header: 'Origin',
    nowrap: true,
    render: (row) => <YesNo value={row.origin} />,
    sortValue: (row) => row.origin ?? false,
  },
  {
    key: 'destination',
    header: 'Destination',
    nowrap: true,
    render: (row) => <YesNo value={row.destination} />,
    sortValue: (row) => row.destination ?? false,
  },
  {
    key: 'timezone',
    header: 'Time zone',
    nowrap: true,
    render: (row) => (row.timezone ? timeZoneLabel(row.timezone) : '—'),
    sortValue: (row) => row.timezone,
  },
];

type DialogState = { mode: 'create' } | { mode: 'edit'; location: TNameAndAddressLocation } | null;

/** Travel locations: shippers (origins) and receivers (destinations) with their positions. */
export function TravelLocationsSection({
  access,
  onSaved,
}: {
  access: ConfigurationAccess;
  onSaved: (message: string) => void;
}) {
  const query = useTravelLocations();
  const [dialog, setDialog] = useState<DialogState>(null);
  const readOnly = !access.createTravelLocations && !access.editTravelLocations;

  return (
    <ConfigSection
      title="Travel locations"
      description="Places shipments leave from (origins, offered as shippers) and arrive at (destinations, offered as receivers). Their positions drive the geo-fence."
      note={
        readOnly
          ? 'You can view travel locations; adding or editing them needs a location or configuration role.'
          : null
      }
      action={
        access.createTravelLocations ? (
          <Button
            variant="contained"
            startIcon={<Add />}
            onClick={() => setDialog({ mode: 'create' })}
          >
            Add travel location
          </Button>
        ) : null
      }
    >
      <ConfigList
        query={query}
        what="the travel locations"
        label="Travel locations"
        columns={COLUMNS}
        rowKey={(row, index) => row.id ?? `row-${index}`}
        minWidth={900}
        empty={
          access.createTravelLocations
            ? 'No travel locations yet: add your shippers and receivers to pick them as origin and destination of a shipment.'
            : 'No travel locations yet. Someone with a location or configuration role can add them.'
        }
        actions={
          access.editTravelLocations
            ? (row) =>
                row.id ? (
                  <EditButton
                    name={row.name ?? 'travel location'}
                    onClick={() => setDialog({ mode: 'edit', location: row })}
                  />
                ) : null
            : undefined
        }
      />
      {dialog ? (
        <TravelLocationDialog
          location={dialog.mode === 'edit' ? dialog.location : undefined}
          onClose={() => setDialog(null)}
          onSaved={(location) => {
            setDialog(null);
            onSaved(
              dialog.mode === 'edit'
                ? `Travel location ${location.name ?? ''} saved`
                : `Travel location ${location.name ?? ''} added`,
            );
          }}
        />
      ) : null}
    </ConfigSection>
  );
}
