import { timeZoneAbbreviation, timeZoneLabel } from '@coldtrace/domain';
import ScheduleOutlined from '@mui/icons-material/ScheduleOutlined';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useAppSettings } from '../../../lib/app-settings';

/** The user's zone as the page shows it once: `Europe/Paris (CET)`, `UTC`. */
export function timeZoneText(timeZone: string, now: number): string {
  const abbreviation = timeZoneAbbreviation(timeZone, now);
  const label = timeZoneLabel(timeZone);
  return abbreviation === label || abbreviation === '—' ? label : `${label} (${abbreviation})`;
}

/**
 * "Times in Europe/Paris (CET)": shown once per page, so the dates of the
 * page need no zone of their own (spec section 9, ui.md).
 */
export function TimeZoneNote({ prefix = 'Times in' }: { prefix?: string }) {
  const { timeZone } = useAppSettings();
  const [now] = useState(() => Date.now());
  return (
    <Stack
      component="span"
      direction="row"
      spacing={0.75}
      sx={{ display: 'inline-flex', alignItems: 'center', color: 'text.secondary' }}
      data-testid="time-zone-note"
    >
      <ScheduleOutlined sx={{ fontSize: 16 }} aria-hidden />
      <Typography variant="caption" component="span">
        {prefix} {timeZoneText(timeZone, now)}
      </Typography>
    </Stack>
  );
}
