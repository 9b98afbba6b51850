import type { TAuditReviewPeriodSummary } from '@coldtrace/contract';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { periodLabel, periodStateText, REVIEW_STATE_LABELS } from '../display';
import { ReviewStateChip } from './chips';

/**
 * The last 12 months, newest first, each with its state in a chip and in words
 * (`Overdue since 06/30/2026`, `Closed by … on …`). Desktop: a list beside the
 * review; phone: a select above it.
 */
export function PeriodList({
  periods,
  selected,
  timeZone,
  onSelect,
}: {
  periods: readonly TAuditReviewPeriodSummary[] | undefined;
  selected: string | undefined;
  timeZone: string;
  onSelect: (period: string) => void;
}) {
  const headingId = useId();
  return (
    <Paper variant="outlined" component="nav" aria-labelledby={headingId}>
      <Typography id={headingId} variant="h2" sx={{ px: 2, pt: 1.5, pb: 0.5, fontSize: '1rem' }}>
        Months
      </Typography>
      {periods === undefined ? (
        <Stack spacing={1} sx={{ p: 2 }} role="status" aria-label="Loading the months">
          {Array.from({ length: 6 }, (_, i) => (
            <Skeleton key={i} variant="rounded" height={48} />
          ))}
        </Stack>
      ) : (
        <List dense disablePadding>
          {periods.map((p) => (
            <ListItem key={p.period} disablePadding>
              <ListItemButton
                selected={p.period === selected}
                aria-current={p.period === selected ? 'page' : undefined}
                onClick={() => onSelect(p.period)}
                sx={{ py: 0.75 }}
              >
                <ListItemText
                  disableTypography
                  primary={
                    <Stack
                      direction="row"
                      spacing={1}
                      sx={{ alignItems: 'center', justifyContent: 'space-between' }}
                    >
                      <Typography variant="body2" component="span" sx={{ fontWeight: 600 }}>
                        {periodLabel(p.period)}
                      </Typography>
                      <ReviewStateChip state={p.state} />
                    </Stack>
                  }
                  secondary={
                    <Typography
                      variant="body2"
                      component="span"
                      sx={{
                        display: 'block',
                        mt: 0.25,
                        ...(p.state === 'overdue'
                          ? { color: 'error.main', fontWeight: 600 }
                          : { color: 'text.secondary' }),
                      }}
                    >
                      {periodStateText(p, timeZone)}
                    </Typography>
                  }
                />
              </ListItemButton>
            </ListItem>
          ))}
        </List>
      )}
    </Paper>
  );
}

/** The phone's month picker: the month and its state in words. */
export function PeriodSelect({
  periods,
  selected,
  onSelect,
}: {
  periods: readonly TAuditReviewPeriodSummary[] | undefined;
  selected: string | undefined;
  onSelect: (period: string) => void;
}) {
  if (periods === undefined) return <Skeleton variant="rounded" height={56} />;
  return (
    <TextField
      select
      label="Month"
      value={selected ?? ''}
      onChange={(event) => onSelect(event.target.value)}
      fullWidth
    >
      {periods.map((p) => (
        <MenuItem key={p.period} value={p.period}>
          {periodLabel(p.period)} — {REVIEW_STATE_LABELS[p.state]}
        </MenuItem>
      ))}
    </TextField>
  );
}
