import { TIME_ZONE_ALIASES, timeZoneLabel, timeZoneOptions } from '@coldtrace/domain';
import Autocomplete, { createFilterOptions } from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import { useMemo } from 'react';
import { browserTimeZone } from '../lib/browser';

/** A zone's offset from UTC now, as `UTC+05:30` (`UTC+00:00` for UTC); '' when unknown. */
export function utcOffset(timeZone: string, at: Date = new Date()): string {
  try {
    const name =
      new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
        .formatToParts(at)
        .find((part) => part.type === 'timeZoneName')?.value ?? '';
    const offset = name.replace(/^GMT/, '');
    return offset === '' ? 'UTC+00:00' : `UTC${offset}`;
  } catch {
    return '';
  }
}

const SUGGESTED = 'Suggested time zones';
const OTHERS = 'Other time zones';

/**
 * The time zone dropdown (spec section 2, "Time zone dropdown") as a searchable
 * list: UTC and the browser's own zone first, a separator line (the border of
 * the second group, not an option), then the other supported zones;
 * underscores shown as spaces. Typing filters by name, by UTC offset
 * ("+05:30") and by the other names of a zone ("Kolkata" finds Asia/Calcutta).
 * With `noneLabel`, a first entry with the value '' leaves the zone unset.
 */
export function TimeZoneAutocomplete({
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
  const { options, first, offsets, filterOptions } = useMemo(() => {
    const { first: firstZones, rest } = timeZoneOptions(browserTimeZone());
    const aliases = new Map<string, string[]>();
    for (const [alias, zone] of Object.entries(TIME_ZONE_ALIASES)) {
      aliases.set(zone, [...(aliases.get(zone) ?? []), alias]);
    }
    const offsetOf = new Map<string, string>();
    const searchText = new Map<string, string>();
    for (const zone of [...firstZones, ...rest]) {
      const offset = utcOffset(zone);
      offsetOf.set(zone, offset);
      const others = aliases.get(zone) ?? [];
      searchText.set(
        zone,
        [zone, timeZoneLabel(zone), offset, ...others, ...others.map(timeZoneLabel)].join(' '),
      );
    }
    return {
      options: [...(noneLabel !== undefined ? [''] : []), ...firstZones, ...rest],
      first: new Set(['', ...firstZones]),
      offsets: offsetOf,
      filterOptions: createFilterOptions<string>({
        stringify: (zone) => (zone === '' ? (noneLabel ?? '') : (searchText.get(zone) ?? zone)),
      }),
    };
  }, [noneLabel]);
  // A stored zone outside the list (set before the list existed) is still shown.
  const allOptions = options.includes(value) ? options : [value, ...options];

  return (
    <Autocomplete
      fullWidth
      disableClearable
      autoHighlight
      options={allOptions}
      value={value}
      onChange={(_event, next) => {
        if (next !== null && next !== value) onChange(next);
      }}
      disabled={disabled}
      filterOptions={filterOptions}
      getOptionLabel={(zone) => (zone === '' ? (noneLabel ?? '') : timeZoneLabel(zone))}
      groupBy={(zone) => (first.has(zone) || !options.includes(zone) ? SUGGESTED : OTHERS)}
      renderGroup={(params) => (
        <Box
          component="li"
          key={params.key}
          role="group"
          aria-label={params.group}
          // The separator: a line above the second group, none when a search leaves one group.
          sx={{
            '&:not(:first-of-type)': { borderTop: 1, borderColor: 'divider', mt: 0.5, pt: 0.5 },
          }}
        >
          <Box component="ul" role="presentation" sx={{ p: 0, m: 0 }}>
            {params.children}
          </Box>
        </Box>
      )}
      renderOption={(props, zone) => {
        const { key, ...rest } = props;
        return (
          <Box component="li" key={key} {...rest} sx={{ gap: 2, justifyContent: 'space-between' }}>
            <span>{zone === '' ? <em>{noneLabel}</em> : timeZoneLabel(zone)}</span>
            {zone === '' ? null : (
              <Box component="span" sx={{ color: 'text.secondary', fontSize: '0.85em' }}>
                {offsets.get(zone) ?? utcOffset(zone)}
              </Box>
            )}
          </Box>
        );
      }}
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          error={Boolean(error)}
          helperText={error ?? helperText}
          placeholder={noneLabel}
          slotProps={{
            ...params.slotProps,
            inputLabel:
              noneLabel !== undefined
                ? { ...params.slotProps.inputLabel, shrink: true }
                : params.slotProps.inputLabel,
          }}
        />
      )}
    />
  );
}
