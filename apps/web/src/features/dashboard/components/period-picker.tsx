import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { OutlinedTextField } from '../../../components/outlined-text-field';
import { addDays, todayInZone } from '../../../components/server-grid/zoned-day';

export interface Period {
  from: string | null;
  to: string | null;
}

const PRESETS = [
  { label: 'Today', days: 1 },
  { label: '7 days', days: 7 },
  { label: '30 days', days: 30 },
  { label: '90 days', days: 90 },
] as const;

/**
 * The date range of the statistics: two date fields (days in the user's
 * zone, `YYYY-MM-DD`), quick ranges and 'All time'. The browser's own date
 * input (a calendar on phones, typing on desktops) keeps the dashboard's
 * first load light: no date-picker library on the first route. A field the
 * browser cannot read as a whole day is empty, which means "open-ended".
 */
export function PeriodPicker({
  period,
  timeZone,
  onChange,
  message,
}: {
  period: Period;
  timeZone: string;
  onChange: (period: Period) => void;
  message?: string;
}) {
  const today = todayInZone(timeZone);
  const change = (which: 'from' | 'to', value: string) => {
    onChange({ ...period, [which]: value === '' ? null : value });
  };

  const active = (days: number) => period.to === today && period.from === addDays(today, 1 - days);

  return (
    <Stack spacing={1} sx={{ alignItems: { xs: 'stretch', md: 'flex-end' } }}>
      <Stack
        direction="row"
        spacing={1}
        sx={{ alignItems: 'center', justifyContent: { md: 'flex-end' } }}
      >
        <OutlinedTextField
          type="date"
          label="From"
          size="small"
          value={period.from ?? ''}
          onChange={(event) => change('from', event.target.value)}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: today } }}
          sx={{ width: { xs: '50%', md: 168 } }}
        />
        <OutlinedTextField
          type="date"
          label="To"
          size="small"
          value={period.to ?? ''}
          onChange={(event) => change('to', event.target.value)}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: today } }}
          sx={{ width: { xs: '50%', md: 168 } }}
        />
      </Stack>
      <Box
        role="group"
        aria-label="Quick ranges"
        // Phones: the five ranges share one row (no lone 'All time' on a second line).
        sx={{
          display: 'flex',
          flexWrap: { xs: 'nowrap', md: 'wrap' },
          gap: 0.5,
          justifyContent: { md: 'flex-end' },
          '& > .MuiButton-root': { flex: { xs: '1 1 0', md: '0 0 auto' }, whiteSpace: 'nowrap' },
        }}
      >
        {PRESETS.map((preset) => (
          <Button
            key={preset.label}
            size="small"
            variant={active(preset.days) ? 'contained' : 'text'}
            aria-pressed={active(preset.days)}
            onClick={() => onChange({ from: addDays(today, 1 - preset.days), to: today })}
            sx={{ minWidth: 0, px: 1 }}
          >
            {preset.label}
          </Button>
        ))}
        <Button
          size="small"
          variant={period.from || period.to ? 'text' : 'contained'}
          aria-pressed={!period.from && !period.to}
          onClick={() => onChange({ from: null, to: null })}
          sx={{ minWidth: 0, px: 1 }}
        >
          All time
        </Button>
      </Box>
      {message ? (
        <Typography variant="body2" color="error" role="alert">
          {message}
        </Typography>
      ) : null}
    </Stack>
  );
}
