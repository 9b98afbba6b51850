import type { TDropdownInfo, TNameAddressRef, TRecord } from '@coldtrace/contract';
import { formatDateTime } from '@coldtrace/domain';
import Box from '@mui/material/Box';
import { ValueLoading } from '../../../components/page-loading';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { lazy, Suspense, useMemo } from 'react';
import { EmptyState } from '../../../components/empty-state';
import { LoadError } from '../../../components/load-error';
import { useAppSettings } from '../../../lib/app-settings';
import { useRecordLocations } from '../api/get-record-locations';
import {
  formatCount,
  formatPosition,
  isKnownPosition,
  knownPositions,
  type MapPoint,
} from '../display';
import { MAP_COLOURS } from './map-colours';
import { SectionCard } from './section-card';

/** Leaflet comes with this chunk only, loaded when the map is first shown. */
const LocationsMap = lazy(() => import('./locations-map'));

/** A party of the record with its coordinates from the dropdown bundle, when known. */
function placeOf(
  party: TNameAddressRef | null | undefined,
  dropdown: TDropdownInfo | undefined,
): (MapPoint & { name: string }) | null {
  if (!party?.id) return null;
  const location = [
    ...(dropdown?.origin_locations ?? []),
    ...(dropdown?.destination_locations ?? []),
  ].find((l) => l.id === party.id);
  if (!location || !isKnownPosition(location.latitude, location.longitude)) return null;
  return {
    latitude: location.latitude!,
    longitude: location.longitude!,
    name: location.name ?? party.name ?? '',
  };
}

function KeyItem({ colour, label, text }: { colour: string; label: string; text: string }) {
  return (
    <Typography
      component="li"
      variant="body2"
      sx={{ display: 'flex', gap: 1, alignItems: 'baseline' }}
    >
      <Box
        component="span"
        aria-hidden
        sx={{
          width: 10,
          height: 10,
          borderRadius: '50%',
          bgcolor: colour,
          flexShrink: 0,
          alignSelf: 'center',
        }}
      />
      <span>
        <Box component="span" sx={{ fontWeight: 600 }}>
          {label}:
        </Box>{' '}
        {text}
      </span>
    </Typography>
  );
}

/**
 * Where the shipment has been: the map (origin, destination, route, last
 * position) and the same facts in words below it. Unknown positions (-91 /
 * -181) are never drawn.
 */
export function MapCard({
  recordId,
  record,
  dropdown,
  timeZone,
}: {
  recordId: string;
  record: TRecord;
  dropdown: TDropdownInfo | undefined;
  timeZone: string;
}) {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const locations = useRecordLocations(recordId);
  // The display rule may hide the parties (their places name them) and the last position.
  const { hiddenFields } = useAppSettings();
  const hideShipper = hiddenFields.includes('shipper_name_address');
  const hideReceiver = hiddenFields.includes('receiver_name_address');
  const hideLast =
    hiddenFields.includes('last_latitude') || hiddenFields.includes('last_longitude');
  const route = useMemo(() => knownPositions(locations.data ?? []), [locations.data]);
  const origin = useMemo(
    () => (hideShipper ? null : placeOf(record.shipper_name_address, dropdown)),
    [record.shipper_name_address, dropdown, hideShipper],
  );
  const destination = useMemo(
    () => (hideReceiver ? null : placeOf(record.receiver_name_address, dropdown)),
    [record.receiver_name_address, dropdown, hideReceiver],
  );
  const last = useMemo<MapPoint | null>(() => {
    const latest = route[route.length - 1];
    if (latest) return latest;
    return !hideLast && isKnownPosition(record.last_latitude, record.last_longitude)
      ? { latitude: record.last_latitude!, longitude: record.last_longitude! }
      : null;
  }, [route, record.last_latitude, record.last_longitude, hideLast]);
  const height = phone ? 260 : 320;
  const lastText = last
    ? `${formatPosition(last.latitude, last.longitude)}${last.timestamp ? ` at ${formatDateTime(last.timestamp, timeZone)}` : ''}`
    : '';

  let body;
  if (locations.isError) {
    body = (
      <LoadError
        what="the positions"
        error={locations.error}
        onRetry={() => void locations.refetch()}
        retrying={locations.isFetching}
      />
    );
  } else if (!locations.data) {
    body = <ValueLoading variant="rounded" height={height} aria-label="Loading the map" />;
  } else if (!origin && !destination && !last) {
    body = <EmptyState>No positions recorded</EmptyState>;
  } else {
    body = (
      <Box component="figure" sx={{ m: 0 }} aria-label="Map of the record's positions">
        <Suspense
          fallback={<ValueLoading variant="rounded" height={height} aria-label="Loading the map" />}
        >
          <LocationsMap
            route={route}
            origin={origin}
            destination={destination}
            last={last}
            height={height}
            lastLabel={`Last position: ${lastText}`}
          />
        </Suspense>
        <Box component="figcaption" sx={{ mt: 1.5 }}>
          <Stack component="ul" spacing={0.5} sx={{ listStyle: 'none', p: 0, m: 0 }}>
            {origin ? (
              <KeyItem
                colour={MAP_COLOURS.origin}
                label="Origin"
                text={`${origin.name} (${formatPosition(origin.latitude, origin.longitude)})`}
              />
            ) : null}
            {destination ? (
              <KeyItem
                colour={MAP_COLOURS.destination}
                label="Destination"
                text={`${destination.name} (${formatPosition(destination.latitude, destination.longitude)})`}
              />
            ) : null}
            {last ? (
              <KeyItem colour={MAP_COLOURS.last} label="Last position" text={lastText} />
            ) : null}
            <Typography component="li" variant="body2" color="text.secondary">
              {route.length === 0
                ? 'No positions recorded'
                : `${formatCount(route.length)} position${route.length === 1 ? '' : 's'} on the route`}
            </Typography>
          </Stack>
        </Box>
      </Box>
    );
  }
  return <SectionCard title="Locations">{body}</SectionCard>;
}
