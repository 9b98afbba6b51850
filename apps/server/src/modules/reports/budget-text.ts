import type { TDegreesUnit, TRecord } from '@coldtrace/contract';
import { formatTemperature } from '@coldtrace/domain';
import type { SummaryLine } from './report-model';

/**
 * The stability budget (issue 14 item 3, docs/decisions/stability-budget.md)
 * as every report tells it, after the release decision: one line per band of
 * the product, with the minutes used across the shipment's legs, as the record
 * page and the API show them. Nothing when the product has no budget.
 */

const minutes = (m: number) => `${Math.round(m * 100) / 100} min`;

export function budgetLines(record: TRecord, unit: TDegreesUnit): SummaryLine[] {
  const budget = record.stability_budget;
  if (!budget) return [];
  const legs = budget.legs.length;
  const scope = budget.shipping_reference
    ? `shipment ${budget.shipping_reference}, ${legs} leg${legs === 1 ? '' : 's'}`
    : 'this record only';
  return [
    { label: 'Stability budget', value: `${budget.product_name} (${scope})` },
    ...budget.bands.map((band) => ({
      label: `Budget ${band.direction === 'ABOVE' ? 'above' : 'below'} ${formatTemperature(band.limit, unit)}`,
      value:
        `${minutes(band.consumed_minutes)} of ${minutes(band.allowed_minutes)} used` +
        `${band.used_up ? ' (used up)' : `, ${minutes(band.remaining_minutes)} left`}` +
        `; this leg ${minutes(band.this_leg_minutes)}`,
    })),
  ];
}
