import type { TDegreesUnit, TExcursionAlarm, TRecord } from '@coldtrace/contract';
import { formatDateTime, toDisplayUnit } from '@coldtrace/domain';
import TableChartOutlined from '@mui/icons-material/TableChartOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { ValueLoading } from '../../../components/page-loading';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import {
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useId,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import { statusColors } from '../../../app/theme';
import { EmptyState } from '../../../components/empty-state';
import { LoadError } from '../../../components/load-error';
import { useAppSettings } from '../../../lib/app-settings';
import { formatTemperatureWith } from '../../../lib/display-rule';
import { useRecordSeries, type SeriesWindow } from '../api/get-record-series';
import {
  excursionBands,
  tripWindow,
  type ChartReading,
  type ChartSeries,
  type ExcursionBand,
  type TimeBand,
} from '../chart-data';
import {
  isoOfSeconds,
  pointsOf,
  seriesColumns,
  seriesTiming,
  toChartSeries,
  toReadings,
  withWindow,
} from '../compact-series';
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

/** The data table of a reduced chart: every point, asked of the server when the table is shown. */
function FullDataTable({
  id,
  recordId,
  options,
}: {
  id: string;
  recordId: string;
  options: PointReadingOptions;
}) {
  const full = useRecordSeries(recordId, {});
  const readings = useMemo(() => {
    const timing = full.data ? seriesTiming(full.data) : null;
    return full.data && timing ? toReadings(pointsOf(full.data), timing) : null;
  }, [full.data]);
  if (full.isError) {
    return (
      <LoadError
        what="the readings"
        error={full.error}
        onRetry={() => void full.refetch()}
        retrying={full.isFetching}
      />
    );
  }
  if (!readings)
    return <ValueLoading variant="rounded" height={200} aria-label="Loading the readings" />;
  return <ChartDataTable id={id} readings={readings} options={options} />;
}

export function ChartCard({
  recordId,
  record,
  alarms,
  live = false,
  unit,
  timeZone,
}: {
  recordId: string;
  record: TRecord;
  alarms: readonly TExcursionAlarm[] | undefined;
  /** The record runs: the series is asked again every few seconds, the zoom kept. */
  live?: boolean;
  unit: TDegreesUnit;
  timeZone: string;
}) {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  // The display rule's decimals for the figures in words (the plot keeps one).
  const { temperatureDecimals: decimals } = useAppSettings();
  const formatTemperature = (celsius: number | null | undefined) =>
    formatTemperatureWith(celsius, unit, decimals);
  // The overview: reduced on the server to the screen's pixel columns (asked once per visit).
  const [columns] = useState(() =>
    typeof window === 'undefined'
      ? 1000
      : seriesColumns(window.innerWidth, window.devicePixelRatio || 1),
  );
  const temperatures = useRecordSeries(recordId, { width: columns }, live);
  const overview = temperatures.data;
  // The zoomed window (Unix seconds), fetched at full resolution once the drag settles.
  const [zoom, setZoom] = useState<SeriesWindow | null>(null);
  const [pending, setPending] = useState<SeriesWindow | null>(null);
  useEffect(() => {
    const timer = setTimeout(() => setZoom(pending), 150);
    return () => clearTimeout(timer);
  }, [pending]);
  const onZoom = useCallback(
    (range: { min: number; max: number } | null) =>
      setPending(
        range === null
          ? null
          : { width: columns, from: isoOfSeconds(range.min), to: isoOfSeconds(range.max) },
      ),
    [columns],
  );
  const zoomed = useRecordSeries(recordId, overview?.reduced ? zoom : null, live);
  const windowReply = overview?.reduced && zoom ? zoomed.data : undefined;
  const timing = useMemo(() => (overview ? seriesTiming(overview) : null), [overview]);
  const drawn = useMemo(() => {
    if (!overview) return null;
    const points = pointsOf(overview);
    return windowReply ? withWindow(points, windowReply) : points;
  }, [overview, windowReply]);
  const series = useMemo(
    () =>
      overview && drawn
        ? timing
          ? toChartSeries(drawn, timing, unit, overview.point_count)
          : { xs: [], ys: [], points: 0 }
        : null,
    [overview, drawn, timing, unit],
  );
  // The points drawn for the keyboard (Celsius, as stored), read the first time it asks.
  const readings = useMemo(() => {
    let cached: ChartReading[] | undefined;
    return () => (cached ??= drawn && timing ? toReadings(drawn, timing) : []);
  }, [drawn, timing]);
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
    body = <ValueLoading variant="rounded" height={height + 40} aria-label="Loading the chart" />;
  } else if (series.points === 0) {
    body = (
      <EmptyState>
        {overview && overview.point_count > 0
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
            <ValueLoading variant="rounded" height={height + 40} aria-label="Loading the chart" />
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
            onZoom={overview?.reduced ? onZoom : undefined}
          />
        </Suspense>
        <Typography component="figcaption" variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {formatCount(series.points)} points · highest{' '}
          {formatTemperature(record.highest_recorded_temperature)} · lowest{' '}
          {formatTemperature(record.lowest_recorded_temperature)} · mean kinetic temperature{' '}
          {formatTemperature(record.mean_kinetic_temp)}
          {overview?.reduced &&
            (windowReply && !windowReply.reduced && !zoomed.isPlaceholderData
              ? ' · every point of the zoomed span drawn'
              : ' · drawn as the lowest and highest per pixel column, excursions exact; zoom in for every point')}
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
        {tableShown &&
          (overview?.reduced ? (
            <FullDataTable id={tableId} recordId={recordId} options={reading} />
          ) : (
            <ChartDataTable id={tableId} readings={readings()} options={reading} />
          ))}
      </>
    );
  }

  return <SectionCard title="Temperature">{body}</SectionCard>;
}
