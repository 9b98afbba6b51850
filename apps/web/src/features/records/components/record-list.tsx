import type { TRecord } from '@coldtrace/contract';
import { MISSING_VALUE, formatDateTime } from '@coldtrace/domain';
import Box from '@mui/material/Box';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { ValueLoading } from '../../../components/page-loading';
import { useAppSettings } from '../../../lib/app-settings';
import { formatTemperatureWith, type DisplayRuleField } from '../../../lib/display-rule';
import { recordHref } from '../record-links';
import { DecisionChip } from './decision-chip';
import { RecordAlarmChip, TripChip } from './status-chips';

/**
 * A list of records, each row a link to the record (the dashboard's home list
 * and the search results): status chip and release decision, tag serial, primary reference,
 * shipper → receiver, last temperature, last action time. A table on wide
 * screens (with a header row), stacked lines on phones.
 */

/** The wide layout's columns: status (and trip), tag, parties, [temperature], time. */
function columns(showTrip: boolean, showTemperature: boolean) {
  return {
    xs: '1fr auto',
    md: [
      showTrip ? '336px' : '208px',
      'minmax(140px, 1.1fr)',
      'minmax(160px, 1.3fr)',
      ...(showTemperature ? ['96px'] : []),
      '168px',
    ].join(' '),
  };
}

const party = (value: { name?: string | null } | null | undefined) =>
  value?.name?.trim() || MISSING_VALUE;

/** `Shipper → Receiver`; a party the display rule hides is left out (`To Receiver`, `From Shipper`). */
export function parties(record: TRecord, hiddenFields: readonly DisplayRuleField[] = []): string {
  const hideShipper = hiddenFields.includes('shipper_name_address');
  const hideReceiver = hiddenFields.includes('receiver_name_address');
  const shipper = party(record.shipper_name_address);
  const receiver = party(record.receiver_name_address);
  if (hideShipper && hideReceiver) return '';
  if (hideShipper) return receiver === MISSING_VALUE ? 'No receiver' : `To ${receiver}`;
  if (hideReceiver) return shipper === MISSING_VALUE ? 'No shipper' : `From ${shipper}`;
  return shipper === MISSING_VALUE && receiver === MISSING_VALUE
    ? 'No shipper or receiver'
    : `${shipper} → ${receiver}`;
}

/** The header of the tag column and of the parties column, as far as the display rule shows them. */
export function recordListHeadings(hiddenFields: readonly DisplayRuleField[]): {
  tag: string;
  parties: string;
} {
  const hideShipper = hiddenFields.includes('shipper_name_address');
  const hideReceiver = hiddenFields.includes('receiver_name_address');
  return {
    tag: hiddenFields.includes('primary_reference') ? 'Tag' : 'Tag · Primary reference',
    parties:
      hideShipper && hideReceiver
        ? ''
        : hideShipper
          ? 'Receiver'
          : hideReceiver
            ? 'Shipper'
            : 'Shipper → Receiver',
  };
}

const labelSx = {
  display: { xs: 'inline', md: 'none' },
  color: 'text.secondary',
  mr: 0.5,
} as const;

export function RecordListHeader({
  showTemperature = true,
  showTrip = false,
}: {
  showTemperature?: boolean;
  showTrip?: boolean;
}) {
  const { hiddenFields } = useAppSettings();
  const headings = recordListHeadings(hiddenFields);
  return (
    <Box
      aria-hidden
      sx={{
        display: { xs: 'none', md: 'grid' },
        gridTemplateColumns: columns(showTrip, showTemperature).md,
        columnGap: 2,
        px: 2,
        py: 1,
        borderBottom: 1,
        borderColor: 'divider',
        color: 'text.secondary',
        typography: 'caption',
        fontWeight: 600,
      }}
    >
      <span>{showTrip ? 'Status · Decision · Trip' : 'Status · Decision'}</span>
      <span>{headings.tag}</span>
      <span>{headings.parties}</span>
      {showTemperature ? (
        <Box component="span" sx={{ textAlign: 'right' }}>
          Last temp.
        </Box>
      ) : null}
      <Box component="span" sx={{ textAlign: 'right' }}>
        Last action
      </Box>
    </Box>
  );
}

