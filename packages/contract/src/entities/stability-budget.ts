import { z } from 'zod';
import { ZAboveOrBelow } from '../enums';

/**
 * Stability budgets (issue 14 item 3; ours, beyond the spec;
 * docs/decisions/stability-budget.md): a product definition may carry bands,
 * each "time allowed beyond a limit"; the time a shipment spends beyond each
 * band is summed across all its legs (the organization's records with the same
 * shipping reference and product).
 */

/** Most bands a product may carry. */
export const STABILITY_BUDGET_MAX_BANDS = 10;
/** Longest allowance of a band: one year, in minutes. */
export const STABILITY_BUDGET_MAX_MINUTES = 525_600;

/** Whether a limit is a multiple of 0.1 °C (float noise of one, such as 0.30000000000000004, is one). */
export function isTenthOfDegree(value: number): boolean {
  const scaled = value * 10;
  return Number.isFinite(value) && Math.abs(scaled - Math.round(scaled)) < 1e-6;
}

/** One band as a product carries it. */
export const ZStabilityBand = z
  .object({
    direction: ZAboveOrBelow.describe('ABOVE: time above the limit counts; BELOW: time below it'),
    limit: z.number().describe('°C, a multiple of 0.1'),
    allowed_minutes: z.number().int().describe('Minutes the product may spend beyond the limit'),
  })
  .meta({ id: 'StabilityBand' });
export type TStabilityBand = z.infer<typeof ZStabilityBand>;

/** A band in a product form: bounded, the limit a multiple of 0.1 °C. */
export const ZStabilityBandInput = z.object({
  direction: ZAboveOrBelow,
  limit: z
    .number()
    .min(-100)
    .max(200)
    .refine(isTenthOfDegree, { message: 'must be a multiple of 0.1 °C' })
    .describe('°C, a multiple of 0.1, from -100 to 200'),
  allowed_minutes: z
    .number()
    .int()
    .min(0)
    .max(STABILITY_BUDGET_MAX_MINUTES)
    .describe('Minutes allowed beyond the limit, 0 to 525,600 (a year)'),
});

/** The bands of a product form: at most ten, no two with the same direction and limit. */
export const ZStabilityBudgetInput = z
  .array(ZStabilityBandInput)
  .max(STABILITY_BUDGET_MAX_BANDS)
  .superRefine((bands, ctx) => {
    const seen = new Set<string>();
    bands.forEach((band, i) => {
      const key = `${band.direction} ${Math.round(band.limit * 10)}`;
      if (seen.has(key)) {
        ctx.addIssue({
          code: 'custom',
          path: [i, 'limit'],
          message: `a band ${band.direction} ${band.limit} °C is already given`,
        });
      }
      seen.add(key);
    });
  })
  .nullable()
  .optional()
  .describe(
    'Stability budget: bands of time allowed beyond a limit, summed across every leg of a shipment (same shipping_reference and product); null or [] for none',
  );

/** A band's use across the legs, in a record's reply. */
export const ZStabilityBandUsage = ZStabilityBand.extend({
  consumed_minutes: z.number().describe('Minutes beyond the limit, summed across the legs'),
  remaining_minutes: z.number().describe('allowed − consumed, never below 0'),
  used_up: z
    .boolean()
    .describe('Time beyond the limit was spent and none is left (an alarm is raised)'),
  this_leg_minutes: z.number().describe("This record's own minutes beyond the limit"),
  projected_minutes: z
    .number()
    .nullable()
    .describe(
      "Consumed minutes projected at the planned arrival at this leg's rate so far; null: the record is not in transit or has no planned arrival",
    ),
  used_up_at: z
    .string()
    .nullable()
    .describe('When the band will be used up at that rate, before the planned arrival; else null'),
}).meta({ id: 'StabilityBandUsage' });
export type TStabilityBandUsage = z.infer<typeof ZStabilityBandUsage>;

/** One leg of the shipment. */
export const ZStabilityBudgetLeg = z
  .object({
    record_id: z.string(),
    tag_serial_number: z.string(),
    start_time: z.string().nullable(),
  })
  .meta({ id: 'StabilityBudgetLeg' });

/** A record's stability budget: its product's bands, summed across the shipment's legs. */
export const ZRecordStabilityBudget = z
  .object({
    product_name: z.string(),
    shipping_reference: z
      .string()
      .nullable()
      .describe('The reference the legs share; null: the record has none and is its own shipment'),
    legs: z.array(ZStabilityBudgetLeg).describe('The legs summed, oldest first'),
    planned_arrival: z.string().nullable().describe('What the projection runs to'),
    bands: z.array(ZStabilityBandUsage),
  })
  .meta({ id: 'RecordStabilityBudget' });
export type TRecordStabilityBudget = z.infer<typeof ZRecordStabilityBudget>;
