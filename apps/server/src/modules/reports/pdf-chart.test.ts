import { execFileSync } from 'node:child_process';
import type { TRecord } from '@coldtrace/contract';
import type { SeriesValue } from '@coldtrace/domain';
import { describe, expect, it } from 'vitest';
import { downsampleMinMax } from './chart';
import { renderPdf } from './render-pdf';
import type { ReportData } from './report-model';

/**
 * The PDF chart as a reader sees it: page 1 rasterised at 72 dpi with
 * poppler's pdftoppm (PPM, one pixel per PDF point), the series found by its
 * colour (the blue of SERIES), the threshold lines by theirs (the red of ALARM).
 */

const START = Date.UTC(2026, 10, 1, 6, 0, 0) / 1000;

/** A record of `points` points at 60 s between 3 and 7 °C, thresholds 8 and 2, optional gaps. */
function reportOf(temps: SeriesValue[], extra: Partial<ReportData> = {}): ReportData {
  const n = temps.length;
  const record: TRecord = {
    id: '4711',
    tag_serial_number: 'XT1-CHART',
    tag_type: 'XT1_NFC_MU',
    high_threshold: 8,
    low_threshold: 2,
    number_of_points: n,
    measurement_interval: 60,
    first_point: new Date(START * 1000).toISOString(),
    last_point: new Date((START + (n - 1) * 60) * 1000).toISOString(),
    status: 'OK',
  };
  return {
    organizationName: 'Acme Pharma',
    record,
    alarms: [],
    audit: [],
    temps,
    timing: { startTimeSeconds: START, startDelay: 0, intervalSeconds: 60 },
    unit: 'C',
    timeZone: 'Europe/Berlin',
    generatedAt: new Date(Date.UTC(2026, 10, 2)),
    generatedBy: 'Dana Quality',
    ...extra,
  };
}

/** A wave between 3 and 7 °C. */
const wave = (n: number): number[] =>
  Array.from({ length: n }, (_, i) => 5 + 2 * Math.sin((2 * Math.PI * i) / Math.max(8, n / 3)));

interface Raster {
  width: number;
  height: number;
  rgb: Buffer;
}

function rasterise(pdf: Buffer): Raster {
  const ppm = execFileSync('pdftoppm', ['-r', '72', '-f', '1', '-l', '1', '-'], {
    input: pdf,
    maxBuffer: 16 * 1024 * 1024,
  });
  // P6\n<w> <h>\n255\n<rgb...>
  const header = /^P6\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(ppm.subarray(0, 40).toString('latin1'));
  if (!header) throw new Error('pdftoppm gave no PPM');
  return {
    width: Number(header[1]),
    height: Number(header[2]),
    rgb: ppm.subarray(header[0].length),
  };
}

const isSeries = (r: number, g: number, b: number) => b > 150 && b - r > 40 && b - g > 15;
const isAlarm = (r: number, g: number, b: number) => r > 150 && r - g > 70 && r - b > 70;

interface Found {
  /** Series pixels per pixel column. */
  columns: number[];
  total: number;
  /** Rows where at least 40 % of the pixels are the red of a threshold line. */
  redRows: number[];
}

function find(raster: Raster): Found {
  const columns = new Array<number>(raster.width).fill(0);
  const redRows: number[] = [];
  let total = 0;
  for (let y = 0; y < raster.height; y++) {
    let red = 0;
    for (let x = 0; x < raster.width; x++) {
      const o = (y * raster.width + x) * 3;
      const [r, g, b] = [raster.rgb[o]!, raster.rgb[o + 1]!, raster.rgb[o + 2]!];
      if (isSeries(r, g, b)) {
        columns[x]! += 1;
        total += 1;
      }
      if (isAlarm(r, g, b)) red += 1;
    }
    if (red > raster.width * 0.4) redRows.push(y);
  }
  return { columns, total, redRows };
}

/** First and last pixel column holding series pixels, and the columns between them without. */
function extent(columns: number[]): { first: number; last: number; empty: number[] } {
  const first = columns.findIndex((c) => c > 0);
  const last = columns.length - 1 - [...columns].reverse().findIndex((c) => c > 0);
  const empty: number[] = [];
  for (let x = first; x <= last; x++) if (columns[x] === 0) empty.push(x);
  return { first, last, empty };
}

// The chart box spans x = 76 to 551 on the 595-point page (margin 40, axis 36, 4 to the right).
const CHART_LEFT = 76;
const CHART_RIGHT = 551;
/** Shorter vertical runs of shading colour are the edges of red text, not shading (pixels). */
const TEXT_EDGE = 12;

