import {
  DISPOSITION_DECISION_LABELS,
  DISPOSITION_FILTERS,
  type TDispositionFilter,
} from '@coldtrace/contract';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useChoiceParam } from './choice-param';

/** The URL parameter of All Records' release decision filter. */
export const DISPOSITION_PARAM = 'disposition';

/** How each choice of the Release decision filter reads. */
export const DISPOSITION_FILTER_LABELS: Readonly<Record<TDispositionFilter, string>> = {
  ...DISPOSITION_DECISION_LABELS,
  NONE: 'No decision yet',
};

/** The `disposition` of the URL (All Records' release decision filter), when it is one. */
export function useDispositionFilter(): [
  TDispositionFilter | undefined,
  (value: TDispositionFilter | undefined) => void,
] {
  return useChoiceParam(DISPOSITION_PARAM, DISPOSITION_FILTERS);
}

/** "Release decision": any, released, quarantined, rejected or none yet. */
export function DispositionFilter({
  value,
  onChange,
}: {
  value: TDispositionFilter | undefined;
  onChange: (value: TDispositionFilter | undefined) => void;
}) {
  return (
    <TextField
      select
      size="small"
      label="Release decision"
      value={value ?? ''}
      onChange={(event) =>
        onChange(event.target.value === '' ? undefined : (event.target.value as TDispositionFilter))
      }
      sx={{ minWidth: 200, alignSelf: 'flex-start' }}
      slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
    >
      <MenuItem value="">Any</MenuItem>
      {DISPOSITION_FILTERS.map((f) => (
        <MenuItem key={f} value={f}>
          {DISPOSITION_FILTER_LABELS[f]}
        </MenuItem>
      ))}
    </TextField>
  );
}
