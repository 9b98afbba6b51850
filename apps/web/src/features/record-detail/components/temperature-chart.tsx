import type { TDegreesUnit } from '@coldtrace/contract';
import { formatDateTime, MISSING_VALUE, toDisplayUnit } from '@coldtrace/domain';
import RestartAltOutlined from '@mui/icons-material/RestartAltOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { statusColors } from '../../../app/theme';
import { readoutPlacement, timeAxisLabels } from '../chart-labels';
import {
  seriesExtent,
  showsWhole,
  temperatureRange,
  type ChartReading,
  type ChartSeries,
  type ExcursionBand,
  type TimeBand,
} from '../chart-data';
import { describePoint, pointAfterKey, type PointReadingOptions } from './chart-navigation';

/**
 * The temperature chart, drawn on canvas by uPlot (loaded with this chunk
 * only): the series in the user's unit and time zone, the high and low
 * threshold lines, excursions shaded (red above, blue below), the trip window
 * shaded lightly, gaps as gaps. Drag across it to zoom, double-click (or the
 * button) to show everything; hovering reads the time and value in uPlot's
 * live legend, which it updates itself (no React render on hover), shown as a
 * small readout beside the cursor inside the plot (issue 35). The time axis
 * carries the date when the span shown crosses a day (`chart-labels.ts`).
 *
 * Without a mouse (issue 11): the chart is one keyboard stop (an application
 * named by the chart in words); the arrow keys, Page Up/Down, Home and End
 * move a highlighted point (uPlot's cursor follows it) and a polite live
 * region reads its time, temperature and threshold.
 */

export interface TemperatureChartProps {
  series: ChartSeries;
  unit: TDegreesUnit;
  timeZone: string;
  /** Thresholds in the user's unit. */
  high: number | null;
  low: number | null;
  bands: readonly ExcursionBand[];
  trip: TimeBand | null;
  height: number;
  /** The text alternative of the drawing (what it shows, in words). */
  label: string;
  /** The points drawn, as the keyboard reads them (Celsius, as stored), read when first asked. */
  readings: () => readonly ChartReading[];
  /** How a point is read out (unit, decimals, zone, thresholds in Celsius). */
  reading: PointReadingOptions;
  /**
   * Told the span shown (Unix seconds) when the user zooms, null when the whole
   * series is shown again: the card then fetches that window at full resolution
   * and hands a new `series`, which replaces the data without moving the zoom.
   */
  onZoom?: ((range: { min: number; max: number } | null) => void) | undefined;
}

interface Decorations {
  bands: readonly ExcursionBand[];
  trip: TimeBand | null;
}

/** Performance entries of a chart draw (User Timing). */
export const CHART_MARK = 'coldtrace:chart-start';
export const CHART_MEASURE = 'coldtrace:chart-draw';

const LINE = '#0b3d6e';
const GRID = '#e3e8ee';
const AXIS = '#52606d';
const TRIP_FILL = 'rgba(21, 101, 192, 0.07)';
const TRIP_EDGE = 'rgba(21, 101, 192, 0.55)';

function bandColour(band: ExcursionBand): string {
  const alpha = band.dismissed ? 0.07 : 0.16;
  return band.direction === 'ABOVE'
    ? `rgba(198, 40, 40, ${alpha})`
    : `rgba(21, 101, 192, ${alpha})`;
}

/** Behind the series: the trip window, then the excursion bands. */
function drawBands(u: uPlot, decorations: Decorations): void {
  const { ctx } = u;
  const { left, top, width, height } = u.bbox;
  const px = uPlot.pxRatio;
  const span = (from: number, to: number, minWidth: number): [number, number] => {
    const x0 = Math.max(left, u.valToPos(from, 'x', true));
    const x1 = Math.min(left + width, u.valToPos(to, 'x', true));
    const w = Math.max(x1 - x0, minWidth * px);
    return [x0, w];
  };
  ctx.save();
  ctx.beginPath();
  ctx.rect(left, top, width, height);
  ctx.clip();
  const { trip } = decorations;
  if (trip) {
    const [x, w] = span(trip.from, trip.to, 1);
    ctx.fillStyle = TRIP_FILL;
    ctx.fillRect(x, top, w, height);
    ctx.strokeStyle = TRIP_EDGE;
    ctx.lineWidth = px;
    ctx.setLineDash([2 * px, 3 * px]);
    ctx.beginPath();
    for (const edge of [trip.from, trip.to]) {
      const ex = Math.round(u.valToPos(edge, 'x', true)) + 0.5;
      if (ex >= left && ex <= left + width) {
        ctx.moveTo(ex, top);
        ctx.lineTo(ex, top + height);
      }
    }
    ctx.stroke();
  }
  for (const band of decorations.bands) {
    const [x, w] = span(band.from, band.to, 3);
    ctx.fillStyle = bandColour(band);
    ctx.fillRect(x, top, w, height);
  }
  ctx.restore();
}

