import {
  AUDIT_REVIEW_MAX_ENTRIES,
  AUDIT_REVIEW_RISKS,
  ZAuditReviewRisk,
  type TAuditReview,
  type TAuditReviewEntry,
  type TAuditReviewRisk,
} from '@coldtrace/contract';
import { formatDateTime } from '@coldtrace/domain';
import DoneAll from '@mui/icons-material/DoneAll';
import DrawOutlined from '@mui/icons-material/DrawOutlined';
import LockOutlined from '@mui/icons-material/LockOutlined';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useEffect, useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { LoadError } from '../../../components/load-error';
import { Page } from '../../../components/page';
import { useAppSettings } from '../../../lib/app-settings';
import { hasPermission } from '../../../lib/session';
import { TimeZoneNote } from '../../records';
import { useCurrentUser } from '../../session';
import { useReview } from '../api/get-review';
import { useReviewPeriods } from '../api/list-review-periods';
import {
  defaultPeriod,
  entriesText,
  periodLabel,
  periodStateText,
  RISK_FILTER_LABELS,
} from '../display';
import { ReviewStateChip } from './chips';
import { CloseReviewDialog } from './close-review-dialog';
import { MarkDialog } from './mark-dialog';
import { PeriodList, PeriodSelect } from './period-list';
import { ReviewEntries } from './review-entries';

const TITLE = 'Audit Trail Review';

/** The counts of the month in one line: what is listed, what is marked, what is only counted. */
function CountsLine({ review }: { review: TAuditReview }) {
  const { counts } = review;
  const listed = counts.high + counts.medium + counts.low;
  return (
    <Typography variant="body2" color="text.secondary" className="tabular-nums">
      {entriesText(listed)} by people: {counts.high.toLocaleString('en-US')} high,{' '}
      {counts.medium.toLocaleString('en-US')} medium, {counts.low.toLocaleString('en-US')} low risk
      · {counts.reviewed.toLocaleString('en-US')} reviewed
      {counts.unreviewed_high > 0 ? (
        <Box component="strong" sx={{ color: 'error.main' }}>
          {' '}
          · {counts.unreviewed_high.toLocaleString('en-US')} high-risk not reviewed
        </Box>
      ) : null}{' '}
      · {entriesText(counts.system)} by the system (uploads, jobs) counted, not listed
    </Typography>
  );
}

function ClosureNote({ review, timeZone }: { review: TAuditReview; timeZone: string }) {
  const c = review.closure!;
  return (
    <Alert severity="success" variant="outlined">
      <AlertTitle>
        Closed by {c.signed_by} on {formatDateTime(c.signed_at, timeZone)}
      </AlertTitle>
      Signed as Reviewed{c.second_factor ? ` with a second factor (${c.second_factor})` : ''}:{' '}
      {c.comment}. {entriesText(c.entries)} listed, {c.reviewed.toLocaleString('en-US')} marked
      reviewed when closed. A closed review takes no more marks.
    </Alert>
  );
}

