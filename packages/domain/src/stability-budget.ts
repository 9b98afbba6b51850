import { isTenthOfDegree, type TAboveOrBelow } from '@coldtrace/contract';

/**
 * Stability budgets (issue 14 item 3; docs/decisions/stability-budget.md).
 *
 * A product may carry a stability budget: bands `{direction, limit, allowed_minutes}`
 * ("720 minutes above 8 °C, 60 above 25 °C, 0 below 0 °C"). The time a
 * shipment spends beyond each band is summed across all its legs (every record
 * of the organization with the same shipping reference and product).
 *
 * A leg's time beyond any band comes from a **histogram** of its points in the
 * evaluation window, kept by the running aggregates' fold
 * (`running-aggregates.ts`): per 0.1 °C bin, how many points fall in it, and
 * how many lie exactly on the bin's lower edge. Band limits are multiples of
 * 0.1 °C (the contract refuses others), so the histogram answers "points
 * strictly above / below the limit" exactly for any band, and a product's bands
 * may change at any time without reading a series again. Each point counts one
 * measurement interval (as the cumulative alarm counts it: `timeBeyond`).
 */

/** One band of a product's stability budget. */
export interface StabilityBand {
  readonly direction: TAboveOrBelow;
  /** °C, a multiple of 0.1. */
  readonly limit: number;
  readonly allowed_minutes: number;
}

/**
 * Points per 0.1 °C bin: `all[k]` counts the points t with k/10 ≤ t < (k+1)/10,
 * `edge[k]` those with t = k/10 exactly. Keys are the bin numbers as strings
 * (a JSON object, stored with the aggregates).
 */
export interface BandHistogram {
  readonly all: Readonly<Record<string, number>>;
  readonly edge: Readonly<Record<string, number>>;
}

/** Tenths of a degree per bin. */
const BINS_PER_DEGREE = 10;
/** Temperatures are stored at 4 decimals: a value off a bin edge is at least 0.001 bin away. */
const EDGE_TOLERANCE = 1e-6;

export function emptyHistogram(): BandHistogram {
  return { all: {}, edge: {} };
}

/** The bin of `t`, and whether `t` lies on its lower edge. */
export function binOf(t: number): { bin: number; edge: boolean } {
  const scaled = t * BINS_PER_DEGREE;
  const nearest = Math.round(scaled);
  if (Math.abs(scaled - nearest) < EDGE_TOLERANCE) return { bin: nearest, edge: true };
  return { bin: Math.floor(scaled), edge: false };
}

/** Whether `limit` is a multiple of 0.1 °C (what a band may carry): the contract's check. */
export const isBandLimit = isTenthOfDegree;

/** Adds one point to a histogram being built (mutable working copy of the fold). */
export function addToHistogram(
  histogram: { all: Record<string, number>; edge: Record<string, number> },
  t: number,
): void {
  const { bin, edge } = binOf(t);
  histogram.all[bin] = (histogram.all[bin] ?? 0) + 1;
  if (edge) histogram.edge[bin] = (histogram.edge[bin] ?? 0) + 1;
}

/** A mutable copy of a histogram. */
export function copyHistogram(histogram: BandHistogram): {
  all: Record<string, number>;
  edge: Record<string, number>;
} {
  return { all: { ...histogram.all }, edge: { ...histogram.edge } };
}

/** The histogram of a list of values (nulls are gaps). */
export function histogramOf(values: readonly (number | null)[]): BandHistogram {
  const out = copyHistogram(emptyHistogram());
  for (const t of values) if (t !== null && Number.isFinite(t)) addToHistogram(out, t);
  return out;
}

/** How many points of the histogram lie strictly beyond the band's limit. */
export function pointsBeyond(
  histogram: BandHistogram,
  band: Pick<StabilityBand, 'direction' | 'limit'>,
): number {
  const k = binOf(band.limit).bin;
  let n = 0;
  for (const [key, count] of Object.entries(histogram.all)) {
    const bin = Number(key);
    if (band.direction === 'ABOVE') {
      if (bin > k) n += count;
      else if (bin === k) n += count - (histogram.edge[key] ?? 0);
    } else if (bin < k) {
      n += count;
    }
  }
  return n;
}

/** One leg of a shipment as the budget counts it. */
export interface BudgetLeg {
  readonly recordId: number;
  /** Seconds per point (the record's measurement interval). */
  readonly intervalSeconds: number;
  readonly histogram: BandHistogram;
}

/** A band's use across the legs. */
export interface BandUsage extends StabilityBand {
  /** Minutes beyond the limit, summed across the legs (unrounded). */
  readonly consumed_minutes: number;
  /** allowed − consumed, never below 0. */
  readonly remaining_minutes: number;
  /** The band is used up: time beyond it was spent and none is left. */
  readonly used_up: boolean;
  /** Minutes beyond the limit per leg, in the order of the legs given. */
  readonly per_leg: readonly { record_id: number; consumed_minutes: number }[];
}

/** Minutes a leg spent beyond a band. */
export function legMinutesBeyond(leg: BudgetLeg, band: StabilityBand): number {
  if (!(leg.intervalSeconds > 0)) return 0;
  return (pointsBeyond(leg.histogram, band) * leg.intervalSeconds) / 60;
}

/**
 * Each band's use across the legs: consumed is the sum of every leg's minutes
 * beyond the band; used up when some time was spent beyond it and consumed
 * reached what the band allows (a band of 0 minutes is used up by the first
 * point beyond it).
 */
export function budgetUsage(
  bands: readonly StabilityBand[],
  legs: readonly BudgetLeg[],
): BandUsage[] {
  return bands.map((band) => {
    const perLeg = legs.map((leg) => ({
      record_id: leg.recordId,
      consumed_minutes: legMinutesBeyond(leg, band),
    }));
    const consumed = perLeg.reduce((sum, leg) => sum + leg.consumed_minutes, 0);
    return {
      direction: band.direction,
      limit: band.limit,
      allowed_minutes: band.allowed_minutes,
      consumed_minutes: consumed,
      remaining_minutes: Math.max(0, band.allowed_minutes - consumed),
      used_up: consumed > 0 && consumed >= band.allowed_minutes,
      per_leg: perLeg,
    };
  });
}

/**
 * Where a band is heading at the current rate: the leg in transit has spent
 * `legConsumedMinutes` beyond the band over `legElapsedMinutes`; continuing at
 * that rate for `minutesToGo` more adds `rate × minutesToGo`. Answers the
 * consumed minutes projected at the end and, when the band is not used up yet
 * but will be, the minutes from now until it is; null without a rate (nothing
 * elapsed yet).
 */
export function projectBand(
  usage: Pick<BandUsage, 'allowed_minutes' | 'consumed_minutes'>,
  legConsumedMinutes: number,
  legElapsedMinutes: number,
  minutesToGo: number,
): { projected_minutes: number; used_up_in_minutes: number | null } | null {
  if (!(legElapsedMinutes > 0) || !(minutesToGo >= 0)) return null;
  const rate = Math.min(1, Math.max(0, legConsumedMinutes / legElapsedMinutes));
  const projected = usage.consumed_minutes + rate * minutesToGo;
  const left = usage.allowed_minutes - usage.consumed_minutes;
  const usedUpIn = left > 0 && rate > 0 && left / rate <= minutesToGo ? left / rate : null;
  return { projected_minutes: projected, used_up_in_minutes: usedUpIn };
}