/** Over the series: the threshold lines with their values. */
function drawThresholds(
  u: uPlot,
  lines: readonly { value: number | null; label: string; colour: string }[],
): void {
  const { ctx } = u;
  const { left, top, width, height } = u.bbox;
  const px = uPlot.pxRatio;
  ctx.save();
  ctx.font = `${600} ${11 * px}px system-ui, sans-serif`;
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (const line of lines) {
    if (line.value === null) continue;
    const y = Math.round(u.valToPos(line.value, 'y', true)) + 0.5;
    if (y < top || y > top + height) continue;
    ctx.strokeStyle = line.colour;
    ctx.lineWidth = 1.5 * px;
    ctx.setLineDash([6 * px, 4 * px]);
    ctx.beginPath();
    ctx.moveTo(left, y);
    ctx.lineTo(left + width, y);
    ctx.stroke();
    // The value on a light pill just above the line (below it at the very top).
    const textWidth = ctx.measureText(line.label).width;
    const pad = 4 * px;
    const boxHeight = 16 * px;
    const boxTop = y - top < boxHeight + 2 * px ? y + 2 * px : y - boxHeight - 2 * px;
    const boxRight = left + width - 2 * px;
    ctx.setLineDash([]);
    ctx.fillStyle = 'rgba(255, 255, 255, 0.9)';
    ctx.fillRect(boxRight - textWidth - 2 * pad, boxTop, textWidth + 2 * pad, boxHeight);
    ctx.fillStyle = line.colour;
    ctx.fillText(line.label, boxRight - pad, boxTop + boxHeight / 2);
  }
  ctx.restore();
}

/** The legend (time and temperature under the cursor) beside the cursor, inside the plot. */
function placeReadout(u: uPlot): void {
  const readout = u.root.querySelector<HTMLElement>('.u-legend');
  if (!readout) return;
  const { left, top } = u.cursor;
  const inside = left != null && top != null && left >= 0 && top >= 0;
  readout.style.visibility = inside ? 'visible' : 'hidden';
  if (!inside) return;
  const plot = { width: u.over.clientWidth, height: u.over.clientHeight };
  const size = { width: readout.offsetWidth, height: readout.offsetHeight };
  const at = readoutPlacement({ left, top }, size, plot);
  readout.style.transform = `translate(${at.left}px, ${at.top}px)`;
}

