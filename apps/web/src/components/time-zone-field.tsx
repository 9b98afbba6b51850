import { timeZoneLabel, timeZoneOptions } from '@coldtrace/domain';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useMemo } from 'react';
import { browserTimeZone } from '../lib/browser';
import { MenuDivider } from './menu-divider';

/**
 * A time zone input for forms (spec section 2, "Time zone dropdown"): UTC
 * and the browser's own zone first, a divider, then the other supported
 * zones, underscores shown as spaces. With `noneLabel`, a first entry with
 * the value '' lets the user leave the zone unset. Shows helper or error text.
 */
export function TimeZoneField({
  value,
  onChange,
  label = 'Time zone',
  noneLabel,
  error,
  helperText,
  disabled,
}: {
  value: string;
  onChange: (timeZone: string) => void;
  label?: string;
  noneLabel?: string;
  error?: string;
  helperText?: string;
  disabled?: boolean;
}) {
  const { first, rest } = useMemo(() => timeZoneOptions(browserTimeZone()), []);
  const known = value === '' || first.includes(value) || rest.includes(value);
  return (
    <TextField
      select
      fullWidth
      label={label}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      error={Boolean(error)}
      helperText={error ?? helperText}
      disabled={disabled}
      slotProps={{
        select: {
          displayEmpty: noneLabel !== undefined,
          MenuProps: { slotProps: { paper: { sx: { maxHeight: 360 } } } },
        },
        inputLabel: noneLabel !== undefined ? { shrink: true } : undefined,
      }}
    >
      {noneLabel !== undefined ? (
        <MenuItem value="">
          <em>{noneLabel}</em>
        </MenuItem>
      ) : null}
      {known ? null : <MenuItem value={value}>{timeZoneLabel(value)}</MenuItem>}
      {first.map((zone) => (
        <MenuItem key={zone} value={zone}>
          {timeZoneLabel(zone)}
        </MenuItem>
      ))}
      <MenuDivider />
      {rest.map((zone) => (
        <MenuItem key={zone} value={zone}>
          {timeZoneLabel(zone)}
        </MenuItem>
      ))}
    </TextField>
  );
}
