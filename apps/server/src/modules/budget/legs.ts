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
import { budgetInputs, type BudgetInputs, type LegRow } from './repository';

/**
 * The legs of a record's shipment as the budget counts them
 * (docs/decisions/stability-budget.md): each leg's histogram of the points in
 * its evaluation window, from its running aggregates; a leg whose aggregates
 * were stored before histograms existed has its series read once and counted
 * over the same window (its trip as stored).
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

async function legOf(db: Db, row: LegRow): Promise<BudgetLeg> {
  if (isHistogram(row.bins) && row.binsInterval !== null && row.binsInterval > 0) {
    return { recordId: row.id, intervalSeconds: row.binsInterval, histogram: row.bins };
  }
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
  const window = windowIndices(
    times,
    { begin: seconds(row.tripBeginTime), end: seconds(row.tripEndTime) },
    row.started,
  );
  const values = await readSeries(db, row.id);
  const inWindow = values.slice(window.from, window.to === null ? undefined : window.to + 1);
  return { recordId: row.id, intervalSeconds, histogram: histogramOf(inWindow) };
}

export interface ShipmentLegs {
  inputs: BudgetInputs;
  /** In the order of `inputs.legs` (oldest start first). */
  legs: BudgetLeg[];
}

/**
 * The product's bands and the shipment's legs of `record`; `current`: the
 * record's own aggregates as just folded (a recomputation: the stored ones
 * are about to be replaced). Null: the record names no product, or its
 * product has no budget.
 */
export async function shipmentLegs(
  db: Db,
  record: {
    id: number;
    organizationId: string;
    shippingReference: string;
    productDesignation: string;
    tagSerialNumber: string;
    startTimeSeconds: number | null;
  },
  current?: RunningAggregates,
): Promise<ShipmentLegs | null> {
  if (record.productDesignation === '') return null;
  const inputs = await budgetInputs(db, record, { withBins: true });
  if (inputs.bands.length === 0) return null;
  if (!inputs.legs.some((leg) => leg.id === record.id)) {
    // The record's own row may not carry this very change yet (the recomputation writes it last).
    inputs.legs.push({
      id: record.id,
      tagSerialNumber: record.tagSerialNumber,
      startTime: record.startTimeSeconds === null ? null : new Date(record.startTimeSeconds * 1000),
      started: record.startTimeSeconds !== null,
      bins: null,
      binsInterval: null,
      startTimeSeconds: record.startTimeSeconds,
      startDelay: 0,
      measurementInterval: 0,
      calculatedMeasurementInterval: null,
      tripBeginTime: null,
      tripEndTime: null,
    });
  }
  const legs: BudgetLeg[] = [];
  for (const row of inputs.legs) {
    if (row.id === record.id && current !== undefined) {
      legs.push({
        recordId: row.id,
        intervalSeconds: current.basis.intervalSeconds,
        histogram: current.bins,
      });
    } else {
      legs.push(await legOf(db, row));
    }
  }
  return { inputs, legs };
}