describe('PDF report chart [RULE-REPORT-1]', () => {
  it.each([43, 481, 621, 10_000, 100_000])(
    'draws a %i-point series as one continuous line across the chart, with both thresholds',
    async (points) => {
      const found = find(rasterise(await renderPdf(reportOf(wave(points)))));
      const { first, last, empty } = extent(found.columns);
      expect(empty, 'pixel columns without the series inside its span').toEqual([]);
      expect(first).toBeLessThanOrEqual(CHART_LEFT + 2);
      expect(last).toBeGreaterThanOrEqual(CHART_RIGHT - 2);
      // A line, not a speck: at least one pixel per column across the chart.
      expect(found.total).toBeGreaterThanOrEqual(CHART_RIGHT - CHART_LEFT - 4);
      // High (8) and low (2) thresholds: two dashed red lines, far apart.
      expect(found.redRows.length).toBeGreaterThanOrEqual(2);
      expect(Math.max(...found.redRows) - Math.min(...found.redRows)).toBeGreaterThan(40);
    },
  );

  it('keeps a gap in the data as a gap in the line', async () => {
    const temps: SeriesValue[] = wave(600);
    for (let i = 250; i < 350; i++) temps[i] = null;
    const found = find(rasterise(await renderPdf(reportOf(temps))));
    const { first, last, empty } = extent(found.columns);
    expect(first).toBeLessThanOrEqual(CHART_LEFT + 2);
    expect(last).toBeGreaterThanOrEqual(CHART_RIGHT - 2);
    // 100 of 599 steps missing: about a sixth of the 475-point width, in the middle.
    expect(empty.length).toBeGreaterThan(60);
    expect(empty.length).toBeLessThan(95);
    expect(Math.min(...empty)).toBeGreaterThan(CHART_LEFT + 180);
    expect(Math.max(...empty)).toBeLessThan(CHART_LEFT + 300);
  });

  it('draws a record of one point and of two points', async () => {
    const one = find(rasterise(await renderPdf(reportOf([5]))));
    expect(one.total).toBeGreaterThan(0);
    const two = extent(find(rasterise(await renderPdf(reportOf([4, 6])))).columns);
    expect(two.empty).toEqual([]);
    expect(two.first).toBeLessThanOrEqual(CHART_LEFT + 2);
    expect(two.last).toBeGreaterThanOrEqual(CHART_RIGHT - 2);
  });

  it('shades an excursion inside the chart box, also one that outlasts the points', async () => {
    const alarm = { id: '1', kind: 'excursion', above_or_below: 'ABOVE' } as const;
    const raster = rasterise(
      await renderPdf(
        reportOf(wave(43), { alarms: [{ ...alarm, first_point_idx: 30, last_point_idx: 300 }] }),
      ),
    );
    // Shaded pixels of a pixel column in runs of TEXT_EDGE or more: the shading spans the
    // chart's height (cut by grid lines); the edges of the verdict's red text are shorter.
    const shadedAt = (x: number, of: Raster = raster) => {
      let run = 0;
      let count = 0;
      for (let y = 0; y <= of.height; y++) {
        const o = (y * of.width + x) * 3;
        const [r, g, b] = [of.rgb[o] ?? 0, of.rgb[o + 1] ?? 0, of.rgb[o + 2] ?? 0];
        if (y < of.height && r > 235 && r - g > 12 && r - b > 12 && Math.abs(g - b) < 6) run += 1;
        else {
          if (run >= TEXT_EDGE) count += run;
          run = 0;
        }
      }
      return count;
    };
    // Point 30 of 43 sits at 30/42 of the width; the shading runs to the right edge and stops there.
    expect(
      shadedAt(CHART_LEFT + Math.round((30.5 / 42) * (CHART_RIGHT - CHART_LEFT))),
    ).toBeGreaterThan(100);
    expect(shadedAt(CHART_RIGHT - 3)).toBeGreaterThan(100);
    expect(shadedAt(CHART_LEFT + 100)).toBe(0);
    for (let x = CHART_RIGHT + 3; x < raster.width; x++) expect(shadedAt(x), `column ${x}`).toBe(0);

    // A closed alarm no longer holds: not shaded (as on the record page).
    const closed = rasterise(
      await renderPdf(
        reportOf(wave(43), {
          alarms: [{ ...alarm, state: 'CLOSED', first_point_idx: 30, last_point_idx: 300 }],
        }),
      ),
    );
    expect(
      shadedAt(CHART_LEFT + Math.round((30.5 / 42) * (CHART_RIGHT - CHART_LEFT)), closed),
    ).toBe(0);
    expect(shadedAt(CHART_RIGHT - 3, closed)).toBe(0);
  });

  it('keeps a single extreme point of 100,000 as the top of its column', () => {
    const temps = wave(100_000);
    temps[54_321] = 30;
    const columns = downsampleMinMax(temps, 950);
    expect(columns).toHaveLength(950);
    expect(Math.max(...columns.map((c) => c.max))).toBe(30);
    expect(columns.every((c, k) => k === 0 || c.joined)).toBe(true);
  });
});
