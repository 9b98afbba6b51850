import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { StabilityBandJson } from '../../db/schema-configuration';

/**
 * The stability budget's one read (docs/decisions/stability-budget.md): the
 * product's bands and the shipment's legs with their band histograms, in one
 * round trip, in the record's organization. The legs are the organization's
 * records with the same shipping reference and product designation (a record
 * without a shipping reference is its own shipment); the product is the
 * organization's definition of that name (the oldest, as for the product's
 * other settings).
 */

export interface LegRow {
  id: number;
  tagSerialNumber: string;
  startTime: Date | null;
  started: boolean;
  /** The aggregates' histogram, when the stored state has one (version 2); else null. */
  bins: unknown;
  /** The aggregates' interval (seconds per point), with the histogram. */
  binsInterval: number | null;
  /** Changes with every write of the record (the key of a histogram counted from its series). */
  lastModified: Date;
  /** What the series' window needs when the histogram is missing. */
  startTimeSeconds: number | null;
  startDelay: number;
  measurementInterval: number;
  calculatedMeasurementInterval: number | null;
  tripBeginTime: Date | null;
  tripEndTime: Date | null;
}

export interface BudgetInputs {
  productName: string | null;
  bands: StabilityBandJson[];
  legs: LegRow[];
}

const toDate = (v: string | Date | null) => (v === null ? null : new Date(v));

/** What names a record's shipment: its organization, shipping reference and product. */
export interface ShipmentOfRecord {
  id: number;
  organizationId: string;
  shippingReference: string;
  productDesignation: string;
}

export async function budgetInputs(db: Db, record: ShipmentOfRecord): Promise<BudgetInputs> {
  const org = record.organizationId;
  const sameShipment =
    record.shippingReference === ''
      ? sql`r.id = ${record.id}`
      : sql`r.shipping_reference = ${record.shippingReference}
            AND r.product_designation = ${record.productDesignation}`;
  const rows = await db.execute<{
    product_name: string | null;
    bands: StabilityBandJson[] | null;
    id: string | number | null;
    tag_serial_number: string | null;
    start_time_seconds: string | number | null;
    bins: unknown;
    bins_interval: number | null;
    start_delay: number | null;
    measurement_interval: number | null;
    calculated_measurement_interval: number | null;
    trip_begin_time: string | Date | null;
    trip_end_time: string | Date | null;
    last_modified: string | Date | null;
  }>(sql`
    WITH product AS (
      SELECT p.product_name, p.stability_budget
        FROM product_definitions p
       WHERE p.organization_id = ${org} AND p.product_name = ${record.productDesignation}
       ORDER BY p.id LIMIT 1
    )
    SELECT product.product_name, product.stability_budget AS bands, legs.*
      FROM product
      LEFT JOIN LATERAL (
        SELECT r.id, r.tag_serial_number, r.start_time_seconds, r.start_delay,
               r.measurement_interval, r.calculated_measurement_interval,
               r.trip_begin_time, r.trip_end_time, r.last_modified,
               CASE WHEN a.state->'current'->>'version' = '2' THEN a.state->'current'->'bins' END AS bins,
               (a.state->'current'->'basis'->>'intervalSeconds')::float8 AS bins_interval
          FROM records r
          LEFT JOIN record_aggregates a ON a.record_id = r.id AND a.organization_id = r.organization_id
         WHERE r.organization_id = ${org} AND (${sameShipment})
           AND jsonb_typeof(product.stability_budget) = 'array'
           AND jsonb_array_length(product.stability_budget) > 0
         ORDER BY r.start_time_seconds NULLS LAST, r.id
      ) legs ON true`);
  const first = rows.rows[0];
  if (!first) return { productName: null, bands: [], legs: [] };
  return {
    productName: first.product_name,
    bands: Array.isArray(first.bands) ? first.bands : [],
    legs: rows.rows
      .filter((r) => r.id !== null)
      .map((r) => ({
        id: Number(r.id),
        tagSerialNumber: r.tag_serial_number ?? '',
        startTime:
          r.start_time_seconds === null ? null : new Date(Number(r.start_time_seconds) * 1000),
        started: r.start_time_seconds !== null,
        bins: r.bins ?? null,
        binsInterval: r.bins_interval,
        startTimeSeconds: r.start_time_seconds === null ? null : Number(r.start_time_seconds),
        startDelay: r.start_delay ?? 0,
        measurementInterval: r.measurement_interval ?? 0,
        calculatedMeasurementInterval: r.calculated_measurement_interval,
        tripBeginTime: toDate(r.trip_begin_time),
        tripEndTime: toDate(r.trip_end_time),
        lastModified: toDate(r.last_modified) ?? new Date(0),
      })),
  };
}
