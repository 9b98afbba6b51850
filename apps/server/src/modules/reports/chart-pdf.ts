import { toDisplayUnit } from '@coldtrace/domain';
import { downsampleMinMax, niceTicks } from './chart';
import { useFont } from './pdf-fonts';
import {
  ALARM,
  CONTENT_WIDTH,
  ensureSpace,
  INK,
  MARGIN,
  MUTED,
  PAGE,
  paragraph,
  RULE,
  SERIES,
  type Doc,
} from './pdf-layout';
import { isClosed, pointMs, zoneFormat, type ReportData } from './report-model';
import { timeAxisTicks } from './time-axis';

/**
 * The PDF report's temperature chart: the series drawn as the lowest and highest
 * value per column, the thresholds dashed, the excursions of open alarms shaded,
 * and a time axis of round local times.
 */

const CHART_HEIGHT = 210;
const AXIS_LEFT = 36;
const AXIS_BOTTOM = 26;
/**
 * At most this many time labels, centred on their ticks in boxes this wide
 * (points), none closer than X_LABEL_GAP to the one before: the widest label,
 * `23:30:00 UTC+05:45` at 7 points, is 66 wide, so no two labels meet.
 */
const X_TICKS = 7;
const X_LABEL_WIDTH = 70;
const X_LABEL_GAP = 70;

/** Where the chart's box lies on the page and how a value or a point index maps into it. */
interface Plot {
  top: number;
  left: number;
  width: number;
  height: number;
  /** The number of points. */
  n: number;
  /** A temperature (°C) in the report's unit. */
  unit: (celsius: number) => number;
  /** The y of a temperature (°C), of a value in the report's unit, the x of a point. */
  yOf: (celsius: number) => number;
  yOfShown: (shown: number) => number;
  xOfIndex: (i: number) => number;
}

type Sampled = ReturnType<typeof downsampleMinMax>;

/** The lowest and highest value shown: the series' and the thresholds'; null without points. */
function valueRange(sampled: Sampled, thresholds: readonly (number | null)[]) {
  let lo = Infinity;
  let hi = -Infinity;
  for (const c of sampled) {
    lo = Math.min(lo, c.min);
    hi = Math.max(hi, c.max);
  }
  for (const t of thresholds) {
    if (t === null) continue;
    lo = Math.min(lo, t);
    hi = Math.max(hi, t);
  }
  return lo === Infinity ? null : { lo, hi };
}

function shadeExcursions(doc: Doc, data: ReportData, plot: Plot): void {
  const { left, top, width, height, xOfIndex } = plot;
  // Excursions of open alarms shaded, inside the chart box (an alarm may outlast
  // the points read). A closed alarm no longer holds: not shaded, as on the record page.
  doc.save();
  doc.rect(left, top, width, height).clip();
  for (const a of data.alarms) {
    if ((a.kind ?? 'excursion') !== 'excursion' || a.first_point_idx === undefined) continue;
    if (isClosed(a)) continue;
    const x0 = xOfIndex(a.first_point_idx);
    const x1 = Math.max(x0 + 1, xOfIndex(a.last_point_idx ?? a.first_point_idx));
    doc
      .rect(x0, top, x1 - x0, height)
      .fillOpacity(0.12)
      .fill(ALARM);
  }
  doc.restore();
}

function drawGrid(doc: Doc, plot: Plot, ticks: readonly number[]): void {
  const { left, top, width, height, yOfShown } = plot;
  // Grid and y labels.
  doc.lineWidth(0.4).strokeColor(RULE);
  useFont(doc, '').fontSize(7).fillColor(MUTED);
  for (const t of ticks) {
    const y = yOfShown(t);
    doc
      .moveTo(left, y)
      .lineTo(left + width, y)
      .stroke();
    doc.text(t.toFixed(Number.isInteger(t) ? 0 : 1), MARGIN, y - 3.5, {
      width: AXIS_LEFT - 5,
      align: 'right',
      lineBreak: false,
    });
  }
  doc.rect(left, top, width, height).lineWidth(0.6).strokeColor(MUTED).stroke();
}

function drawTimeAxis(doc: Doc, data: ReportData, zone: string, plot: Plot): void {
  const { left, top, width, height, n, xOfIndex } = plot;
  // X labels: round local times placed by instant (the points are evenly spaced in time),
  // the offset where it changes and the date where the day changes (time-axis.ts).
  const firstMs = pointMs(data.timing, 0);
  const lastMs = pointMs(data.timing, Math.max(0, n - 1));
  const xTicks =
    firstMs === null || lastMs === null
      ? [0, n - 1].map((i) => ({ x: xOfIndex(i), lines: [`#${i}`] }))
      : timeAxisTicks(firstMs, lastMs, zoneFormat(zone), {
          maxTicks: X_TICKS,
          minGap: X_LABEL_GAP / width,
          // A label centred on a tick near the right end would leave the page.
          endGuard: (X_LABEL_WIDTH / 2 - (PAGE.width - MARGIN - left - width)) / width,
        }).map((tick) => ({
          x:
            lastMs > firstMs
              ? left + ((tick.ms - firstMs) / (lastMs - firstMs)) * width
              : xOfIndex(0),
          lines: tick.lines,
        }));
  for (const tick of xTicks) {
    doc
      .moveTo(tick.x, top + height)
      .lineTo(tick.x, top + height + 3)
      .strokeColor(MUTED)
      .stroke();
    const half = X_LABEL_WIDTH / 2;
    const labelX = Math.min(
      Math.max(tick.x - half, MARGIN),
      MARGIN + CONTENT_WIDTH - X_LABEL_WIDTH,
    );
    doc.text(tick.lines.join('\n'), labelX, top + height + 5, {
      width: X_LABEL_WIDTH,
      align: 'center',
    });
  }
}

