import type { TCalibrationState } from '@coldtrace/contract';
import { formatDate } from '@coldtrace/domain';
import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import EventBusyOutlined from '@mui/icons-material/EventBusyOutlined';
import ScheduleOutlined from '@mui/icons-material/ScheduleOutlined';
import Chip from '@mui/material/Chip';

const chipSx = { fontWeight: 600, '& .MuiChip-icon': { ml: '6px' } } as const;

/** The words of each calibration state (issue 14 item 7). */
export const CALIBRATION_STATE_LABELS: Record<TCalibrationState, string> = {
  NONE: 'No certificate',
  VALID: 'Valid',
  DUE_SOON: 'Due soon',
  EXPIRED: 'Expired',
};

/**
 * A tag's calibration state as a chip: valid (green), due soon (amber),
 * expired (red) or no certificate (outlined), with the due date in the
 * reader's time zone. Colour is never the only cue: the words say it.
 */
export function CalibrationChip({
  state,
  due,
  timeZone,
}: {
  state: TCalibrationState | undefined;
  due: string | null | undefined;
  timeZone: string;
}) {
  const s = state ?? 'NONE';
  const label = CALIBRATION_STATE_LABELS[s];
  const date = due ? formatDate(due, timeZone) : null;
  const text = date ? `${label} · ${date}` : label;
  const aria = date
    ? `Calibration ${label.toLowerCase()}, ${s === 'EXPIRED' ? 'expired on' : 'due'} ${date}`
    : `Calibration: ${label.toLowerCase()}`;
  switch (s) {
    case 'VALID':
      return (
        <Chip
          size="small"
          color="success"
          variant="outlined"
          icon={<CheckCircleOutlined />}
          label={text}
          aria-label={aria}
          sx={chipSx}
        />
      );
    case 'DUE_SOON':
      return (
        <Chip
          size="small"
          icon={<ScheduleOutlined />}
          label={text}
          aria-label={aria}
          // Amber with dark text: white on amber is below the contrast the app keeps.
          sx={{
            ...chipSx,
            bgcolor: 'warning.light',
            color: 'text.primary',
            '& .MuiChip-icon': { ml: '6px', color: 'text.primary' },
          }}
        />
      );
    case 'EXPIRED':
      return (
        <Chip
          size="small"
          color="error"
          icon={<EventBusyOutlined />}
          label={text}
          aria-label={aria}
          sx={chipSx}
        />
      );
    default:
      return <Chip size="small" variant="outlined" label={text} aria-label={aria} />;
  }
}
