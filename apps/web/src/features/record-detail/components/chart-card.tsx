import type { TDegreesUnit, TExcursionAlarm, TRecord } from '@coldtrace/contract';
import { formatDateTime, toDisplayUnit } from '@coldtrace/domain';
import TableChartOutlined from '@mui/icons-material/TableChartOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { lazy, Suspense, useId, useMemo, useState, type ReactNode } from 'react';
import { statusColors } from '../../../app/theme';
import { EmptyState } from '../../../components/empty-state';
import { LoadError } from '../../../components/load-error';
import { useAppSettings } from '../../../lib/app-settings';
import { formatTemperatureWith } from '../../../lib/display-rule';
import { useRecordTemperatures } from '../api/get-record-temperatures';
import {
  buildTemperatureSeries,
  chartReadings,
  excursionBands,
  tripWindow,
  type ChartReading,
  type ChartSeries,
  type ExcursionBand,
  type TimeBand,
} from '../chart-data';
import { formatCount, formatThresholds } from '../display';
import { ChartDataTable } from './chart-data-table';
import type { PointReadingOptions } from './chart-navigation';
import { SectionCard } from './section-card';

/** uPlot comes with this chunk only, loaded when the chart is first shown. */
const TemperatureChart = lazy(() => import('./temperature-chart'));

function Swatch({ kind, colour }: { kind: 'line' | 'fill'; colour: string }) {
  return (
    <Box
      component="span"
      aria-hidden
      sx={{
        display: 'inline-block',
        width: 18,
        height: kind === 'line' ? 0 : 10,
        borderTop: kind === 'line' ? `2px dashed ${colour}` : undefined,
        bgcolor: kind === 'fill' ? colour : undefined,
        borderRadius: kind === 'fill' ? '2px' : undefined,
        mr: 0.75,
        verticalAlign: 'middle',
      }}
    />
  );
}

/** The chart's key: what the lines and shaded areas mean (only those present). */
function ChartKey({
  hasHigh,
  hasLow,
  bands,
  trip,
}: {
  hasHigh: boolean;
  hasLow: boolean;
  bands: readonly ExcursionBand[];
  trip: TimeBand | null;
}) {
  const items: { key: string; swatch: ReactNode; text: string }[] = [];
  if (hasHigh) {
    items.push({
      key: 'high',
      swatch: <Swatch kind="line" colour={statusColors.alarm} />,
      text: 'High threshold',
    });
  }
  if (hasLow) {
    items.push({
      key: 'low',
      swatch: <Swatch kind="line" colour={statusColors.inTransit} />,
      text: 'Low threshold',
    });
  }
  if (bands.some((b) => b.direction === 'ABOVE')) {
    items.push({
      key: 'above',
      swatch: <Swatch kind="fill" colour="rgba(198, 40, 40, 0.35)" />,
      text: 'Excursion above',
    });
  }
  if (bands.some((b) => b.direction === 'BELOW')) {
    items.push({
      key: 'below',
      swatch: <Swatch kind="fill" colour="rgba(21, 101, 192, 0.35)" />,
      text: 'Excursion below',
    });
  }
  if (trip) {
    items.push({
      key: 'trip',
      swatch: <Swatch kind="fill" colour="rgba(21, 101, 192, 0.14)" />,
      text: 'Trip window',
    });
  }
  if (items.length === 0) return null;
  return (
    <Stack
      component="ul"
      direction="row"
      sx={{ listStyle: 'none', p: 0, m: 0, mb: 1, flexWrap: 'wrap', columnGap: 2, rowGap: 0.5 }}
    >
      {items.map((item) => (
        <Typography component="li" variant="caption" color="text.secondary" key={item.key}>
          {item.swatch}
          {item.text}
        </Typography>
      ))}
    </Stack>
  );
}

/** The chart in words: its text alternative. */
export function chartDescription(
  record: TRecord,
  series: ChartSeries,
  bands: readonly ExcursionBand[],
  trip: TimeBand | null,
  unit: TDegreesUnit,
  timeZone: string,
  decimals?: number,
): string {
  const formatTemperature = (celsius: number | null | undefined) =>
    formatTemperatureWith(celsius, unit, decimals);
  const first = series.xs[0];
  const last = series.xs[series.xs.length - 1];
  const parts = [
    `Temperature chart of ${formatCount(series.points)} points` +
      (first !== undefined && last !== undefined
        ? ` from ${formatDateTime(first * 1000, timeZone)} to ${formatDateTime(last * 1000, timeZone)}`
        : '') +
      '.',
    `Highest ${formatTemperature(record.highest_recorded_temperature)}, lowest ${formatTemperature(record.lowest_recorded_temperature)}, mean kinetic temperature ${formatTemperature(record.mean_kinetic_temp)}.`,
    `Thresholds: ${formatThresholds(record.low_threshold, record.high_threshold, unit, decimals)}.`,
    bands.length === 0
      ? 'No excursion.'
      : `${bands.length} excursion${bands.length === 1 ? '' : 's'} shaded.`,
  ];
  if (trip) parts.push('The trip window is shaded.');
  return parts.join(' ');
}

