import {
  effectiveInterval,
  histogramOf,
  windowIndices,
  type BandHistogram,
  type BudgetLeg,
  type RunningAggregates,
} from '@coldtrace/domain';
import type { Db } from '../../db/client';
import { readSeries } from '../../kernel/series-store';
import { budgetInputs, type BudgetInputs, type LegRow, type ShipmentOfRecord } from './repository';

/**
 * The legs of a record's shipment as the budget counts them
 * (docs/decisions/stability-budget.md): each leg's histogram of the points in
 * its evaluation window, from its running aggregates. A leg whose aggregates
 * were stored before histograms existed (a record finished before this
 * change) has its series read once and counted over the same window; the
 * result is kept in a bounded per-process cache keyed by the record and its
 * last write, so a record page polling every 10 s does not read it again.
 */

function isHistogram(value: unknown): value is BandHistogram {
  const v = value as { all?: unknown; edge?: unknown } | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.all === 'object' &&
    v.all !== null &&
    typeof v.edge === 'object' &&
    v.edge !== null
  );
}

const seconds = (d: Date | null) => (d === null ? null : d.getTime() / 1000);

/** Histograms counted from a series, by `organization:record id:last write`; the oldest go first past the bound. */
const LEGACY_CACHE_SIZE = 1_000;
const legacyLegs = new Map<string, BudgetLeg>();

async function legacyLeg(db: Db, organizationId: string, row: LegRow): Promise<BudgetLeg> {
  const key = `${organizationId}:${row.id}:${row.lastModified.getTime()}`;
  const cached = legacyLegs.get(key);
  if (cached) return cached;
  const intervalSeconds =
    effectiveInterval({
      measurement_interval: row.measurementInterval,
      calculated_measurement_interval: row.calculatedMeasurementInterval,
    }) ?? row.measurementInterval;
  const times = {
    startTimeSeconds: row.startTimeSeconds ?? 0,
    startDelay: row.startDelay,
    intervalSeconds,
  };
  const trip = { begin: seconds(row.tripBeginTime), end: seconds(row.tripEndTime) };
  const window = windowIndices(times, trip, row.started);
  const values = await readSeries(db, row.id);
  const inWindow = values.slice(window.from, window.to === null ? undefined : window.to + 1);
  const leg = { recordId: row.id, intervalSeconds, histogram: histogramOf(inWindow) };
  legacyLegs.set(key, leg);
  if (legacyLegs.size > LEGACY_CACHE_SIZE) legacyLegs.delete(legacyLegs.keys().next().value!);
  return leg;
}

function legOf(db: Db, organizationId: string, row: LegRow): BudgetLeg | Promise<BudgetLeg> {
  if (isHistogram(row.bins) && row.binsInterval !== null && row.binsInterval > 0) {
    return { recordId: row.id, intervalSeconds: row.binsInterval, histogram: row.bins };
  }
  return legacyLeg(db, organizationId, row);
}

export interface ShipmentLegs {
  inputs: BudgetInputs;
  /** In the order of `inputs.legs` (oldest start first); the record's own leg last when folded just now. */
  legs: BudgetLeg[];
}

/**
 * The product's bands and the shipment's legs of `record`; `current`: the
 * record's own aggregates as just folded (a recomputation: the stored ones
 * are about to be replaced, and the record's row may not carry this very
 * change yet). Null: the record names no product, or its product has no budget.
 */
export async function shipmentLegs(
  db: Db,
  record: ShipmentOfRecord,
  current?: RunningAggregates,
): Promise<ShipmentLegs | null> {
  if (record.productDesignation === '') return null;
  const inputs = await budgetInputs(db, record);
  if (inputs.bands.length === 0) return null;
  const legs: BudgetLeg[] = [];
  for (const row of inputs.legs) {
    if (row.id === record.id && current !== undefined) continue;
    legs.push(await legOf(db, record.organizationId, row));
  }
  if (current !== undefined) {
    legs.push({
      recordId: record.id,
      intervalSeconds: current.basis.intervalSeconds,
      histogram: current.bins,
    });
  }
  return { inputs, legs };
}