function ReviewPanel({
  review,
  query,
  period,
  risk,
  timeZone,
  onRisk,
}: {
  review: TAuditReview | undefined;
  query: ReturnType<typeof useReview>;
  period: string;
  risk: TAuditReviewRisk | undefined;
  timeZone: string;
  onRisk: (risk: TAuditReviewRisk | undefined) => void;
}) {
  const [marking, setMarking] = useState<readonly TAuditReviewEntry[] | null>(null);
  const [closing, setClosing] = useState(false);
  const month = periodLabel(period);

  if (query.isError) {
    return (
      <LoadError
        what={`the review of ${month}`}
        error={query.error}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  }
  if (!review) {
    return (
      <Stack spacing={1.5} role="status" aria-label={`Loading the review of ${month}`}>
        <Skeleton variant="rounded" height={40} />
        <Skeleton variant="rounded" height={96} />
        <Skeleton variant="rounded" height={96} />
      </Stack>
    );
  }

  const open = review.state !== 'closed';
  const listed = review.counts.high + review.counts.medium + review.counts.low;
  const shownCount = risk === undefined ? listed : review.counts[risk];
  const unmarked = review.entries.filter((e) => e.review === null);

  let list;
  if (listed === 0) {
    list = (
      <EmptyState>
        No entries by people in {month}
        {review.state === 'open' ? ' yet' : ''}: nothing to review.
        {review.state !== 'closed' && review.state !== 'open'
          ? ' You can close the review as it is.'
          : ''}
      </EmptyState>
    );
  } else if (review.entries.length === 0) {
    list = (
      <EmptyState
        action={
          <Button variant="outlined" onClick={() => onRisk(undefined)}>
            Show every risk
          </Button>
        }
      >
        No {RISK_FILTER_LABELS[risk!].toLowerCase()}-risk entries in {month}.
      </EmptyState>
    );
  } else {
    list = (
      <ReviewEntries
        label={`Entries of ${month}`}
        entries={review.entries}
        timeZone={timeZone}
        canMark={open}
        onMark={(entry) => setMarking([entry])}
      />
    );
  }

  return (
    <Stack spacing={2} component="section" aria-label={`Review of ${month}`}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1}
        sx={{ alignItems: { xs: 'flex-start', sm: 'center' }, justifyContent: 'space-between' }}
      >
        <Box sx={{ minWidth: 0 }}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
            <Typography variant="h2" sx={{ fontSize: '1.25rem' }}>
              {month}
            </Typography>
            <ReviewStateChip state={review.state} />
          </Stack>
          {review.closure ? null : (
            <Typography
              variant="body2"
              sx={
                review.state === 'overdue'
                  ? { color: 'error.main', fontWeight: 600 }
                  : { color: 'text.secondary' }
              }
            >
              {periodStateText(review, timeZone)}
            </Typography>
          )}
        </Box>
        {open ? (
          <Button variant="contained" startIcon={<DrawOutlined />} onClick={() => setClosing(true)}>
            Close review
          </Button>
        ) : null}
      </Stack>
      {review.closure ? <ClosureNote review={review} timeZone={timeZone} /> : null}
      <CountsLine review={review} />
      {listed > 0 ? (
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={1}
          sx={{ alignItems: { xs: 'stretch', sm: 'center' }, justifyContent: 'space-between' }}
        >
          <ToggleButtonGroup
            size="small"
            exclusive
            aria-label="Risk"
            value={risk ?? 'all'}
            onChange={(_event, value: string | null) => {
              if (value === null) return;
              onRisk(value === 'all' ? undefined : ZAuditReviewRisk.parse(value));
            }}
            sx={{ flexWrap: 'wrap' }}
          >
            <ToggleButton value="all">All ({listed.toLocaleString('en-US')})</ToggleButton>
            {AUDIT_REVIEW_RISKS.map((r) => (
              <ToggleButton key={r} value={r}>
                {RISK_FILTER_LABELS[r]} ({review.counts[r].toLocaleString('en-US')})
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
          {open && unmarked.length > 1 ? (
            <Button
              variant="outlined"
              size="small"
              startIcon={<DoneAll />}
              onClick={() => setMarking(unmarked)}
            >
              Mark all {unmarked.length.toLocaleString('en-US')} shown reviewed
            </Button>
          ) : null}
        </Stack>
      ) : null}
      {list}
      {shownCount > review.entries.length ? (
        <Typography variant="body2" color="text.secondary">
          The first {AUDIT_REVIEW_MAX_ENTRIES.toLocaleString('en-US')} of {entriesText(shownCount)}{' '}
          are shown: mark them, then the next ones appear; or filter by risk.
        </Typography>
      ) : null}
      {marking ? (
        <MarkDialog
          period={period}
          entries={marking}
          timeZone={timeZone}
          onClose={() => setMarking(null)}
        />
      ) : null}
      {closing ? (
        <CloseReviewDialog review={review} timeZone={timeZone} onClose={() => setClosing(false)} />
      ) : null}
    </Stack>
  );
}

/**
 * /audit-review (issue 37 item 6; docs/decisions/audit-review.md): the
 * organization's audit trail month by month for its administrators
 * (sysAdminUser). The months with their state; the chosen month's entries by
 * people ranked by risk with their reasons, filtered by risk, each marked
 * reviewed with a comment; the month closed with a signature. The month and
 * the risk are in the URL (`?period=2026-05&risk=high`).
 */
export function AuditReviewPage() {
  const user = useCurrentUser();
  const allowed = hasPermission(user, 'sysAdminUser');
  const { timeZone } = useAppSettings();
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up('md'), { noSsr: true });
  const [params, setParams] = useSearchParams();
  const periods = useReviewPeriods(allowed);
  const asked = params.get('period');
  const period =
    asked !== null && /^\d{4}-(0[1-9]|1[0-2])$/.test(asked)
      ? asked
      : periods.data
        ? defaultPeriod(periods.data)
        : undefined;
  // The month first shown stays chosen (in the URL): closing it must not move the page on.
  useEffect(() => {
    if (asked === null && period !== undefined) {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.set('period', period);
          return next;
        },
        { replace: true },
      );
    }
  }, [asked, period, setParams]);
  const riskParam = ZAuditReviewRisk.safeParse(params.get('risk'));
  const risk = riskParam.success ? riskParam.data : undefined;
  const review = useReview(allowed ? period : undefined, risk);

  if (!allowed) {
    return (
      <Page title={TITLE}>
        <EmptyState
          icon={<LockOutlined />}
          action={
            <Button component={RouterLink} to="/" variant="outlined">
              Go to the dashboard
            </Button>
          }
        >
          The audit trail is reviewed by the user administrators of this organization.
        </EmptyState>
      </Page>
    );
  }

  const choose = (next: { period?: string; risk?: TAuditReviewRisk | undefined }) => {
    const search = new URLSearchParams();
    const p = next.period ?? period;
    if (p) search.set('period', p);
    const r = 'risk' in next ? next.risk : risk;
    if (r) search.set('risk', r);
    setParams(search, { replace: false });
  };

  let panel;
  if (periods.isError) {
    panel = (
      <LoadError
        what="the months to review"
        error={periods.error}
        onRetry={() => void periods.refetch()}
        retrying={periods.isFetching}
      />
    );
  } else if (period === undefined) {
    panel = (
      <Stack spacing={1.5} role="status" aria-label="Loading the review">
        <Skeleton variant="rounded" height={40} />
        <Skeleton variant="rounded" height={96} />
      </Stack>
    );
  } else {
    panel = (
      <ReviewPanel
        key={period}
        review={review.data}
        query={review}
        period={period}
        risk={risk}
        timeZone={timeZone}
        onRisk={(r) => choose({ risk: r })}
      />
    );
  }

  return (
    <Page
      title={TITLE}
      subtitle="Each month of your organization's audit trail, ranked by risk: mark the entries you have checked, then close the month with your signature. Months are calendar months in UTC."
      actions={
        <Box sx={{ flexShrink: 0 }}>
          <TimeZoneNote />
        </Box>
      }
    >
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: '300px minmax(0, 1fr)' },
          alignItems: 'start',
        }}
      >
        {wide ? (
          <PeriodList
            periods={periods.data}
            selected={period}
            timeZone={timeZone}
            onSelect={(p) => choose({ period: p, risk: undefined })}
          />
        ) : (
          <PeriodSelect
            periods={periods.data}
            selected={period}
            onSelect={(p) => choose({ period: p, risk: undefined })}
          />
        )}
        {panel}
      </Box>
    </Page>
  );
}
