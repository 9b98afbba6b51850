import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import dayjs, { type Dayjs } from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';
import { useState } from 'react';
import { addDays, todayInZone } from '../../../components/server-grid/zoned-day';

dayjs.extend(utc);
dayjs.extend(timezone);

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

function toDay(value: Dayjs | null): string | null | 'invalid' {
  if (value === null) return null;
  return value.isValid() ? value.format('YYYY-MM-DD') : 'invalid';
}

/**
 * The date range of the statistics: two date pickers (days in the user's
 * zone), quick ranges and 'All time'. Half-typed dates stay in the fields;
 * only whole days (or an empty field) reach `onChange`.
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
  const source = `${period.from ?? ''}|${period.to ?? ''}`;
  const toValue = (day: string | null) => (day ? dayjs.tz(day, timeZone) : null);
  const [local, setLocal] = useState({
    source,
    from: toValue(period.from),
    to: toValue(period.to),
  });
  let fields = local;
  if (local.source !== source) {
    const same = `${toDay(local.from) ?? ''}|${toDay(local.to) ?? ''}` === source;
    fields = same
      ? { ...local, source }
      : { source, from: toValue(period.from), to: toValue(period.to) };
    setLocal(fields);
  }

  const today = todayInZone(timeZone);
  const change = (which: 'from' | 'to', value: Dayjs | null) => {
    const next = { ...fields, [which]: value };
    setLocal(next);
    const from = toDay(next.from);
    const to = toDay(next.to);
    if (from !== 'invalid' && to !== 'invalid') onChange({ from, to });
  };

  const active = (days: number) => period.to === today && period.from === addDays(today, 1 - days);

  return (
    <LocalizationProvider dateAdapter={AdapterDayjs}>
      <Stack spacing={1} sx={{ alignItems: { xs: 'stretch', md: 'flex-end' } }}>
        <Stack
          direction="row"
          spacing={1}
          sx={{ alignItems: 'center', justifyContent: { md: 'flex-end' } }}
        >
          <DatePicker
            label="From"
            value={fields.from}
            timezone={timeZone}
            onChange={(value) => change('from', value)}
            maxDate={toValue(today) ?? undefined}
            slotProps={{
              textField: { size: 'small', sx: { width: { xs: '50%', md: 168 } } },
            }}
          />
          <DatePicker
            label="To"
            value={fields.to}
            timezone={timeZone}
            onChange={(value) => change('to', value)}
            maxDate={toValue(today) ?? undefined}
            slotProps={{
              textField: { size: 'small', sx: { width: { xs: '50%', md: 168 } } },
            }}
          />
        </Stack>
        <Box
          role="group"
          aria-label="Quick ranges"
          sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, justifyContent: { md: 'flex-end' } }}
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
    </LocalizationProvider>
  );
}
