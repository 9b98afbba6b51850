import type { TDegreesUnit, TRecord, TScan } from '@coldtrace/contract';
import BatteryAlertOutlined from '@mui/icons-material/BatteryAlertOutlined';
import BatteryFullOutlined from '@mui/icons-material/BatteryFullOutlined';
import BatteryUnknownOutlined from '@mui/icons-material/BatteryUnknownOutlined';
import MemoryOutlined from '@mui/icons-material/MemoryOutlined';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { MISSING_VALUE, formatDateTime, formatDuration } from '@coldtrace/domain';
import type { ReactNode } from 'react';
import { useAppSettings } from '../../../lib/app-settings';
import { formatTemperatureWith } from '../../../lib/display-rule';
import { useNow } from '../../../lib/use-now';
import { lastTransmissionOf, type LastTransmission } from '../../records';
import {
  BATTERY_LABELS,
  MEMORY_LABELS,
  formatCount,
  formatInterval,
  formatPosition,
  formatThresholds,
} from '../display';

const WARNING = '#a15c00';

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography component="dt" variant="caption" color="text.secondary" sx={{ display: 'block' }}>
        {label}
      </Typography>
      <Typography
        component="dd"
        className="tabular-nums"
        sx={{
          m: 0,
          fontWeight: 600,
          overflowWrap: 'anywhere',
          display: 'flex',
          gap: 0.5,
          alignItems: 'center',
        }}
      >
        {children}
      </Typography>
    </Box>
  );
}

function Health({ icon, text, warn }: { icon: ReactNode; text: string; warn: boolean }) {
  return (
    <>
      <Box
        component="span"
        aria-hidden
        sx={{ display: 'inline-flex', color: warn ? WARNING : 'text.secondary' }}
      >
        {icon}
      </Box>
      <Box component="span" sx={{ color: warn ? WARNING : undefined }}>
        {text}
      </Box>
    </>
  );
}

/** The time on its line, the age below it in the secondary colour (a space between, for reading aloud). */
function LastTransmissionValue({ last }: { last: LastTransmission }) {
  return (
    <Box component="span" sx={{ display: 'flex', flexDirection: 'column' }}>
      <span>{last.time}</span>
      {last.age === null ? null : (
        <>
          {' '}
          <Box component="span" sx={{ color: 'text.secondary', fontWeight: 400 }}>
            {last.age}
          </Box>
        </>
      )}
    </Box>
  );
}

/**
 * The summary strip (ui.md): highest, lowest, mean kinetic temperature,
 * duration, points, thresholds, battery and memory health, and the last scan
 * (when, by whom, where; an unknown position reads 'Unknown', never -91 / -181).
 * An rt or nanotag record shows its last transmission (when and how long ago)
 * instead, and its last scan only when it was scanned.
 */
export function SummaryStrip({
  record,
  latestScan,
  unit,
  timeZone,
}: {
  record: TRecord;
  latestScan: TScan | undefined;
  unit: TDegreesUnit;
  timeZone: string;
}) {
  // The display rule's decimals, and whether it hides the record's last position.
  const { temperatureDecimals: decimals, hiddenFields } = useAppSettings();
  const hidePosition =
    hiddenFields.includes('last_latitude') || hiddenFields.includes('last_longitude');
  const formatTemperature = (celsius: number | null | undefined) =>
    formatTemperatureWith(celsius, unit, decimals);
  const battery = record.battery_health ?? null;
  const memory = record.memory_health ?? null;
  // Never scanned: no scanner and no scan position (the record's last position,
  // from the tag's own uploads, is on the map, not a scan's).
  const scanned = Boolean(record.last_scanned);
  const now = useNow();
  const transmission = lastTransmissionOf(record, timeZone, now);
  const scannedAt = !scanned
    ? MISSING_VALUE
    : latestScan
      ? formatPosition(latestScan.latitude, latestScan.longitude)
      : hidePosition
        ? MISSING_VALUE
        : formatPosition(record.last_latitude, record.last_longitude);
  return (
    <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2.5 } }}>
      <Box
        component="dl"
        aria-label="Summary"
        sx={{
          m: 0,
          display: 'grid',
          gap: { xs: 1.5, sm: 2 },
          gridTemplateColumns: {
            xs: 'repeat(2, minmax(0, 1fr))',
            sm: 'repeat(3, minmax(0, 1fr))',
            md: 'repeat(4, minmax(0, 1fr))',
            lg: 'repeat(6, minmax(0, 1fr))',
          },
        }}
      >
        <Item label="Highest">{formatTemperature(record.highest_recorded_temperature)}</Item>
        <Item label="Lowest">{formatTemperature(record.lowest_recorded_temperature)}</Item>
        <Item label="Mean kinetic temperature">{formatTemperature(record.mean_kinetic_temp)}</Item>
        <Item label="Duration">{formatDuration(record.record_duration)}</Item>
        <Item label="Points">{formatCount(record.number_of_points)}</Item>
        <Item label="Thresholds">
          {formatThresholds(record.low_threshold, record.high_threshold, unit, decimals)}
        </Item>
        <Item label="Battery">
          <Health
            icon={
              battery === null ? (
                <BatteryUnknownOutlined fontSize="small" />
              ) : battery === 'OK' ? (
                <BatteryFullOutlined fontSize="small" />
              ) : (
                <BatteryAlertOutlined fontSize="small" />
              )
            }
            text={battery === null ? 'Unknown' : BATTERY_LABELS[battery]}
            warn={battery !== null && battery !== 'OK'}
          />
        </Item>
        <Item label="Memory">
          <Health
            icon={<MemoryOutlined fontSize="small" />}
            text={memory === null ? 'Unknown' : MEMORY_LABELS[memory]}
            warn={memory === 'MEMORY_FULL'}
          />
        </Item>
        {transmission === null ? null : (
          <Item label="Last transmission">
            <LastTransmissionValue last={transmission} />
          </Item>
        )}
        {transmission !== null && !scanned ? null : (
          <>
            <Item label="Last scanned">
              {record.last_scanned ? formatDateTime(record.last_scanned, timeZone) : 'Never'}
            </Item>
            <Item label="Scanned by">
              {scanned ? record.last_scanned_user || 'Unknown' : MISSING_VALUE}
            </Item>
            <Item label="Scanned at">{scannedAt}</Item>
          </>
        )}
        <Item label="Measurement interval">
          {formatInterval(record.calculated_measurement_interval ?? record.measurement_interval)}
        </Item>
      </Box>
    </Paper>
  );
}
