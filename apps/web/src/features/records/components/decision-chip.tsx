import { DISPOSITION_DECISION_LABELS, type TDispositionDecision } from '@coldtrace/contract';
import DoNotDisturbOnOutlined from '@mui/icons-material/DoNotDisturbOnOutlined';
import GppMaybeOutlined from '@mui/icons-material/GppMaybeOutlined';
import VerifiedOutlined from '@mui/icons-material/VerifiedOutlined';
import Chip from '@mui/material/Chip';
import type { ReactElement } from 'react';

/**
 * A record's current release decision (issue 35): Released green, Quarantined
 * amber, Rejected red, each with an icon and its word (colour is never the only
 * signal). Text and background pass WCAG AA (4.5:1; `decision-chip.test.ts`).
 */
export const DECISION_CHIP_COLOURS: Readonly<
  Record<TDispositionDecision, { background: string; text: string; border: string }>
> = {
  RELEASED: { background: '#2e7d32', text: '#ffffff', border: '#2e7d32' },
  QUARANTINED: { background: '#fff3e0', text: '#7a3e00', border: '#b26a00' },
  REJECTED: { background: '#c62828', text: '#ffffff', border: '#c62828' },
};

/** The icon in the chip's text colour (inline: the default chip's grey icon rule wins over sx). */
function icon(decision: TDispositionDecision): ReactElement {
  const style = { color: DECISION_CHIP_COLOURS[decision].text };
  switch (decision) {
    case 'RELEASED':
      return <VerifiedOutlined style={style} />;
    case 'QUARANTINED':
      return <GppMaybeOutlined style={style} />;
    case 'REJECTED':
      return <DoNotDisturbOnOutlined style={style} />;
  }
}

export function DecisionChip({
  decision,
  size = 'small',
}: {
  decision: TDispositionDecision;
  size?: 'small' | 'medium';
}) {
  const colours = DECISION_CHIP_COLOURS[decision];
  return (
    <Chip
      size={size}
      icon={icon(decision)}
      label={DISPOSITION_DECISION_LABELS[decision]}
      title={`Release decision: ${DISPOSITION_DECISION_LABELS[decision]}`}
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
