import type { TRecordStabilityBudget } from '@coldtrace/contract';
import { budgetUsage, projectBand, type StabilityBand } from '@coldtrace/domain';
import type { Db } from '../../db/client';
import type { RecordRow } from '../../db/schema-shipments';
import { shipmentLegs } from './legs';

/**
 * A record's `stability_budget` (issue 14 item 3; docs/decisions/stability-budget.md):
 * its product's bands, each with the minutes consumed across the shipment's
 * legs, what remains, whether it is used up, this leg's share, and, while the
 * record is in transit with a planned arrival ahead, where the band is heading
 * at this leg's rate so far.
 */

/** Minutes as the reply carries them: 2 decimals. */
const minutes = (m: number) => Math.round(m * 100) / 100;

function inTransit(record: RecordRow, now: Date): boolean {
  return (
    record.startTimeSeconds !== null &&
    record.active &&
    record.stopTime === null &&
    record.tripStatus !== 'ARRIVED' &&
    record.plannedArrival !== null &&
    record.plannedArrival.getTime() > now.getTime()
  );
}

export async function stabilityBudgetOf(
  db: Db,
  record: RecordRow,
  now: Date = new Date(),
): Promise<TRecordStabilityBudget | null> {
  const shipment = await shipmentLegs(db, record);
  if (shipment === null) return null;
  const { inputs, legs } = shipment;
  const bands: StabilityBand[] = inputs.bands;
  const usage = budgetUsage(bands, legs);
  const self = legs.find((leg) => leg.recordId === record.id);
  const observedMinutes = self
    ? (Object.values(self.histogram.all).reduce((a, b) => a + b, 0) * self.intervalSeconds) / 60
    : 0;
  const transit = inTransit(record, now);
  const toGo = transit ? (record.plannedArrival!.getTime() - now.getTime()) / 60_000 : 0;
  return {
    product_name: inputs.productName ?? record.productDesignation,
    shipping_reference: record.shippingReference === '' ? null : record.shippingReference,
    legs: inputs.legs.map((leg) => ({
      record_id: String(leg.id),
      tag_serial_number: leg.tagSerialNumber,
      start_time: leg.startTime === null ? null : leg.startTime.toISOString(),
    })),
    planned_arrival: record.plannedArrival === null ? null : record.plannedArrival.toISOString(),
    bands: usage.map((band) => {
      const thisLeg =
        band.per_leg.find((leg) => leg.record_id === record.id)?.consumed_minutes ?? 0;
      const projection = transit ? projectBand(band, thisLeg, observedMinutes, toGo) : null;
      return {
        direction: band.direction,
        limit: band.limit,
        allowed_minutes: band.allowed_minutes,
        consumed_minutes: minutes(band.consumed_minutes),
        remaining_minutes: minutes(band.remaining_minutes),
        used_up: band.used_up,
        this_leg_minutes: minutes(thisLeg),
        projected_minutes: projection === null ? null : minutes(projection.projected_minutes),
        used_up_at:
          projection?.used_up_in_minutes == null
            ? null
            : new Date(now.getTime() + projection.used_up_in_minutes * 60_000).toISOString(),
      };
    }),
  };
}
