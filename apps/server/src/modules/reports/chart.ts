import type { SeriesValue } from '@coldtrace/domain';

/**
 * Min/max downsampling for the report chart: the plotted span is cut into
 * `columns` columns (one per device pixel), point `i` of `n` falls in the
 * column of its x position `i / (n - 1)`, and each column holds the lowest
 * and highest value of its points, so a 100,000-point series draws as a few
 * hundred vertical strokes and no excursion (a single high point) disappears.
 *
 * Only columns holding a point are answered. A short series leaves empty
 * columns between its points: those are not gaps, the line joins the
 * neighbours across them (`joined`). A gap is a missing value (null) in the
 * series: the column after it starts a new piece of line.
 */
export interface ChartColumn {
  /** Column number, 0 to `columns - 1`. */
  column: number;
  min: number;
  max: number;
  /** The first and last point of the column, to join neighbours in order. */
  first: number;
  last: number;
  /** True when the previous column's last point is the point just before this column's first (no gap between). */
  joined: boolean;
}

export function downsampleMinMax(temps: readonly SeriesValue[], columns: number): ChartColumn[] {
  const out: ChartColumn[] = [];
  const n = temps.length;
  if (n === 0 || columns <= 0) return out;
  const scale = n <= 1 ? 0 : columns / (n - 1);
  let current: ChartColumn | null = null;
  let gap = false;
  for (let i = 0; i < n; i++) {
    const v = temps[i];
    if (v === null || v === undefined || !Number.isFinite(v)) {
      gap = true;
      continue;
    }
    const c = n <= 1 ? Math.floor(columns / 2) : Math.min(columns - 1, Math.floor(i * scale));
    if (current !== null && current.column === c) {
      if (v < current.min) current.min = v;
      if (v > current.max) current.max = v;
      current.last = v;
    } else {
      current = { column: c, min: v, max: v, first: v, last: v, joined: current !== null && !gap };
      out.push(current);
    }
    gap = false;
  }
  return out;
}

/** 4 to 8 round tick values covering [lo, hi] (steps of 1, 2 or 5 times a power of ten). */
export function niceTicks(lo: number, hi: number, target = 6): number[] {
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return [];
  if (hi - lo < 1e-9) {
    lo -= 1;
    hi += 1;
  }
  const raw = (hi - lo) / target;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
  const ticks: number[] = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) {
    ticks.push(Math.round(v / step) * step);
  }
  return ticks;
}
