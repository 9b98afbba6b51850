import type { SeriesValue } from '@coldtrace/domain';

/**
 * Min/max downsampling for the report chart: one column per device pixel,
 * each holding the lowest and highest value of the points that fall in it,
 * so a 100,000-point series draws as a few hundred vertical strokes and no
 * excursion (a single high point) disappears. Columns without a point are
 * null (a gap in the line).
 */
export interface ChartColumn {
  min: number;
  max: number;
  /** The first and last point of the column, to join neighbours in order. */
  first: number;
  last: number;
}

export function downsampleMinMax(
  temps: readonly SeriesValue[],
  columns: number,
): (ChartColumn | null)[] {
  const out: (ChartColumn | null)[] = new Array<ChartColumn | null>(columns).fill(null);
  const n = temps.length;
  if (n === 0 || columns <= 0) return out;
  const scale = columns / n;
  for (let i = 0; i < n; i++) {
    const v = temps[i];
    if (v === null || v === undefined) continue;
    const c = Math.min(columns - 1, Math.floor(i * scale));
    const col = out[c];
    if (col === null || col === undefined) out[c] = { min: v, max: v, first: v, last: v };
    else {
      if (v < col.min) col.min = v;
      if (v > col.max) col.max = v;
      col.last = v;
    }
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
