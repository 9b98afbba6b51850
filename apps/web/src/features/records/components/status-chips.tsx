import type { TAlarmStatus, TRecord, TTripStatus } from '@coldtrace/contract';
import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import FlagOutlined from '@mui/icons-material/FlagOutlined';
import LocalShippingOutlined from '@mui/icons-material/LocalShippingOutlined';
import PauseCircleOutlined from '@mui/icons-material/PauseCircleOutlined';
import PlayCircleOutlined from '@mui/icons-material/PlayCircleOutlined';
import ReportProblemOutlined from '@mui/icons-material/ReportProblemOutlined';
import ScheduleOutlined from '@mui/icons-material/ScheduleOutlined';
import Chip from '@mui/material/Chip';
import { MISSING_VALUE } from '@coldtrace/domain';

/**
 * The status chips every screen uses the same way (ui.md, "Visual language"):
 * OK green, Alarm red, in transit blue, not departed grey, arrived green
 * outline. Colour is never the only signal: each chip has an icon and a word.
 */

const chipSx = { fontWeight: 600, '& .MuiChip-icon': { ml: '6px' } } as const;

/** A record's alarm status (OK or Alarm). */
export function StatusChip({
  status,
  size = 'small',
}: {
  status: TAlarmStatus | null | undefined;
  size?: 'small' | 'medium';
}) {
  if (status === 'Alarm') {
    return (
      <Chip size={size} color="error" icon={<ReportProblemOutlined />} label="Alarm" sx={chipSx} />
    );
  }
  if (status === 'OK') {
    return (
      <Chip size={size} color="success" icon={<CheckCircleOutlined />} label="OK" sx={chipSx} />
    );
  }
  return <Chip size={size} variant="outlined" label={MISSING_VALUE} aria-label="No status" />;
}

const TRIP_LABELS: Record<TTripStatus, string> = {
  NOT_DEPARTED: 'Not departed',
  IN_TRANSIT: 'In transit',
  ARRIVED: 'Arrived',
};

export function tripStatusLabel(status: TTripStatus | null | undefined): string {
  return status ? TRIP_LABELS[status] : MISSING_VALUE;
}

/** A record's trip status: Not departed (grey), In transit (blue), Arrived (green outline). */
export function TripChip({
  status,
  size = 'small',
}: {
  status: TTripStatus | null | undefined;
  size?: 'small' | 'medium';
}) {
  switch (status) {
    case 'IN_TRANSIT':
      return (
        <Chip
          size={size}
          color="info"
          icon={<LocalShippingOutlined />}
          label={TRIP_LABELS.IN_TRANSIT}
          sx={chipSx}
        />
      );
    case 'ARRIVED':
      return (
        <Chip
          size={size}
          color="success"
          variant="outlined"
          icon={<FlagOutlined />}
          label={TRIP_LABELS.ARRIVED}
          sx={chipSx}
        />
      );
    case 'NOT_DEPARTED':
      return (
        <Chip
          size={size}
          icon={<ScheduleOutlined />}
          label={TRIP_LABELS.NOT_DEPARTED}
          sx={{ ...chipSx, bgcolor: 'grey.200', color: 'text.primary' }}
        />
      );
    default:
      return <Chip size={size} variant="outlined" label={MISSING_VALUE} aria-label="No trip" />;
  }
}

/**
 * A record in alarm whose every alarm is acknowledged or dismissed: the alarm
 * status, truthfully, without the red "Alarm" of work left to do (issue 35).
 */
export function AlarmsAcknowledgedChip({ size = 'small' }: { size?: 'small' | 'medium' }) {
  return (
    <Chip
      size={size}
      variant="outlined"
      icon={<CheckCircleOutlined />}
      label="Alarms acknowledged"
      sx={{ ...chipSx, color: 'text.primary', borderColor: 'text.secondary' }}
    />
  );
}

/**
 * A list row's alarm status: "Alarms acknowledged" when the record is in alarm
 * but no alarm awaits acknowledgement (the server's
 * `alarm_awaits_acknowledgement`), else the record's OK or Alarm, so a
 * released record does not sit red in the dashboard, search and All Records.
 */
export function RecordAlarmChip({
  record,
}: {
  record: Pick<TRecord, 'computed_status' | 'alarm_awaits_acknowledgement'>;
}) {
  if (record.computed_status === 'Alarm' && record.alarm_awaits_acknowledgement === false) {
    return <AlarmsAcknowledgedChip />;
  }
  return <StatusChip status={record.computed_status} />;
}

/** A tag's state: Running (blue) or Idle (grey). */
export function RunningChip({ running }: { running: boolean | null | undefined }) {
  if (running == null) {
    return <Chip size="small" variant="outlined" label={MISSING_VALUE} aria-label="Unknown" />;
  }
  return running ? (
    <Chip size="small" color="info" icon={<PlayCircleOutlined />} label="Running" sx={chipSx} />
  ) : (
    <Chip
      size="small"
      icon={<PauseCircleOutlined />}
      label="Idle"
      sx={{ ...chipSx, bgcolor: 'grey.200', color: 'text.primary' }}
    />
  );
}
