import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';

/**
 * The KPI query (docs/decisions/kpis.md). A known boundary exception: it reads
 * `records` (records module), `alarms` (alarms module), `record_dispositions`
 * (review module) and `travel_locations` (configuration) in one grouped
 * query, because an aggregate over a million records cannot be assembled from
 * the owners' per-id reads. It only reads, and names the organization on
 * every table.
 */

export interface KpiFilter {
  organizationId: string;
  /** Start times in [fromSeconds, toSeconds). */
  fromSeconds: number;
  toSeconds: number;
  groupBy: 'lane' | 'carrier';
  interval: 'week' | 'month';
  product?: string | undefined;
}

/** One grouping set's sums: a group (lane or carrier), a period bucket, or the whole. */
export interface KpiSums {
  kind: 'group' | 'bucket' | 'total';
  originId: string | null;
  destinationId: string | null;
  carrier: string | null;
  bucket: string | null;
  shipments: number;
  withExcursion: number;
  degreeMinutes: number;
  ackMinutes: number;
  acknowledged: number;
  released: number;
  rejected: number;
}

export interface LocationName {
  id: string;
  name: string;
}

/**
 * One pass over the period's shipments, joined (hash joins) to the
 * organization's alarms summed per record (count, degree-minutes,
 * acknowledgement minutes) and to each record's latest release decision (kept
 * in record_latest_decisions, migration 0027: picking it from every decision
 * of the organization was two thirds of a month's call at 1,000,000 records,
 * docs/decisions/kpis.md);
 * then the sums per group, per bucket and overall (GROUPING SETS). Alarms are
 * a few per cent of records, so summing them all once beats one index probe
 * per shipment on long periods (docs/decisions/kpis.md).
 */
export async function kpiSums(db: Db, f: KpiFilter): Promise<KpiSums[]> {
  const org = f.organizationId;
  const groupKey =
    f.groupBy === 'lane'
      ? sql`s.shipper_location_id, s.receiver_location_id`
      : sql`lower(s.carrier_name)`;
  const product =
    f.product === undefined || f.product === ''
      ? sql``
      : sql`AND lower(btrim(r.product_designation)) = lower(${f.product})`;
  const { rows } = await db.execute<Record<string, unknown>>(sql`
    WITH s AS (
      SELECT r.id,
             r.shipper_location_id,
             r.receiver_location_id,
             btrim(r.carrier) AS carrier_name,
             to_char(date_trunc(${f.interval}, to_timestamp(r.start_time_seconds) AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS bucket,
             a.n AS alarms,
             a.degree_minutes,
             a.ack_minutes,
             a.acknowledged,
             d.decision
        FROM records r
        LEFT JOIN (
          SELECT al.record_id,
                 count(*) AS n,
                 sum(al.degree_minutes) AS degree_minutes,
                 sum(extract(epoch FROM al.acknowledged_at - al.created) / 60)
                   FILTER (WHERE al.acknowledged_at IS NOT NULL) AS ack_minutes,
                 count(al.acknowledged_at) AS acknowledged
            FROM alarms al
           WHERE al.organization_id = ${org}
           GROUP BY al.record_id
        ) a ON a.record_id = r.id
        LEFT JOIN record_latest_decisions d
          ON d.organization_id = ${org} AND d.record_id = r.id
       WHERE r.organization_id = ${org}
         AND r.start_time_seconds >= ${f.fromSeconds}
         AND r.start_time_seconds < ${f.toSeconds}
         ${product}
    )
    SELECT CASE WHEN grouping(s.bucket) = 0 THEN 'bucket'
                WHEN grouping(${groupKey}) = 0 THEN 'group'
                ELSE 'total' END AS kind,
           ${f.groupBy === 'lane' ? sql`s.shipper_location_id::text AS origin_id, s.receiver_location_id::text AS destination_id, NULL AS carrier` : sql`NULL AS origin_id, NULL AS destination_id, min(s.carrier_name) AS carrier`},
           s.bucket,
           count(*)::int AS shipments,
           (count(*) FILTER (WHERE s.alarms > 0))::int AS with_excursion,
           coalesce(sum(s.degree_minutes), 0)::float8 AS degree_minutes,
           coalesce(sum(s.ack_minutes), 0)::float8 AS ack_minutes,
           coalesce(sum(s.acknowledged), 0)::int AS acknowledged,
           (count(*) FILTER (WHERE s.decision = 'RELEASED'))::int AS released,
           (count(*) FILTER (WHERE s.decision = 'REJECTED'))::int AS rejected
      FROM s
     GROUP BY GROUPING SETS ((${groupKey}), (s.bucket), ())
  `);
  return rows.map((r) => ({
    kind: r.kind as KpiSums['kind'],
    originId: (r.origin_id as string | null) ?? null,
    destinationId: (r.destination_id as string | null) ?? null,
    carrier: (r.carrier as string | null) ?? null,
    bucket: (r.bucket as string | null) ?? null,
    shipments: Number(r.shipments),
    withExcursion: Number(r.with_excursion),
    degreeMinutes: Number(r.degree_minutes),
    ackMinutes: Number(r.ack_minutes),
    acknowledged: Number(r.acknowledged),
    released: Number(r.released),
    rejected: Number(r.rejected),
  }));
}

/** The names of the organization's travel locations among `ids`. */
export async function locationNames(
  db: Db,
  organizationId: string,
  ids: readonly string[],
): Promise<LocationName[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.execute<{ id: string; name: string }>(sql`
    SELECT id::text AS id, name FROM travel_locations
     WHERE organization_id = ${organizationId}
       AND id = ANY(${`{${ids.join(',')}}`}::bigint[])`);
  return rows;
}
