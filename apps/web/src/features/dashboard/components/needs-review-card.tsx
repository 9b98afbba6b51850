import type { TReviewStateFilter } from '@coldtrace/contract';
import FactCheckOutlined from '@mui/icons-material/FactCheckOutlined';
import CardActionArea from '@mui/material/CardActionArea';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { ValueLoading } from '../../../components/page-loading';
import { livePollMs } from '../../../lib/live-updates';
import { recordsWithReviewState, useRecords, type RecordsQuery } from '../../records';

const NEEDS_REVIEW: TReviewStateFilter = 'NEEDS_REVIEW';

/**
 * The count asked of the server: one row of All Records filtered by
 * NEEDS_REVIEW; the number is the list's total (x-total-count).
 */
export const NEEDS_REVIEW_QUERY: RecordsQuery = {
  review_state: NEEDS_REVIEW,
  page_number: 1,
  page_size: 1,
};

export const NEEDS_REVIEW_HREF = recordsWithReviewState(NEEDS_REVIEW);

/**
 * "Needs review" (issue 14 item 1): the organization's records with an alarm
 * awaiting acknowledgement or without a release decision, whenever created;
 * opens All Records filtered by it.
 */
/**
 * The count reads every record of the organization (docs/decisions/review-queue.md):
 * asked at most once a minute while the dashboard is open, not at the live 10 s.
 */
const REVIEW_COUNT_POLL_MS = 60_000;

export function NeedsReviewCard() {
  const records = useRecords(NEEDS_REVIEW_QUERY, {
    refetchInterval: Math.max(livePollMs(), REVIEW_COUNT_POLL_MS),
  });
  const count = records.data?.totalCount;
  const pending = (count ?? 0) > 0;
  return (
    <Paper
      variant="outlined"
      sx={{
        overflow: 'hidden',
        borderLeft: 4,
        borderLeftColor: pending ? 'warning.main' : 'divider',
      }}
    >
      <CardActionArea
        component={RouterLink}
        to={NEEDS_REVIEW_HREF}
        title="Show the records that need review"
        sx={{ p: { xs: 1.5, sm: 2 } }}
      >
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
          <FactCheckOutlined color={pending ? 'warning' : 'disabled'} aria-hidden />
          <Stack sx={{ minWidth: 0 }}>
            <Typography variant="body2" color="text.secondary" sx={{ fontWeight: 600 }}>
              Needs review
            </Typography>
            <Typography
              variant="h4"
              component="p"
              sx={{ fontVariantNumeric: 'tabular-nums', lineHeight: 1.2 }}
            >
              {records.isPending ? (
                <ValueLoading width={64} />
              ) : records.isError ? (
                '—'
              ) : (
                (count ?? 0).toLocaleString('en-US')
              )}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              Records with alarms awaiting acknowledgement or without a release decision, all dates.
            </Typography>
          </Stack>
        </Stack>
      </CardActionArea>
    </Paper>
  );
}