export default function TemperatureChart({
  series,
  unit,
  timeZone,
  high,
  low,
  bands,
  trip,
  height,
  label,
  readings,
  reading,
  onZoom,
}: TemperatureChartProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const plotRef = useRef<uPlot | null>(null);
  const decorations = useRef<Decorations>({ bands, trip });
  const [zoomed, setZoomed] = useState(false);
  // The highlighted point, kept with the readings it belongs to (other readings: none).
  const [highlight, setHighlight] = useState<{
    readings: () => readonly ChartReading[];
    position: number;
  } | null>(null);
  const active = highlight?.readings === readings ? highlight.position : null;
  const helpId = useId();
  // The data drawn and the zoom listener, read by the plot's hooks (a new series does not remake the plot).
  const seriesRef = useRef(series);
  const onZoomRef = useRef(onZoom);
  const drawnRef = useRef<ChartSeries | null>(null);
  useEffect(() => {
    seriesRef.current = series;
    onZoomRef.current = onZoom;
  }, [series, onZoom]);

  // The plot: made again when the unit, zone, size or thresholds change.
  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const series = seriesRef.current;
    drawnRef.current = series;
    const degrees = `°${unit}`;
    const format = (v: number) => `${v.toFixed(1)} ${degrees}`;
    const lines = [
      {
        value: high,
        label: `High ${high === null ? '' : format(high)}`,
        colour: statusColors.alarm,
      },
      {
        value: low,
        label: `Low ${low === null ? '' : format(low)}`,
        colour: statusColors.inTransit,
      },
    ];
    const options: uPlot.Options = {
      width: Math.max(container.clientWidth, 280),
      height,
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), timeZone),
      cursor: {
        drag: { x: true, y: false, setScale: true },
        points: { size: 7, fill: LINE },
      },
      // The readout beside the cursor (issue 35): uPlot's live legend, inside the plot.
      legend: { live: true, mount: (u, table) => u.over.appendChild(table) },
      scales: {
        x: { time: true },
        y: {
          range: () => {
            const extent = seriesExtent(seriesRef.current.ys);
            return temperatureRange(extent?.[0], extent?.[1], [high, low]);
          },
        },
      },
      series: [
        {
          label: 'Time',
          value: (_u, v) => (v == null ? MISSING_VALUE : formatDateTime(v * 1000, timeZone)),
        },
        {
          label: 'Temperature',
          stroke: LINE,
          width: 1.5,
          spanGaps: false,
          value: (_u, v) => (v == null ? MISSING_VALUE : format(v)),
        },
      ],
      axes: [
        {
          stroke: AXIS,
          grid: { stroke: GRID, width: 1 },
          ticks: { stroke: GRID, width: 1 },
          values: (u, ticks) =>
            timeAxisLabels(ticks, timeZone, {
              min: u.scales.x?.min ?? ticks[0] ?? 0,
              max: u.scales.x?.max ?? ticks[ticks.length - 1] ?? 0,
            }),
          space: 70,
        },
        {
          stroke: AXIS,
          grid: { stroke: GRID, width: 1 },
          ticks: { stroke: GRID, width: 1 },
          label: `Temperature (${degrees})`,
          labelSize: 24,
          size: 52,
          values: (_u, splits) =>
            splits.map((v) => (Number.isInteger(v) ? String(v) : v.toFixed(1))),
        },
      ],
      hooks: {
        drawClear: [(u) => drawBands(u, decorations.current)],
        draw: [(u) => drawThresholds(u, lines)],
        setCursor: [placeReadout],
        setScale: [
          (u, key) => {
            if (key !== 'x') return;
            const { min, max } = u.scales.x ?? {};
            const { xs } = seriesRef.current;
            const first = xs[0];
            const last = xs[xs.length - 1];
            const zoomedIn =
              min != null && max != null && first !== undefined && last !== undefined
                ? min > first || max < last
                : false;
            setZoomed(zoomedIn);
            onZoomRef.current?.(zoomedIn ? { min: min!, max: max! } : null);
          },
        ],
      },
    };
    // User Timing marks (bench/web reads them; free when nobody looks): plot made to first draw.
    performance.mark(CHART_MARK);
    let drawn = false;
    options.hooks!.draw!.push(() => {
      if (drawn) return;
      drawn = true;
      performance.measure(CHART_MEASURE, { start: CHART_MARK, detail: { points: series.points } });
    });
    const plot = new uPlot(options, [series.xs, series.ys], container);
    plotRef.current = plot;
    const observer = new ResizeObserver((entries) => {
      const width = Math.floor(entries[0]?.contentRect.width ?? 0);
      if (width > 0 && width !== plot.width) plot.setSize({ width, height });
    });
    observer.observe(container);
    return () => {
      observer.disconnect();
      plot.destroy();
      plotRef.current = null;
    };
  }, [unit, timeZone, high, low, height]);

  // New data (a zoom window arrived or went, or new points of a running record):
  // drawn in place, the zoom kept; the whole series shown grows with it.
  useEffect(() => {
    const plot = plotRef.current;
    if (!plot || drawnRef.current === series) return;
    const before = drawnRef.current;
    drawnRef.current = series;
    const { min, max } = plot.scales.x ?? {};
    const wholeShown = min == null || max == null || !before || showsWhole(before.xs, min, max);
    plot.setData([series.xs, series.ys], false);
    const first = series.xs[0];
    const last = series.xs[series.xs.length - 1];
    // uPlot redraws new data on a scale change only: the same span again (or the new whole).
    if (wholeShown && first !== undefined && last !== undefined && first < last)
      plot.setScale('x', { min: first, max: last });
    else if (min != null && max != null) plot.setScale('x', { min, max });
    else plot.redraw();
  }, [series]);

  // The shading follows the alarms and the trip without redrawing the plot from scratch.
  useEffect(() => {
    decorations.current = { bands, trip };
    plotRef.current?.redraw(false);
  }, [bands, trip]);

  /** uPlot's cursor on a reading, the x scale moved to show it when zoomed elsewhere. */
  const showPoint = (position: number) => {
    const plot = plotRef.current;
    const point = readings()[position];
    if (!plot || !point) return;
    const y = toDisplayUnit(point.temperature, reading.unit);
    const place = () =>
      plot.setCursor({ left: plot.valToPos(point.time, 'x'), top: plot.valToPos(y, 'y') });
    const { min, max } = plot.scales.x ?? {};
    if (min != null && max != null && (point.time < min || point.time > max)) {
      const half = (max - min) / 2;
      plot.setScale('x', { min: point.time - half, max: point.time + half });
      // uPlot applies a new scale on its next commit (a microtask); place the cursor after it.
      requestAnimationFrame(place);
    } else {
      place();
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const next = pointAfterKey(active, event.key, readings().length);
    if (next === null) return;
    event.preventDefault();
    setHighlight({ readings, position: next });
    showPoint(next);
  };

  const resetZoom = () => {
    const plot = plotRef.current;
    const { xs } = seriesRef.current;
    const first = xs[0];
    const last = xs[xs.length - 1];
    if (plot && first !== undefined && last !== undefined) {
      plot.setScale('x', { min: first, max: last });
    }
  };

  return (
    <Box>
      <Box
        ref={containerRef}
        role="application"
        aria-roledescription="chart"
        aria-label={label}
        aria-describedby={helpId}
        tabIndex={0}
        onKeyDown={onKeyDown}
        sx={{
          width: '100%',
          borderRadius: 1,
          '&:focus-visible': {
            outline: '2px solid',
            outlineColor: 'primary.main',
            outlineOffset: 2,
          },
          '& .uplot': { fontFamily: 'inherit' },
          '& .u-legend': {
            position: 'absolute',
            left: 0,
            top: 0,
            m: 0,
            visibility: 'hidden',
            pointerEvents: 'none',
            whiteSpace: 'nowrap',
            fontSize: '0.75rem',
            lineHeight: 1.3,
            textAlign: 'left',
            bgcolor: 'rgba(255, 255, 255, 0.94)',
            border: 1,
            borderColor: 'divider',
            borderRadius: 1,
            boxShadow: 1,
            px: 0.5,
          },
          '& .u-legend.u-inline tr': { display: 'block', mr: 0 },
          '& .u-legend .u-series > *': { py: 0.25, px: 0.5 },
          '& .u-legend .u-marker': { display: 'none' },
          '& .u-select': { background: 'rgba(11, 61, 110, 0.12)' },
        }}
      />
      <Stack
        direction="row"
        spacing={1}
        useFlexGap
        sx={{ mt: 0.5, alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap' }}
      >
        <Typography id={helpId} variant="caption" color="text.secondary">
          Drag across the chart to zoom in; double-click to show everything. With the keyboard,
          focus the chart and use the arrow keys, Page Up, Page Down, Home and End to read the
          points.
        </Typography>
        <Button
          size="small"
          startIcon={<RestartAltOutlined />}
          onClick={resetZoom}
          disabled={!zoomed}
        >
          Reset zoom
        </Button>
      </Stack>
      <Typography
        role="status"
        aria-live="polite"
        aria-atomic="true"
        variant="body2"
        sx={{ mt: 0.5, '&:empty': { mt: 0 } }}
      >
        {active === null ? '' : describePoint(readings(), active, reading)}
      </Typography>
    </Box>
  );
}