export function ChartCard({
  recordId,
  record,
  alarms,
  unit,
  timeZone,
}: {
  recordId: string;
  record: TRecord;
  alarms: readonly TExcursionAlarm[] | undefined;
  unit: TDegreesUnit;
  timeZone: string;
}) {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  // The display rule's decimals for the figures in words (the plot keeps one).
  const { temperatureDecimals: decimals } = useAppSettings();
  const formatTemperature = (celsius: number | null | undefined) =>
    formatTemperatureWith(celsius, unit, decimals);
  const temperatures = useRecordTemperatures(recordId);
  const points = temperatures.data?.temperatures;
  const series = useMemo(
    () => (points ? buildTemperatureSeries(points, unit) : null),
    [points, unit],
  );
  // The same points for the keyboard and the data table (Celsius, as stored), read
  // the first time either asks (a record may hold 100,000 points).
  const readings = useMemo(() => {
    let cached: ChartReading[] | undefined;
    return () => (cached ??= points ? chartReadings(points) : []);
  }, [points]);
  const reading: PointReadingOptions = useMemo(
    () => ({
      unit,
      decimals,
      timeZone,
      high: record.high_threshold,
      low: record.low_threshold,
    }),
    [unit, decimals, timeZone, record.high_threshold, record.low_threshold],
  );
  const [tableShown, setTableShown] = useState(false);
  const tableId = useId();
  const bands = useMemo(() => excursionBands(alarms ?? []), [alarms]);
  const lastX = series?.xs[series.xs.length - 1] ?? null;
  const beginTime = record.trip?.begin_time ?? null;
  const endTime = record.trip?.end_time ?? null;
  const trip = useMemo(
    () => tripWindow({ begin_time: beginTime, end_time: endTime }, lastX),
    [beginTime, endTime, lastX],
  );
  const high = record.high_threshold == null ? null : toDisplayUnit(record.high_threshold, unit);
  const low = record.low_threshold == null ? null : toDisplayUnit(record.low_threshold, unit);
  const height = phone ? 240 : 320;

  let body: ReactNode;
  if (temperatures.isError) {
    body = (
      <LoadError
        what="the temperatures"
        error={temperatures.error}
        onRetry={() => void temperatures.refetch()}
        retrying={temperatures.isFetching}
      />
    );
  } else if (!series) {
    body = <Skeleton variant="rounded" height={height + 40} aria-label="Loading the chart" />;
  } else if (series.points === 0) {
    body = (
      <EmptyState>
        {points && points.length > 0
          ? 'The record has no start time yet, so its points cannot be placed in time.'
          : 'No temperatures recorded yet: the chart appears after the first scan or packet.'}
      </EmptyState>
    );
  } else {
    const description = chartDescription(record, series, bands, trip, unit, timeZone, decimals);
    body = (
      <Box component="figure" sx={{ m: 0 }}>
        <ChartKey hasHigh={high !== null} hasLow={low !== null} bands={bands} trip={trip} />
        <Suspense
          fallback={
            <Skeleton variant="rounded" height={height + 40} aria-label="Loading the chart" />
          }
        >
          <TemperatureChart
            series={series}
            unit={unit}
            timeZone={timeZone}
            high={high}
            low={low}
            bands={bands}
            trip={trip}
            height={height}
            label={description}
            readings={readings}
            reading={reading}
          />
        </Suspense>
        <Typography component="figcaption" variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {formatCount(series.points)} points · highest{' '}
          {formatTemperature(record.highest_recorded_temperature)} · lowest{' '}
          {formatTemperature(record.lowest_recorded_temperature)} · mean kinetic temperature{' '}
          {formatTemperature(record.mean_kinetic_temp)}
        </Typography>
      </Box>
    );
    body = (
      <>
        {body}
        <Button
          size="small"
          startIcon={<TableChartOutlined />}
          aria-expanded={tableShown}
          aria-controls={tableShown ? tableId : undefined}
          onClick={() => setTableShown((shown) => !shown)}
          sx={{ mt: 1 }}
        >
          {tableShown ? 'Hide data table' : 'Show data table'}
        </Button>
        {tableShown && <ChartDataTable id={tableId} readings={readings()} options={reading} />}
      </>
    );
  }

  return <SectionCard title="Temperature">{body}</SectionCard>;
}
