import {
  REVIEW_STATE_FILTERS,
  REVIEW_STATE_LABELS,
  type TReviewStateFilter,
} from '@coldtrace/contract';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useChoiceParam } from './choice-param';
import { ALL_RECORDS_PATH } from '../record-links';

/** The URL parameter of All Records' review state filter (issue 14 item 1). */
export const REVIEW_STATE_PARAM = 'review_state';

export const REVIEW_STATE_FILTER_LABELS: Readonly<Record<TReviewStateFilter, string>> = {
  NEEDS_REVIEW: 'Needs review (acknowledgement or decision)',
  ...REVIEW_STATE_LABELS,
};

/** The review state filter a URL's search string names, when it is one. */
export function reviewStateFilterOf(search: URLSearchParams): TReviewStateFilter | undefined {
  const raw = search.get(REVIEW_STATE_PARAM);
  return (REVIEW_STATE_FILTERS as readonly string[]).includes(raw ?? '')
    ? (raw as TReviewStateFilter)
    : undefined;
}

/** All Records' link filtered by a review state (the dashboard's Needs review card). */
export function recordsWithReviewState(filter: TReviewStateFilter): string {
  return `${ALL_RECORDS_PATH}?${new URLSearchParams({ [REVIEW_STATE_PARAM]: filter }).toString()}`;
}

/** The `review_state` of the URL, and its setter. */
export function useReviewStateFilter(): [
  TReviewStateFilter | undefined,
  (value: TReviewStateFilter | undefined) => void,
] {
  return useChoiceParam(REVIEW_STATE_PARAM, REVIEW_STATE_FILTERS);
}

/** "Review state": any, needs review, or one state. */
export function ReviewStateFilter({
  value,
  onChange,
}: {
  value: TReviewStateFilter | undefined;
  onChange: (value: TReviewStateFilter | undefined) => void;
}) {
  return (
    <TextField
      select
      size="small"
      label="Review state"
      value={value ?? ''}
      onChange={(event) =>
        onChange(event.target.value === '' ? undefined : (event.target.value as TReviewStateFilter))
      }
      sx={{ minWidth: 200, alignSelf: 'flex-start' }}
      slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
    >
      <MenuItem value="">Any</MenuItem>
      {(['NEEDS_REVIEW', ...REVIEW_STATE_FILTERS.filter((f) => f !== 'NEEDS_REVIEW')] as const).map(
        (f) => (
          <MenuItem key={f} value={f}>
            {REVIEW_STATE_FILTER_LABELS[f]}
          </MenuItem>
        ),
      )}
    </TextField>
  );
}