function drawSeries(doc: Doc, plot: Plot, sampled: Sampled, columns: number): void {
  const { left, top, width, height, yOf } = plot;
  // The series: per column a stroke from its first to min/max to last value,
  // joined to the previous column unless a missing value lies between them.
  // A piece of one column with a single value (an isolated point) is a dot.
  doc.save();
  doc.rect(left, top, width, height).clip();
  doc.lineWidth(0.8).strokeColor(SERIES).fillColor(SERIES).lineJoin('round').lineCap('round');
  const step = width / columns;
  const xOfColumn = (k: number) => left + (k + 0.5) * step;
  const dots: { x: number; y: number }[] = [];
  let pieceStart = 0;
  sampled.forEach((c, k) => {
    const x = xOfColumn(c.column);
    if (!c.joined) {
      if (k > 0) closePiece(k);
      pieceStart = k;
      doc.moveTo(x, yOf(c.first));
    } else doc.lineTo(x, yOf(c.first));
    if (c.min !== c.max) {
      const [a, b] = c.first <= c.last ? [c.min, c.max] : [c.max, c.min];
      doc.lineTo(x, yOf(a)).lineTo(x, yOf(b));
    }
    doc.lineTo(x, yOf(c.last));
  });
  if (sampled.length > 0) closePiece(sampled.length);
  function closePiece(end: number): void {
    doc.stroke();
    const only = sampled[pieceStart]!;
    if (end - pieceStart === 1 && only.min === only.max) {
      dots.push({ x: xOfColumn(only.column), y: yOf(only.min) });
    }
  }
  for (const d of dots) doc.circle(d.x, d.y, 2).fill(SERIES);
  doc.restore();
}

function drawThresholds(
  doc: Doc,
  data: ReportData,
  plot: Plot,
  high: number | null,
  low: number | null,
): void {
  const { left, width, yOf, unit } = plot;
  // Threshold lines.
  for (const [value, name] of [
    [high, 'High'],
    [low, 'Low'],
  ] as const) {
    if (value === null) continue;
    const y = yOf(value);
    doc.save();
    doc.lineWidth(0.9).strokeColor(ALARM).dash(4, { space: 3 });
    doc
      .moveTo(left, y)
      .lineTo(left + width, y)
      .stroke();
    doc.undash().restore();
    useFont(doc, '', true).fontSize(7).fillColor(ALARM);
    doc.text(`${name} ${unit(value).toFixed(1)} °${data.unit}`, left + width - 90, y - 10, {
      width: 86,
      align: 'right',
      lineBreak: false,
    });
  }
}

export function drawChart(doc: Doc, data: ReportData, zone: string): void {
  ensureSpace(doc, CHART_HEIGHT + 10);
  const top = doc.y + 4;
  const left = MARGIN + AXIS_LEFT;
  const width = CONTENT_WIDTH - AXIS_LEFT - 4;
  const height = CHART_HEIGHT - AXIS_BOTTOM;
  const n = data.temps.length;
  const unit = (c: number) => toDisplayUnit(c, data.unit);

  const columns = Math.max(1, Math.floor(width * 2));
  const sampled = downsampleMinMax(data.temps, columns);
  const high = data.record.high_threshold ?? null;
  const low = data.record.low_threshold ?? null;
  const range = valueRange(sampled, [high, low]);
  if (range === null) {
    useFont(doc, '').fontSize(9).fillColor(MUTED);
    doc.text('No temperature points recorded.', MARGIN, top);
    doc.y = top + 16;
    return;
  }
  const { lo, hi } = range;
  const pad = Math.max(0.5, (unit(hi) - unit(lo)) * 0.08);
  const ticks = niceTicks(unit(lo) - pad, unit(hi) + pad);
  const yMin = Math.min(ticks[0] ?? unit(lo), unit(lo) - pad);
  const yMax = Math.max(ticks[ticks.length - 1] ?? unit(hi), unit(hi) + pad);
  const span = yMax - yMin || 1;
  const plot: Plot = {
    top,
    left,
    width,
    height,
    n,
    unit,
    yOf: (celsius) => top + height - ((unit(celsius) - yMin) / span) * height,
    yOfShown: (shown) => top + height - ((shown - yMin) / span) * height,
    xOfIndex: (i) => left + (n <= 1 ? width / 2 : (i / (n - 1)) * width),
  };
  shadeExcursions(doc, data, plot);
  drawGrid(doc, plot, ticks);
  drawTimeAxis(doc, data, zone, plot);
  drawSeries(doc, plot, sampled, columns);
  drawThresholds(doc, data, plot, high, low);
  doc.fillColor(INK);
  doc.x = MARGIN;
  doc.y = top + CHART_HEIGHT + 4;
  doc.fontSize(7).fillColor(MUTED);
  paragraph(
    doc,
    `${n.toLocaleString('en-US')} ${n === 1 ? 'point' : 'points'} drawn as the lowest and highest value per column; dashed lines: thresholds; shaded: excursions of open alarms.`,
  );
}
