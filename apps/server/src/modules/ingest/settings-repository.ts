import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { fromDriverRow } from '../../db/driver-row';
import {
  organizationSettings,
  productDefinitions,
  travelLocations,
  type OrganizationSettingsRow,
  type TravelLocationRow,
} from '../../db/schema-shipments';

/**
 * What a run and its trip take from the organization's settings: the
 * consecutive excursions of a product definition, the travel locations and
 * the geo-fence. Every query scopes by the organization. The records
 * themselves are the records module's (`records/writes.ts`, `records/lookups.ts`).
 */

/**
 * The num_consecutive_excursions of the organization's product definition of
 * this name (the oldest, when several have it); undefined: no such product.
 */
export async function productConsecutive(
  db: Db,
  organizationId: string,
  productName: string,
): Promise<number | undefined> {
  const [row] = await db
    .select({ value: productDefinitions.numConsecutiveExcursions })
    .from(productDefinitions)
    .where(
      and(
        eq(productDefinitions.organizationId, organizationId),
        eq(productDefinitions.productName, productName),
      ),
    )
    .orderBy(productDefinitions.id)
    .limit(1);
  return row?.value;
}

/**
 * The travel locations (of the organization) with these ids and the
 * organization's geo-fence settings, in one round trip.
 */
export async function findTripInputs(
  db: Db,
  organizationId: string,
  ids: readonly number[],
): Promise<{ locations: TravelLocationRow[]; settings: OrganizationSettingsRow | undefined }> {
  const result = await db.execute<{
    locations: Record<string, unknown>[] | null;
    settings: Record<string, unknown> | null;
  }>(sql`
    select
      (select json_agg(l) from ${travelLocations} l
        where l.organization_id = ${organizationId}
          and l.id = any(${`{${ids.join(',')}}`}::bigint[])) as locations,
      (select row_to_json(s) from ${organizationSettings} s
        where s.organization_id = ${organizationId}) as settings`);
  const row = result.rows[0]!;
  return {
    locations: (row.locations ?? []).map((l) => fromDriverRow(travelLocations, l)),
    settings: row.settings ? fromDriverRow(organizationSettings, row.settings) : undefined,
  };
}

export async function findTravelLocations(
  db: Db,
  organizationId: string,
  ids: readonly number[],
): Promise<TravelLocationRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(travelLocations)
    .where(
      and(
        eq(travelLocations.organizationId, organizationId),
        inArray(travelLocations.id, [...ids]),
      ),
    );
}