export function RecordListRow({
  record,
  lastTemperature,
  showTemperature = true,
  showTrip = false,
}: {
  record: TRecord & { id: string };
  /** °C; undefined while unknown. */
  lastTemperature?: number | null;
  showTemperature?: boolean;
  showTrip?: boolean;
}) {
  const { degreesUnit, timeZone, temperatureDecimals, hiddenFields } = useAppSettings();
  const hideReference = hiddenFields.includes('primary_reference');
  const reference = record.primary_reference?.trim();
  return (
    <ListItem disablePadding divider>
      <ListItemButton
        component={RouterLink}
        to={recordHref(record.id)}
        sx={{
          display: 'grid',
          gridTemplateColumns: columns(showTrip, showTemperature),
          columnGap: 2,
          rowGap: 0.5,
          alignItems: 'center',
          px: 2,
          py: 1.25,
        }}
      >
        <Box
          sx={{
            gridColumn: { xs: '1 / -1', md: 'auto' },
            display: 'flex',
            gap: 1,
            alignItems: 'center',
            flexWrap: 'wrap',
          }}
        >
          <RecordAlarmChip record={record} />
          {record.disposition ? <DecisionChip decision={record.disposition.decision} /> : null}
          {showTrip ? <TripChip status={record.trip?.trip_status} /> : null}
        </Box>
        <Box sx={{ minWidth: 0, gridColumn: { xs: '1 / 2', md: 'auto' } }}>
          <Typography variant="body2" noWrap>
            <Box component="span" sx={{ fontWeight: 600 }}>
              {record.tag_serial_number || MISSING_VALUE}
            </Box>
            <Box
              component="span"
              sx={{ color: 'text.secondary', fontVariantNumeric: 'tabular-nums' }}
            >
              {' '}
              · Record {record.id}
            </Box>
          </Typography>
          {hideReference ? null : (
            <Typography
              variant="body2"
              color={reference ? 'text.primary' : 'text.secondary'}
              noWrap
              title={reference || undefined}
            >
              {reference || 'No primary reference'}
            </Typography>
          )}
        </Box>
        <Typography
          variant="body2"
          color="text.secondary"
          sx={{
            minWidth: 0,
            gridColumn: { xs: '1 / -1', md: 'auto' },
            gridRow: { xs: 3, md: 'auto' },
            overflowWrap: 'anywhere',
          }}
        >
          {parties(record, hiddenFields)}
        </Typography>
        {showTemperature ? (
          <Typography
            variant="body2"
            sx={{
              textAlign: 'right',
              fontVariantNumeric: 'tabular-nums',
              fontWeight: 600,
              gridColumn: { xs: '2 / 3', md: 'auto' },
              gridRow: { xs: 2, md: 'auto' },
              whiteSpace: 'nowrap',
              // Phones label the value; with no value there is nothing to label.
              display: { xs: lastTemperature === null ? 'none' : 'block', md: 'block' },
            }}
          >
            <Box component="span" sx={labelSx}>
              Last
            </Box>
            {lastTemperature === undefined ? (
              <ValueLoading variant="text" width={56} sx={{ display: 'inline-block' }} />
            ) : (
              formatTemperatureWith(lastTemperature, degreesUnit, temperatureDecimals)
            )}
          </Typography>
        ) : null}
        <Typography
          variant="body2"
          color="text.secondary"
          sx={{
            textAlign: { xs: 'left', md: 'right' },
            fontVariantNumeric: 'tabular-nums',
            gridColumn: { xs: '1 / -1', md: 'auto' },
            gridRow: { xs: 4, md: 'auto' },
            whiteSpace: 'nowrap',
          }}
        >
          <Box component="span" sx={labelSx}>
            Last action
          </Box>
          {formatDateTime(record.last_action_taken, timeZone)}
        </Typography>
      </ListItemButton>
    </ListItem>
  );
}

/** Skeleton rows in the list's shape, while the records load. */
export function RecordListSkeleton({ rows = 5 }: { rows?: number }) {
  return (
    <List disablePadding aria-busy="true" aria-label="Loading records">
      {Array.from({ length: rows }, (_, index) => (
        <ListItem key={index} divider sx={{ px: 2, py: 1.25, display: 'flex', gap: 2 }}>
          <Skeleton variant="rounded" width={64} height={24} />
          <Box sx={{ flex: 1 }}>
            <Skeleton variant="text" width="40%" />
            <Skeleton variant="text" width="60%" />
          </Box>
          <Skeleton variant="text" width={80} sx={{ display: { xs: 'none', md: 'block' } }} />
        </ListItem>
      ))}
    </List>
  );
}

/** A list of records with its header row. */
export function RecordList({
  records,
  showTemperature = true,
  showTrip = false,
  label,
}: {
  records: readonly TRecord[];
  showTemperature?: boolean;
  showTrip?: boolean;
  label: string;
}) {
  return (
    <>
      <RecordListHeader showTemperature={showTemperature} showTrip={showTrip} />
      <List disablePadding aria-label={label}>
        {records
          .filter((record): record is TRecord & { id: string } => Boolean(record.id))
          .map((record) => (
            <RecordListRow
              key={record.id}
              record={record}
              showTemperature={showTemperature}
              showTrip={showTrip}
              lastTemperature={record.latest_temp ?? null}
            />
          ))}
      </List>
    </>
  );
}
