import EastOutlined from '@mui/icons-material/EastOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import Skeleton from '@mui/material/Skeleton';
import { Suspense, lazy, useId, useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { useUpdateSearch } from '../../lib/url-search';
import { LoadError } from '../../components/load-error';
import { Page } from '../../components/page';
import { useAppSettings } from '../../lib/app-settings';
import { loadChunk } from '../../lib/chunk-load';
import { hasPermission, sessionOrganization } from '../../lib/session';
import {
  ALL_RECORDS_PATH,
  SerialLookupBox,
  TimeZoneNote,
  serialLookupMessage,
  type SerialLookupFailure,
} from '../records';
import { useCurrentUser } from '../session';
import { useStatistics } from './api/get-statistics';
import { HomeList } from './components/home-list';
import { NeedsReviewCard } from './components/needs-review-card';
import type { Period } from './components/period-picker';
import { StatisticCards } from './components/statistic-cards';
import { statisticCards, statisticsRange } from './statistics';

// The date pickers load after the rest of the page: the numbers and the list come first.
const PeriodPicker = lazy(() =>
  loadChunk(() => import('./components/period-picker')).then((module) => ({
    default: module.PeriodPicker,
  })),
);

function PeriodPickerPlaceholder() {
  return (
    <Stack spacing={1} sx={{ alignItems: { md: 'flex-end' } }} aria-hidden>
      <Stack direction="row" spacing={1}>
        <Skeleton variant="rounded" height={40} sx={{ width: { xs: '50%', md: 168 } }} />
        <Skeleton variant="rounded" height={40} sx={{ width: { xs: '50%', md: 168 } }} />
      </Stack>
      <Skeleton variant="text" width={260} />
    </Stack>
  );
}

const FROM_PARAM = 'from';
const TO_PARAM = 'to';

function SectionHeading({ id, children }: { id: string; children: string }) {
  return (
    <Typography id={id} variant="h2" sx={{ fontSize: '1.125rem' }}>
      {children}
    </Typography>
  );
}

/**
 * / : the dashboard. The serial-number lookup, the record statistics (the
 * whole organization, or the records created in a date range), and the home
 * list of the 20 records with the latest action.
 */
export function DashboardPage() {
  const user = useCurrentUser();
  const { timeZone } = useAppSettings();
  const [params] = useSearchParams();
  const updateSearch = useUpdateSearch();
  const [lookupFailure, setLookupFailure] = useState<SerialLookupFailure | null>(null);
  const lookupId = useId();
  const statisticsId = useId();
  const latestId = useId();

  const name = user?.first_name?.trim() || user?.username;
  const organization = sessionOrganization(user);

  const period: Period = { from: params.get(FROM_PARAM), to: params.get(TO_PARAM) };
  const range = statisticsRange(period.from, period.to, timeZone);
  const statistics = useStatistics(range.kind === 'range' ? range.query : null);
  const cards = statisticCards(range.kind === 'range' ? range.days : null, {
    canSeeDevices: hasPermission(user, 'sysAdminUser'),
  });

  const setPeriod = (next: Period) =>
    updateSearch((previous) => {
      const search = new URLSearchParams(previous);
      for (const [key, value] of [
        [FROM_PARAM, next.from],
        [TO_PARAM, next.to],
      ] as const) {
        if (value) search.set(key, value);
        else search.delete(key);
      }
      return search;
    });

  return (
    <Page
      title="Dashboard"
      subtitle={
        name
          ? `Welcome to Coldtrace, ${name}${organization ? ` (${organization.name})` : ''}.`
          : 'Welcome to Coldtrace.'
      }
    >
      <Stack spacing={3}>
        <Paper
          component="section"
          aria-labelledby={lookupId}
          variant="outlined"
          sx={{ p: { xs: 2, sm: 2.5 } }}
        >
          <SectionHeading id={lookupId}>Find a shipment by its tag</SectionHeading>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5, mb: 1.5 }}>
            Opens the latest record of the tag with this serial number or tag id.
          </Typography>
          <SerialLookupBox
            onError={setLookupFailure}
            errorText={lookupFailure ? serialLookupMessage(lookupFailure) : null}
          />
        </Paper>

        <NeedsReviewCard />

        <Box component="section" aria-labelledby={statisticsId}>
          <Stack
            direction={{ xs: 'column', md: 'row' }}
            spacing={1.5}
            sx={{ justifyContent: 'space-between', alignItems: { md: 'flex-start' }, mb: 1.5 }}
          >
            <Box>
              <SectionHeading id={statisticsId}>Statistics</SectionHeading>
              <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                {range.kind === 'range'
                  ? (range.days.from === range.days.to
                      ? `Records created on ${formatDay(range.days.from)} (shipment time).`
                      : `Records created from ${formatDay(range.days.from)} to ${formatDay(range.days.to)} (shipment time).`) +
                    ' Alarms started: by alarm time (when the alarm began), whenever the record was created.'
                  : 'All records of the organization.'}
              </Typography>
            </Box>
            <Suspense fallback={<PeriodPickerPlaceholder />}>
              <PeriodPicker
                period={period}
                timeZone={timeZone}
                onChange={setPeriod}
                message={
                  range.kind === 'invalid' || range.kind === 'incomplete'
                    ? range.message
                    : undefined
                }
              />
            </Suspense>
          </Stack>
          {statistics.isError ? (
            <LoadError
              what="the statistics"
              error={statistics.error}
              onRetry={() => void statistics.refetch()}
              retrying={statistics.isFetching}
            />
          ) : (
            <StatisticCards
              cards={cards}
              statistics={statistics.data}
              loading={statistics.isPending}
              stale={statistics.isPlaceholderData}
            />
          )}
        </Box>

        <Box component="section" aria-labelledby={latestId}>
          <Stack
            direction="row"
            spacing={1}
            sx={{ justifyContent: 'space-between', alignItems: 'flex-end', mb: 1.5 }}
          >
            <Box>
              <SectionHeading id={latestId}>Latest activity</SectionHeading>
              <Box sx={{ mt: 0.5 }}>
                <TimeZoneNote />
              </Box>
            </Box>
            <Button component={RouterLink} to={ALL_RECORDS_PATH} endIcon={<EastOutlined />}>
              All records
            </Button>
          </Stack>
          <HomeList />
        </Box>
      </Stack>
    </Page>
  );
}

/** `2025-03-01` -> `03/01/2025` (en-US). */
function formatDay(day: string): string {
  const [year, month, date] = day.split('-');
  return `${month}/${date}/${year}`;
}
