import { timeZoneLabel, timeZoneOptions } from '@coldtrace/domain';
import Divider from '@mui/material/Divider';
import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import { useId, useMemo } from 'react';
import { browserTimeZone } from '../../../lib/browser';

/**
 * The time zone dropdown (spec section 2): UTC and the browser's own zone
 * first, then a divider, then the other supported zones; underscores are shown
 * as spaces.
 */
export function TimeZoneSelect({
  value,
  onChange,
  disabled,
}: {
  value: string;
  onChange: (timeZone: string) => void;
  disabled?: boolean;
}) {
  const labelId = useId();
  const { first, rest } = useMemo(() => timeZoneOptions(browserTimeZone()), []);
  return (
    <FormControl fullWidth disabled={disabled}>
      <InputLabel id={labelId}>Time zone</InputLabel>
      <Select
        labelId={labelId}
        label="Time zone"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        MenuProps={{ slotProps: { paper: { sx: { maxHeight: 360 } } } }}
      >
        {first.map((zone) => (
          <MenuItem key={zone} value={zone}>
            {timeZoneLabel(zone)}
          </MenuItem>
        ))}
        <Divider component="li" role="separator" />
        {rest.map((zone) => (
          <MenuItem key={zone} value={zone}>
            {timeZoneLabel(zone)}
          </MenuItem>
        ))}
      </Select>
    </FormControl>
  );
}
