import { sql } from 'drizzle-orm';
import {
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { id64, orgRef, timestamptz } from './columns';

/**
 * Configuration (spec section 3, "Products, carriers, locations"): product and
 * carrier definitions. Travel locations stay with the shipment data they are
 * referenced from (schema-shipments.ts).
 */

/** One stability budget band as stored (the contract's StabilityBand). */
export interface StabilityBandJson {
  direction: 'ABOVE' | 'BELOW';
  limit: number;
  allowed_minutes: number;
}

/** Product definition (spec section 3): thresholds and excursion limits. */
export const productDefinitions = pgTable(
  'product_definitions',
  {
    id: id64(),
    organizationId: orgRef(),
    created: timestamptz('created').notNull().defaultNow(),
    productName: text('product_name').notNull(),
    highThreshold: doublePrecision('high_threshold'),
    lowThreshold: doublePrecision('low_threshold'),
    numConsecutiveExcursions: integer('num_consecutive_excursions').notNull().default(1),
    cumulativeHighThreshold: doublePrecision('cumulative_high_threshold'),
    cumulativeLowThreshold: doublePrecision('cumulative_low_threshold'),
    /** `[DD ]HH:MM:SS` strings, as the contract carries them. */
    cumulativeDurationHigh: text('cumulative_duration_high'),
    cumulativeDurationLow: text('cumulative_duration_low'),
    /** Stability budget bands (issue 14 item 3; docs/decisions/stability-budget.md); null: none. */
    stabilityBudget: jsonb('stability_budget').$type<StabilityBandJson[]>(),
  },
  (t) => [index('product_definitions_org_idx').on(t.organizationId)],
);

/** Carrier definition: a name, unique per organization ignoring case. */
export const carrierDefinitions = pgTable(
  'carrier_definitions',
  {
    id: id64(),
    organizationId: orgRef(),
    created: timestamptz('created').notNull().defaultNow(),
    name: text('name').notNull(),
  },
  (t) => [
    uniqueIndex('carrier_definitions_org_name_key').on(t.organizationId, sql`lower(${t.name})`),
  ],
);

export type ProductDefinitionRow = typeof productDefinitions.$inferSelect;
export type CarrierDefinitionRow = typeof carrierDefinitions.$inferSelect;
