import {
  budgetUsage,
  pointTime,
  pointsBeyond,
  type BandUsage,
  type DetectedAlarm,
  type RunningAggregates,
} from '@coldtrace/domain';
import type { Db } from '../../db/client';
import type { AlarmRow, RecordRow } from '../../db/schema-shipments';
import { shipmentLegs } from './legs';

/**
 * The stability budget's alarms (docs/decisions/stability-budget.md), step
 * "budget" of a record's recomputation: a band used up across the shipment's
 * legs raises one alarm of kind `budget` on the record being recomputed (a
 * started leg with data: the leg where it ran out, and every later leg that
 * carries the same goods), its direction and threshold naming the band; an
 * open budget alarm whose band is no longer used up (a leg's reference or
 * product changed, the product's bands changed, a trip window moved) closes,
 * with the reason. Raising and closing then follow the alarm lifecycle
 * (alarms/lifecycle.ts): audited, notified, signed when a person's change closes one.
 */

export interface BudgetAlarms {
  /** New budget alarms to insert. */
  raise: DetectedAlarm[];
  /** Open budget alarms that stopped holding, each with its reason. */
  closing: { row: AlarmRow; reason: string }[];
}

const NONE: BudgetAlarms = { raise: [], closing: [] };

const bandKey = (direction: string, limit: number) => `${direction} ${Math.round(limit * 10)}`;
const alarmBand = (row: AlarmRow) =>
  bandKey(
    row.aboveOrBelow,
    (row.aboveOrBelow === 'ABOVE' ? row.highThreshold : row.lowThreshold) ?? NaN,
  );

const fmt = (m: number) => `${Math.round(m * 10) / 10}`;
const bandText = (band: Pick<BandUsage, 'direction' | 'limit'>) =>
  `${band.direction === 'ABOVE' ? 'above' : 'below'} ${band.limit} °C`;

/** The audit reason of a budget alarm raised: the band and what was consumed. */
export function budgetRaiseReason(band: BandUsage, legs: number): string {
  return `Stability budget used up: ${fmt(band.consumed_minutes)} of ${band.allowed_minutes} minutes ${bandText(band)} across ${legs} leg${legs === 1 ? '' : 's'}`;
}

export async function evaluateBudgetAlarms(
  db: Db,
  record: RecordRow,
  current: RunningAggregates,
  openAlarms: readonly AlarmRow[],
): Promise<BudgetAlarms> {
  const open = openAlarms.filter((row) => row.kind === 'budget');
  if (record.productDesignation === '' && open.length === 0) return NONE;
  const shipment = await shipmentLegs(db, record, current);
  const usage = shipment === null ? [] : budgetUsage(shipment.inputs.bands, shipment.legs);
  const usedUp = new Map(
    usage.filter((b) => b.used_up).map((b) => [bandKey(b.direction, b.limit), b]),
  );
  const openKeys = new Set(open.map(alarmBand));
  const raise: DetectedAlarm[] = [];
  const hasData = record.startTimeSeconds !== null && current.lastIdx !== null;
  if (hasData) {
    for (const [key, band] of usedUp) {
      if (openKeys.has(key)) continue;
      const at = pointTime(current.basis, current.lastIdx!);
      raise.push({
        kind: 'budget',
        above_or_below: band.direction,
        first_point_idx: current.lastIdx!,
        last_point_idx: current.lastIdx!,
        start_time: at,
        end_time: at,
        duration: Math.round(band.consumed_minutes * 60),
        degree_minutes: 0,
        // The leg's extremes so far (a budget has no run of its own).
        highest_recorded_temperature: current.highest ?? band.limit,
        lowest_recorded_temperature: current.lowest ?? band.limit,
        high_threshold: band.direction === 'ABOVE' ? band.limit : null,
        low_threshold: band.direction === 'BELOW' ? band.limit : null,
        threshold: band.limit,
        number_of_points: pointsBeyond(current.bins, band),
      });
    }
  }
  const closing = open
    .filter((row) => !usedUp.has(alarmBand(row)))
    .map((row) => {
      const band = usage.find((b) => alarmBand(row) === bandKey(b.direction, b.limit));
      const reason =
        band === undefined
          ? 'The product no longer has this stability budget band, or the record no longer belongs to the shipment.'
          : `The stability budget band is no longer used up: ${fmt(band.consumed_minutes)} of ${band.allowed_minutes} minutes ${bandText(band)} across ${shipment!.legs.length} leg${shipment!.legs.length === 1 ? '' : 's'}.`;
      return { row, reason };
    });
  return { raise, closing };
}
