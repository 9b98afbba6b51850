import type { TAuditReviewRisk } from '@coldtrace/contract';
import ErrorOutline from '@mui/icons-material/ErrorOutlineOutlined';
import HourglassEmptyOutlined from '@mui/icons-material/HourglassEmptyOutlined';
import InfoOutlined from '@mui/icons-material/InfoOutlined';
import ReportOutlined from '@mui/icons-material/ReportOutlined';
import ScheduleOutlined from '@mui/icons-material/ScheduleOutlined';
import TaskAltOutlined from '@mui/icons-material/TaskAltOutlined';
import WarningAmberOutlined from '@mui/icons-material/WarningAmberOutlined';
import Chip from '@mui/material/Chip';
import type { ComponentType, CSSProperties } from 'react';
import {
  REVIEW_STATE_LABELS,
  RISK_CHIP_COLOURS,
  RISK_LABELS,
  STATE_CHIP_COLOURS,
  type ChipColours,
  type ReviewState,
} from '../display';

type Icon = ComponentType<{ style?: CSSProperties }>;

const RISK_ICONS: Record<TAuditReviewRisk, Icon> = {
  high: ReportOutlined,
  medium: WarningAmberOutlined,
  low: InfoOutlined,
};

const STATE_ICONS: Record<ReviewState, Icon> = {
  open: HourglassEmptyOutlined,
  due: ScheduleOutlined,
  overdue: ErrorOutline,
  closed: TaskAltOutlined,
};

function ColouredChip({
  label,
  colours,
  Icon,
}: {
  label: string;
  colours: ChipColours;
  Icon: Icon;
}) {
  return (
    <Chip
      size="small"
      // The icon in the chip's text colour (inline: the default chip's grey icon rule wins over sx).
      icon={<Icon style={{ color: colours.text }} />}
      label={label}
      sx={{
        fontWeight: 600,
        bgcolor: colours.background,
        color: colours.text,
        border: 1,
        borderColor: colours.border,
        '& .MuiChip-icon': { ml: '6px' },
      }}
    />
  );
}

/** `High risk` (red), `Medium risk` (amber), `Low risk` (grey), each with its icon. */
export function RiskChip({ risk }: { risk: TAuditReviewRisk }) {
  return (
    <ColouredChip
      label={RISK_LABELS[risk]}
      colours={RISK_CHIP_COLOURS[risk]}
      Icon={RISK_ICONS[risk]}
    />
  );
}

/** `Open`, `Due`, `Overdue` (red), `Closed` (green), each with its icon. */
export function ReviewStateChip({ state }: { state: ReviewState }) {
  return (
    <ColouredChip
      label={REVIEW_STATE_LABELS[state]}
      colours={STATE_CHIP_COLOURS[state]}
      Icon={STATE_ICONS[state]}
    />
  );
}
